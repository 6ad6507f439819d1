// The order page's invoices panel (issue 31): issue the order's invoice, see its totals' rows (fees
// and tip among them), download its PDF, mail it, void it (sent) or delete it (never sent).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Invoice } from '@bodega/sdk';
import { invoiceFileName } from '../../domain/invoice.js';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { InvoiceStatus } from '../invoices/InvoiceStatus.js';
import { useCloseInvoice, useCreateInvoice, useInvoicePdf, useOrderInvoices, useSendInvoice } from '../invoices/queries.js';
import { Confirm, dateTime, saveFile, useResult } from '../ui.js';

const sendSchema = z.object({ email: z.string().trim().email('Enter an e-mail address') });

function SendForm({ invoice, defaultEmail, busy, onSend }: { invoice: Invoice; defaultEmail: string; busy: boolean; onSend: (email: string) => void }) {
  const { register, handleSubmit, formState: { errors } } = useForm<{ email: string }>({ resolver: zodResolver(sendSchema), defaultValues: { email: defaultEmail } });
  return (
    <form className="stack" noValidate aria-label={`Send invoice ${invoice.invoiceNumber ?? ''}`} onSubmit={(e) => void handleSubmit((f) => onSend(f.email))(e)}>
      <Field label="Send to" type="email" autoComplete="email" {...register('email')} error={errors.email?.message} hint="The mail carries a link to the PDF that works for 30 days." />
      <div className="actions"><button type="submit" className="button small" disabled={busy}>{busy ? 'Sending…' : 'Send invoice'}</button></div>
    </form>
  );
}

/** The invoice's rows as issued — subtotal, discounts, shipping, each fee, the tip, taxes — and its total. */
function InvoiceTotals({ invoice }: { invoice: Invoice }) {
  if (!invoice.summary) return null;
  return (
    <dl className="totals invoice-totals small">
      {invoice.summary.map((row, n) => (
        <div key={n} className={row.kind === 'DISCOUNT' ? 'discount' : undefined}>
          <dt>{row.addsToTotal ? row.name : `${row.name} (included)`}</dt><dd>{row.amount.formattedAmount}</dd>
        </div>
      ))}
      <div className="grand"><dt>Total</dt><dd>{invoice.total.formattedAmount}</dd></div>
    </dl>
  );
}

/** What staff may do to close the invoice: void one sent and unpaid, delete one never sent (a draft past its due date reads Overdue). */
function closing(invoice: Invoice): 'void' | 'delete' | null {
  if (invoice.number === null) return null;
  if (invoice.status !== 'Draft' && invoice.status !== 'Sent' && invoice.status !== 'Overdue') return null;
  return invoice.sentDate === null ? 'delete' : 'void';
}

export function OrderInvoices({ orderId, email, canceled }: { orderId: string; email: string | undefined; canceled: boolean }) {
  const invoices = useOrderInvoices(orderId);
  const create = useCreateInvoice(orderId);
  const send = useSendInvoice(orderId);
  const pdf = useInvoicePdf();
  const close = useCloseInvoice(orderId);
  const result = useResult();
  const [sending, setSending] = useState<string | null>(null);
  const [closingOne, setClosingOne] = useState<{ invoice: Invoice; how: 'void' | 'delete' } | null>(null);

  if (invoices.isPending) return <Loading label="Loading the invoices…" />;
  if (invoices.isError) return <ErrorState error={invoices.error} retry={() => void invoices.refetch()} />;
  const list = invoices.data;
  // A voided or deleted invoice keeps its number; the order may have a new one.
  const numbered = list.some((i) => i.number !== null && i.status !== 'Void' && i.status !== 'Deleted');
  return (
    <section className="panel" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      {result.view}
      {list.length === 0 && <p className="muted">No invoice yet.</p>}
      <ul className="plain-list" role="list">
        {list.map((i) => (
          <li key={i.id} className="stack">
            <p>
              <strong>{i.invoiceNumber ?? `${i.appId ?? 'App'} invoice`}</strong> <InvoiceStatus value={i.status} />
              <span className="block muted small">{`Issued ${dateTime(i.issuedDate)} · ${i.total.formattedAmount}${i.sentTo ? ` · sent to ${i.sentTo}` : ''}`}</span>
            </p>
            <InvoiceTotals invoice={i} />
            {i.hasDocument && (
              <div className="actions">
                <button type="button" className="button secondary small" disabled={pdf.isPending}
                  onClick={() => { result.clear(); pdf.mutate(i.id, { onSuccess: (blob) => saveFile(invoiceFileName(i.invoiceNumber, i.id), blob), onError: (error) => result.fail(error) }); }}>
                  Download PDF
                </button>
                {i.status !== 'Void' && i.status !== 'Deleted' && (
                  <button type="button" className="button secondary small" aria-expanded={sending === i.id} onClick={() => setSending(sending === i.id ? null : i.id)}>Send…</button>
                )}
                {closing(i) && (
                  <button type="button" className="button secondary small" onClick={() => { result.clear(); close.reset(); setClosingOne({ invoice: i, how: closing(i) ?? 'void' }); }}>
                    {closing(i) === 'void' ? 'Void…' : 'Delete…'}<span className="visually-hidden"> invoice {i.invoiceNumber}</span>
                  </button>
                )}
              </div>
            )}
            {sending === i.id && (
              <SendForm invoice={i} defaultEmail={i.sentTo ?? email ?? ''} busy={send.isPending} onSend={(to) => {
                result.clear();
                send.mutate({ invoiceId: i.id, email: to }, { onSuccess: () => { setSending(null); result.ok(`Invoice ${i.invoiceNumber ?? ''} is on its way to ${to}.`); }, onError: (error) => result.fail(error) });
              }} />
            )}
          </li>
        ))}
      </ul>
      <Confirm open={closingOne !== null} onOpenChange={(open) => { if (!open) setClosingOne(null); }}
        title={`${closingOne?.how === 'void' ? 'Void' : 'Delete'} invoice ${closingOne?.invoice.invoiceNumber ?? ''}?`}
        confirmLabel={closingOne?.how === 'void' ? 'Void invoice' : 'Delete invoice'} busy={close.isPending} error={close.error}
        onConfirm={() => {
          if (!closingOne) return;
          const { invoice, how } = closingOne;
          close.mutate({ invoiceId: invoice.id, how }, { onSuccess: () => { setClosingOne(null); result.ok(`Invoice ${invoice.invoiceNumber ?? ''} is ${how === 'void' ? 'void' : 'deleted'}. It keeps its number; the order can have a new invoice.`); } });
        }}>
        <p>{closingOne?.how === 'void'
          ? 'The customer was sent this invoice. It stays on record as Void, with its number, and can no longer be paid or mailed.'
          : 'This invoice was never sent. It stays on record as Deleted, with its number, and leaves the invoice list and the customer\'s account.'}</p>
      </Confirm>
      {!numbered && !canceled && (
        <div className="actions">
          <button type="button" className="button small" disabled={create.isPending}
            onClick={() => { result.clear(); create.mutate(undefined, { onSuccess: (made) => result.ok(`Invoice ${made.invoiceNumber ?? ''} is issued.`), onError: (error) => result.fail(error) }); }}>
            {create.isPending ? 'Creating…' : 'Create invoice'}
          </button>
        </div>
      )}
    </section>
  );
}
