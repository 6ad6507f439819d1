import type { ReactNode } from 'react';

/** A form-level error (announced at once) or an information message (announced politely). */
export function Notice({ kind, children }: { kind: 'error' | 'info' | 'success'; children: ReactNode }) {
  return kind === 'error'
    ? <div role="alert" className="notice notice-error">{children}</div>
    : <div role="status" className={`notice notice-${kind}`}>{children}</div>;
}
