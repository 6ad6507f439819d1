import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TransactionPayment } from '@bodega/sdk';
import { plainError } from '../../shop/errors.js';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { dateTime, Status, useMoney } from '../ui.js';

interface Entry { at: string; text: string; status?: string }

/** A payment's life in words: taken or held, captures, void, refunds, disputes. */
function timeline(p: TransactionPayment, refunds: { createdDate: string; amount: string; status: string; provider: boolean }[], money: (v: string | undefined) => string): Entry[] {
  const d = p.regularPaymentDetails;
  const how = d.offlinePayment ? (d.paymentMethod ?? 'offline') : `${d.paymentProvider ?? 'card'}${d.providerTransactionId ? ` · ${d.providerTransactionId}` : ''}`;
  const auth = d.authorizationDetails;
  const entries: Entry[] = [{ at: auth?.authorizedDate ?? p.createdDate, text: `${auth ? 'Authorized' : d.offlinePayment ? 'Offline payment' : 'Paid'} ${money(auth?.authorizedAmount?.amount ?? p.amount.amount)} (${how})` }];
  for (const c of auth?.captures ?? []) entries.push({ at: c.createdDate, status: c.status, text: `Capture of ${money(c.amount.amount)}${c.failureDetails?.failureReason ? `: ${c.failureDetails.failureReason}` : ''}` });
  if (auth?.void) entries.push({ at: auth.void.voidedDate, status: auth.void.status, text: 'Authorization voided' });
  for (const r of refunds) entries.push({ at: r.createdDate, status: r.status, text: `Refund of ${money(r.amount)}${r.provider ? ' through the provider' : ' (recorded)'}` });
  for (const c of d.chargebacks ?? []) entries.push({ at: c.createdDate, status: 'DISPUTED', text: `The buyer disputed ${money(c.amount.amount)} with their card issuer` });
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** The order's payments with their timeline, and capture and void of what is only authorized, answered in words. */
export function PaymentsPanel({ orderId, onChanged }: { orderId: string; onChanged: () => Promise<void> }) {
  const { api } = useAdmin();
  const money = useMoney();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string }>();
  const transactions = useQuery({ queryKey: ['admin', 'order', orderId, 'transactions'], queryFn: async () => (await api.payments.listTransactions(orderId)).orderTransactions });
  const act = useMutation({
    mutationFn: async (action: () => Promise<string>) => action(),
    onSuccess: async (text) => { setAnswer({ ok: true, text }); await onChanged(); await transactions.refetch(); },
    onError: (error) => setAnswer({ ok: false, text: `The payment provider said no: ${plainError(error)}` }),
  });

  function capture(p: TransactionPayment, event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const amount = String(new FormData(event.currentTarget).get('amount') ?? '').trim();
    setAnswer(undefined);
    act.mutate(async () => {
      const res = await api.payments.captureAuthorizedPayments(orderId, [{ paymentId: p.id, ...(amount && amount !== p.amount.amount && { amount: { amount } }) }]);
      const done = res.orderTransactions.payments.find((x) => x.id === p.id);
      const last = done?.regularPaymentDetails.authorizationDetails?.captures.at(-1);
      if (last?.status === 'FAILED') throw new Error(last.failureDetails?.failureReason ?? 'The capture failed');
      return `Captured ${money(last?.amount.amount ?? amount)}: the money is taken.`;
    });
  }

  if (transactions.isPending) return <Loading label="Loading the payments…" />;
  if (transactions.isError) return <ErrorState error={transactions.error} retry={() => void transactions.refetch()} />;
  const { payments, refunds } = transactions.data;
  return (
    <section className="panel" aria-labelledby="payments-heading">
      <h2 id="payments-heading">Payments</h2>
      {answer && <Notice kind={answer.ok ? 'success' : 'error'}>{answer.text}</Notice>}
      {payments.length === 0 && <p className="muted">No payment yet.</p>}
      {payments.map((p) => {
        const mine = refunds.flatMap((r) => r.transactions.filter((x) => x.paymentId === p.id).map((x) => ({ createdDate: r.createdDate, amount: x.amount.amount, status: x.refundStatus, provider: !x.externalRefund })));
        return (
          <div key={p.id} className="payment">
            <p><strong>{money(p.amount.amount)}</strong> <Status value={p.status} /></p>
            <ol className="timeline" aria-label="Payment timeline">
              {timeline(p, mine, money).map((e, i) => (
                <li key={i}><span className="muted small">{dateTime(e.at)}</span> {e.text}{e.status ? ` (${e.status.toLowerCase()})` : ''}</li>
              ))}
            </ol>
            {p.status === 'AUTHORIZED' && (
              <form className="form-inline" onSubmit={(e) => capture(p, e)}>
                <Field label="Amount to capture" name="amount" inputMode="decimal" defaultValue={p.amount.amount} hint="Less than the authorized amount releases the rest." />
                <div className="actions">
                  <button type="submit" className="button" disabled={act.isPending}>Capture</button>
                  <button type="button" className="button secondary danger-outline" disabled={act.isPending} onClick={() => {
                    setAnswer(undefined);
                    act.mutate(async () => { await api.payments.voidAuthorizedPayments(orderId, [p.id]); return 'The authorization is voided: the buyer’s card is released and nothing was taken.'; });
                  }}>Void</button>
                </div>
              </form>
            )}
          </div>
        );
      })}
    </section>
  );
}
