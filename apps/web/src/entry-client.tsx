import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from './router/Router.js';
import { hydrate, QueryClient } from '@tanstack/react-query';
import { AppRoutes, preloadPages } from './routes.js';
import { readBootstrap } from './shop/bootstrap.js';
import { browserClient } from './shop/client.js';
import { AppProviders } from './shop/AppProviders.js';

async function start() {
  const boot = readBootstrap();
  const client = browserClient(boot?.clientId ?? '');
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } });
  if (boot?.state) hydrate(queryClient, boot.state);

  // The server rendered this URL's pages; load their bundles before hydrating so the markup matches.
  await preloadPages(window.location.pathname);
  const site = { siteId: boot?.siteId ?? '', clientId: boot?.clientId ?? '', name: boot?.siteName ?? 'Bodega', currency: boot?.currency ?? 'USD', origin: window.location.origin };
  const app = (
    <StrictMode>
      <AppProviders queryClient={queryClient} site={site} catalog={client} client={client}>
        <BrowserRouter><AppRoutes /></BrowserRouter>
      </AppProviders>
    </StrictMode>
  );
  const root = document.getElementById('root');
  if (!root) return;
  if (root.firstElementChild) hydrateRoot(root, app);
  else createRoot(root).render(app);
}

void start();
