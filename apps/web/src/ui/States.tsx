import type { ReactNode } from 'react';
import { Link } from '../router/Router.js';
import { plainError } from '../shop/errors.js';

/** A loading placeholder that keeps the layout still and tells screen readers what happens. */
export function Loading({ label = 'Loading…', lines = 3, page = false }: { label?: string; lines?: number; page?: boolean }) {
  return (
    <div className={`loading ${page ? 'loading-page' : ''}`} role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, i) => <div key={i} className="skeleton" aria-hidden="true" />)}
    </div>
  );
}

export function ErrorState({ error, retry, title = 'This didn’t load' }: { error: unknown; retry?: () => void; title?: string }) {
  return (
    <div className="state state-error" role="alert">
      <h2>{title}</h2>
      <p>{plainError(error)}</p>
      {retry && <button type="button" className="button secondary" onClick={retry}>Try again</button>}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: { to: string; label: string } }) {
  return (
    <div className="state">
      <h2>{title}</h2>
      {children}
      {action && <p><Link className="button" to={action.to}>{action.label}</Link></p>}
    </div>
  );
}
