import { useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { plainError } from '../shop/errors.js';
import { Notice } from '../ui/Notice.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useAdmin } from './context.js';
import { formatMoney } from '../ui/money.js';

/** The page's heading and its main actions; sets the tab title too. */
export function PageHead({ title, children, lead }: { title: string; children?: ReactNode; lead?: ReactNode }) {
  usePageTitle(`${title} · Back office`);
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {lead && <p className="muted">{lead}</p>}
      </div>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** Money as the server sends it (a decimal string) in the site's currency, formatted without a float. */
export function useMoney() {
  const { currency } = useAdmin();
  return (amount: string | number | undefined | null) => formatMoney(amount, currency);
}

const LABELS: Record<string, string> = {
  PAID: 'Paid', NOT_PAID: 'Unpaid', PENDING: 'Pending', PARTIALLY_PAID: 'Partly paid', PARTIALLY_REFUNDED: 'Partly refunded',
  FULLY_REFUNDED: 'Refunded', CANCELED: 'Canceled', DECLINED: 'Declined', PENDING_MERCHANT: 'Pending',
  NOT_FULFILLED: 'Unfulfilled', FULFILLED: 'Fulfilled', PARTIALLY_FULFILLED: 'Partly fulfilled',
  APPROVED: 'Approved', BLOCKED: 'Blocked', OFFLINE: 'Offline', ACTIVE: 'Active', MUTED: 'Muted', UNKNOWN: 'Unknown',
  STORED: 'Stored', QUEUED: 'Queued', SENDING: 'Sending', SENT: 'Sent', FAILED: 'Failed', DELIVERED: 'Delivered',
  RUNNING: 'Running', DONE: 'Done', REJECTED: 'Rejected', RECEIVED: 'Waiting', NOTIFICATION_SENT: 'Mailed',
  UNPAID: 'Unpaid', EXPIRED: 'Expired', VOIDED: 'Withdrawn',
};
const TONES: Record<string, string> = {
  PAID: 'ok', FULFILLED: 'ok', APPROVED: 'ok', SENT: 'ok', DELIVERED: 'ok', DONE: 'ok', ACTIVE: 'ok',
  NOT_PAID: 'warn', NOT_FULFILLED: 'warn', PENDING: 'warn', PARTIALLY_PAID: 'warn', PARTIALLY_FULFILLED: 'warn', QUEUED: 'warn', STORED: 'soft',
  REJECTED: 'bad', RECEIVED: 'warn', NOTIFICATION_SENT: 'ok', UNPAID: 'warn', EXPIRED: 'soft', VOIDED: 'soft',
  CANCELED: 'bad', DECLINED: 'bad', BLOCKED: 'bad', FAILED: 'bad', FULLY_REFUNDED: 'soft', PARTIALLY_REFUNDED: 'soft', MUTED: 'soft',
};

export const statusLabel = (status: string | undefined) => (status ? LABELS[status] ?? status : '—');

/** A status as a word (never colour alone), the raw value kept for tests and tools. */
export function Status({ value }: { value: string | undefined }) {
  return <span className={`status status-${TONES[value ?? ''] ?? 'soft'}`} data-status={value}>{statusLabel(value)}</span>;
}

export function shortDate(date: Date | string | undefined): string {
  if (!date) return '';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
/** `2026-03-01` → `Mar 1, 2026`, read as a calendar date (no time zone shift). */
export function longDate(date: string | undefined): string {
  if (!date) return '';
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : d.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
}
export function dateTime(date: Date | string | undefined): string {
  if (!date) return '';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** A dialog with a title; Radix keeps focus inside and gives it back on close. */
export function Modal({ open, onOpenChange, title, description, children, wide }: {
  open: boolean; onOpenChange: (open: boolean) => void; title: string; description?: string; children: ReactNode; wide?: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content className={`modal ${wide ? 'modal-wide' : ''}`} aria-describedby={description ? undefined : undefined}>
          <div className="modal-head">
            <Dialog.Title>{title}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d="M6 6l12 12M18 6 6 18" /></svg>
            </Dialog.Close>
          </div>
          {description ? <Dialog.Description className="muted">{description}</Dialog.Description> : <Dialog.Description className="visually-hidden">{title}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** "Are you sure?" for what cannot be undone. */
export function Confirm({ open, onOpenChange, title, children, confirmLabel, onConfirm, busy, error }: {
  open: boolean; onOpenChange: (open: boolean) => void; title: string; children: ReactNode; confirmLabel: string;
  onConfirm: () => void; busy?: boolean; error?: unknown;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title}>
      {children}
      {error !== undefined && error !== null && <Notice kind="error">{plainError(error)}</Notice>}
      <div className="actions modal-actions">
        <button type="button" className="button danger" disabled={busy} onClick={onConfirm}>{busy ? 'Working…' : confirmLabel}</button>
        <button type="button" className="button secondary" onClick={() => onOpenChange(false)}>Keep it</button>
      </div>
    </Modal>
  );
}

/** Previous / next over an offset-paged list, with where we are in words. */
export function Pager({ offset, limit, total, count, onOffset, label }: {
  offset: number; limit: number; total?: number; count: number; onOffset: (offset: number) => void; label: string;
}) {
  const from = count === 0 ? 0 : offset + 1;
  const to = offset + count;
  const hasNext = total !== undefined ? to < total : count === limit;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <p className="muted small" aria-live="polite">{count === 0 ? 'Nothing here' : `${from}–${to}${total !== undefined ? ` of ${total}` : ''}`}</p>
      <div className="actions">
        <button type="button" className="button secondary small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>Previous</button>
        <button type="button" className="button secondary small" disabled={!hasNext} onClick={() => onOffset(offset + limit)}>Next</button>
      </div>
    </nav>
  );
}

/**
 * Previous / next over a cursor-paged list: `cursors` is the stack of cursors that led to the
 * page shown (empty on the first); shown only when there is another page.
 */
export function CursorPager({ cursors, nextCursor, onCursors, label }: {
  cursors: readonly string[]; nextCursor: string | undefined; onCursors: (cursors: string[]) => void; label: string;
}) {
  if (cursors.length === 0 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <span />
      <div className="actions">
        <button type="button" className="button secondary small" disabled={cursors.length === 0} onClick={() => onCursors(cursors.slice(0, -1))}>Previous</button>
        <button type="button" className="button secondary small" disabled={!nextCursor} onClick={() => nextCursor && onCursors([...cursors, nextCursor])}>Next</button>
      </div>
    </nav>
  );
}

export { saveFile } from '../ui/save-file.js';

/** The outcome of the last action on a page, shown until the next one. */
export function useResult() {
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  return {
    result,
    ok: (text: string) => setResult({ kind: 'success', text }),
    fail: (error: unknown) => setResult({ kind: 'error', text: plainError(error) }),
    clear: () => setResult(null),
    view: result ? <Notice kind={result.kind}>{result.text}</Notice> : null,
  };
}

export function Spinner({ label }: { label: string }) {
  return <span className="spinner" role="status"><span className="visually-hidden">{label}</span></span>;
}
