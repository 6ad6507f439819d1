import { useEffect, useState } from 'react';

/** Placeholder storefront until the catalog and cart exist: shows that the API answers. */
export function App() {
  const [health, setHealth] = useState<'checking' | 'ok' | 'down'>('checking');
  useEffect(() => {
    fetch('/healthz')
      .then((res) => setHealth(res.ok ? 'ok' : 'down'))
      .catch(() => setHealth('down'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Bodega</h1>
      <p>Welcome to the store. The catalog arrives soon.</p>
      <p role="status">
        API status: <strong data-testid="api-status">{health}</strong>
      </p>
    </main>
  );
}
