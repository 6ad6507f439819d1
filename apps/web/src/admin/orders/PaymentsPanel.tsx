import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { TransactionPayment } from '@bodega/sdk';
import { plainError } from '../../shop/errors.js';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { toMinor } from '../../ui/money.js';
import { useAdmin } from '../context.js';
import { dateTime, Status, useMoney } from '../ui.js';
import { useOrderTransactions, usePaymentAction, type PaymentAction } from './queries.js';

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
export function PaymentsPanel({ orderId }: { orderId: string }) {
  const money = useMoney();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string }>();
  const transactions = useOrderTransactions(orderId);
  const act = usePaymentAction(orderId);
  const run = (action: PaymentAction) => {
    setAnswer(undefined);
    act.mutate(action, {
      onSuccess: (captured) => setAnswer({ ok: true, text: action.kind === 'capture'
        ? `Captured ${money(captured)}: the money is taken.`
        : 'The authorization is voided: the buyer’s card is released and nothing was taken.' }),
      onError: (error) => setAnswer({ ok: false, text: `The payment provider said no: ${plainError(error)}` }),
    });
  };

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
            {p.status === 'AUTHORIZED' && <CaptureForm payment={p} busy={act.isPending} onRun={run} />}
          </div>
        );
      })}
    </section>
  );
}

/** Capture all or part of an authorized payment (less releases the rest), or void it. */
function CaptureForm({ payment, busy, onRun }: { payment: TransactionPayment; busy: boolean; onRun: (action: PaymentAction) => void }) {
  const { currency } = useAdmin();
  const schema = z.object({
    amount: z.string().trim().refine((v) => v === '' || (toMinor(v, currency) ?? 0n) > 0n, 'Enter an amount such as 12.50, up to the authorized amount'),
  });
  const { register, handleSubmit, formState: { errors } } = useForm<{ amount: string }>({ resolver: zodResolver(schema), defaultValues: { amount: payment.amount.amount } });
  return (
    <form className="form-inline" noValidate onSubmit={(e) => void handleSubmit((f) => onRun({ kind: 'capture', payment, amount: f.amount }))(e)}>
      <Field label="Amount to capture" inputMode="decimal" hint="Less than the authorized amount releases the rest." {...register('amount')} error={errors.amount?.message} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>Capture</button>
        <button type="button" className="button secondary danger-outline" disabled={busy} onClick={() => onRun({ kind: 'void', payment })}>Void</button>
      </div>
    </form>
  );
}
