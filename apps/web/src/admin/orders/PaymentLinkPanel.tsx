// "Payment link": the order's balance due asked of the customer through a signed link to the
// shop's payment step — made, copied, and e-mailed to the buyer through the store's mail.
import { useState } from 'react';
import { plainError } from '../../shop/errors.js';
import { Notice } from '../../ui/Notice.js';
import { Status } from '../ui.js';
import { usePaymentLinkAction, usePaymentLinkUrl, usePaymentRequests } from './queries.js';

export function PaymentLinkPanel({ orderId, owing }: { orderId: string; owing: boolean }) {
  const requests = usePaymentRequests(orderId);
  const act = usePaymentLinkAction(orderId);
  const urlOf = usePaymentLinkUrl();
  const [url, setUrl] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<unknown>();
  const open = (requests.data ?? []).find((r) => r.status === 'UNPAID');
  const last = (requests.data ?? [])[0];

  function create() {
    setError(undefined);
    setMessage(undefined);
    act.mutate({ kind: 'create' }, { onSuccess: (r) => setUrl(r.url), onError: setError });
  }
  function show(requestId: string) {
    setError(undefined);
    urlOf.mutate(requestId, { onSuccess: setUrl, onError: setError });
  }
  function send(requestId: string) {
    setError(undefined);
    act.mutate({ kind: 'send', requestId }, { onSuccess: (r) => setMessage(`The payment link was e-mailed to ${r.sentTo}.`), onError: setError });
  }
  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setMessage('The link is copied.');
    } catch {
      setMessage('Select the link and copy it.');
    }
  }

  if (!owing && !last) return null;
  return (
    <section className="panel" aria-labelledby="payment-link-heading">
      <h2 id="payment-link-heading">Payment link</h2>
      {last && <p>Last request: {last.amount?.formattedAmount} <Status value={last.status} /></p>}
      {owing && !open && (
        <>
          <p className="muted small">A link to the shop&apos;s payment page for the balance due. The customer pays by card; the order is then paid.</p>
          <button type="button" className="button" onClick={create} disabled={act.isPending}>{act.isPending ? 'Creating…' : 'Create payment link'}</button>
        </>
      )}
      {open && !url && <p><button type="button" className="button secondary" onClick={() => show(open._id ?? '')} disabled={urlOf.isPending}>Show the link</button></p>}
      {url && (
        <div className="form-grid">
          <div className="field">
            <label htmlFor="payment-link-url">Link</label>
            <input id="payment-link-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </div>
          <div className="actions">
            <button type="button" className="button secondary" onClick={() => void copy()}>Copy link</button>
            {open && <button type="button" className="button secondary" onClick={() => send(open._id ?? '')} disabled={act.isPending}>Send by e-mail</button>}
          </div>
        </div>
      )}
      {message && <Notice kind="success"><span role="status">{message}</span></Notice>}
      {error !== undefined && <Notice kind="error">{plainError(error)}</Notice>}
    </section>
  );
}
