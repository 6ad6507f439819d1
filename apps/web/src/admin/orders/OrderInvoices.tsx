// The order page's invoices panel (issue 31): issue the order's invoice, download its PDF, mail it.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Invoice } from '@bodega/sdk';
import { invoiceFileName } from '../../domain/invoice.js';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { InvoiceStatus } from '../invoices/InvoiceStatus.js';
import { useCreateInvoice, useInvoicePdf, useOrderInvoices, useSendInvoice } from '../invoices/queries.js';
import { dateTime, saveFile, useResult } from '../ui.js';

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

export function OrderInvoices({ orderId, email, canceled }: { orderId: string; email: string | undefined; canceled: boolean }) {
  const invoices = useOrderInvoices(orderId);
  const create = useCreateInvoice(orderId);
  const send = useSendInvoice(orderId);
  const pdf = useInvoicePdf();
  const result = useResult();
  const [sending, setSending] = useState<string | null>(null);

  if (invoices.isPending) return <Loading label="Loading the invoices…" />;
  if (invoices.isError) return <ErrorState error={invoices.error} retry={() => void invoices.refetch()} />;
  const list = invoices.data;
  const numbered = list.some((i) => i.number !== null);
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
            {i.hasDocument && (
              <div className="actions">
                <button type="button" className="button secondary small" disabled={pdf.isPending}
                  onClick={() => { result.clear(); pdf.mutate(i.id, { onSuccess: (blob) => saveFile(invoiceFileName(i.invoiceNumber, i.id), blob), onError: (error) => result.fail(error) }); }}>
                  Download PDF
                </button>
                <button type="button" className="button secondary small" aria-expanded={sending === i.id} onClick={() => setSending(sending === i.id ? null : i.id)}>Send…</button>
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
