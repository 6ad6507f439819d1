import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ORDER_LIMITS, TIPS_APP_ID, type AddressWithContact, type Order, type OrderActivity } from '@bodega/sdk';
import { addressLines, orderActions, planRefund, trackingInfo, wholeOrderLines, type Refundable } from '../../domain/order.js';
import { plainError } from '../../shop/errors.js';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { fromMinor, isPositiveAmount, toMinor } from '../../ui/money.js';
import { Confirm, dateTime, Modal, PageHead, Status, useMoney, useResult } from '../ui.js';
import { PaymentsPanel } from './PaymentsPanel.js';
import { PaymentLinkPanel } from './PaymentLinkPanel.js';
import { EditOrderDialog, NoteForm } from './EditOrder.js';
import { OrderInvoices } from './OrderInvoices.js';
import { useDraftability, useOrder, useOrderAction, useOrderFulfillments, useOrderPayments, type OrderAction, type OrderActionOutcome } from './queries.js';

function Address({ info }: { info: AddressWithContact | undefined }) {
  if (!info?.address && !info?.contactDetails) return <p className="muted">None given.</p>;
  return <address>{addressLines(info).map((line, i) => <span key={i} className="block">{line}</span>)}</address>;
}

const ACTIVITY: Record<string, string> = {
  ORDER_PLACED: 'Order placed', ORDER_PAID: 'Paid', ORDER_PARTIALLY_PAID: 'Partly paid', ORDER_FULFILLED: 'Fulfilled', ORDER_NOT_FULFILLED: 'Fulfilment removed',
  ORDER_CANCELED: 'Canceled', ORDER_REFUNDED: 'Refunded', MERCHANT_COMMENT: 'Comment', TRACKING_NUMBER_ADDED: 'Tracking number added',
  TRACKING_NUMBER_EDITED: 'Tracking number changed', TRACKING_LINK_ADDED: 'Tracking link added', SHIPPING_CONFIRMATION_EMAIL_SENT: 'Shipping e-mail sent',
  PICKUP_READY_EMAIL_SENT: 'Ready-for-pickup e-mail sent',
  INVOICE_ADDED: 'Invoice added', INVOICE_SENT: 'Invoice sent', INVOICE_REMOVED: 'Invoice voided or deleted', PAYMENT_RECORDED: 'Payment recorded', CUSTOM_ACTIVITY: 'Note',
  DRAFT_ORDER_CHANGES_APPLIED: 'Order edited',
};

/** A timeline line in words; a refund says how much and why. */
function activityText(a: OrderActivity, money: (v: string | undefined) => string): string {
  if (a.type === 'ORDER_REFUNDED' && a.orderRefunded?.amount?.amount) {
    return `Refunded ${money(a.orderRefunded.amount.amount)}${a.orderRefunded.reason ? `: ${a.orderRefunded.reason}` : ''}`;
  }
  return `${ACTIVITY[a.type ?? ''] ?? a.type ?? ''}${a.merchantComment?.message ? `: ${a.merchantComment.message}` : ''}`;
}

export default function OrderDetailPage() {
  const { orderId = '' } = useParams();
  const { currency } = useAdmin();
  const money = useMoney();
  const order = useOrder(orderId);
  const fulfillments = useOrderFulfillments(orderId);
  const result = useResult();
  const [dialog, setDialog] = useState<'fulfil' | 'cancel' | 'refund' | 'pay' | 'manual' | 'edit' | null>(null);
  const act = useOrderAction(orderId);
  const draftable = useDraftability(orderId);
  const [params] = useSearchParams();

  if (order.isPending) return <Loading label="Loading the order…" />;
  if (order.isError) return <><PageHead title="Order" /><ErrorState error={order.error} retry={() => void order.refetch()} /></>;
  const o: Order = order.data;
  const can = orderActions(o);
  const canceled = can.canceled;
  const s = o.priceSummary;
  /** Runs the action; once done the dialog closes and the page says what happened. */
  const run = (action: OrderAction, done: string | ((outcome: OrderActionOutcome) => string)) => {
    result.clear();
    act.mutate(action, { onSuccess: (outcome) => { setDialog(null); result.ok(typeof done === 'string' ? done : done(outcome)); }, onError: (error) => result.fail(error) });
  };

  return (
    <>
      <p className="small"><Link to="/admin/orders">← Orders</Link></p>
      <PageHead title={`Order #${o.number}`} lead={`Placed ${dateTime(o._createdDate)}${o.buyerInfo?.email ? ` by ${o.buyerInfo.email}` : ''}`}>
        {draftable.data?.orderDraftable && <button type="button" className="button secondary" onClick={() => { result.clear(); setDialog('edit'); }}>Edit order</button>}
        {can.collect && <button type="button" className="button" onClick={() => setDialog('pay')}>Mark as paid</button>}
        {can.collect && <button type="button" className="button secondary" onClick={() => setDialog('manual')}>Record a payment</button>}
        {can.fulfil && <button type="button" className="button" onClick={() => setDialog('fulfil')}>Fulfil</button>}
        {can.refund && <button type="button" className="button secondary" onClick={() => { act.reset(); setDialog('refund'); }}>Refund</button>}
        {can.cancel && <button type="button" className="button secondary danger-outline" onClick={() => setDialog('cancel')}>Cancel order</button>}
      </PageHead>
      {params.get('created') === '1' && !result.view && <Notice kind="success"><span role="status">Order #{o.number} is created. Mark it as paid, or send the customer a payment link.</span></Notice>}
      {result.view}
      <div className="status-row" aria-label="Status">
        <span>Payment <Status value={o.paymentStatus} /></span>
        <span>Fulfilment <Status value={o.fulfillmentStatus} /></span>
        {canceled && <span><Status value="CANCELED" /></span>}
      </div>
      <div className="detail-columns">
        <div className="stack">
          <PaymentLinkPanel orderId={orderId} owing={can.collect && isPositiveAmount(o.balanceSummary?.balance?.amount)} />
          <PaymentsPanel orderId={orderId} />
          <section className="panel" aria-labelledby="lines-heading">
            <h2 id="lines-heading">Items</h2>
            <div className="table-wrap">
              <table className="table cards">
                <thead><tr><th scope="col">Item</th><th scope="col" className="num">Price</th><th scope="col" className="num">Qty</th><th scope="col" className="num">Total</th></tr></thead>
                <tbody>
                  {o.lineItems.map((l) => (
                    <tr key={l._id}>
                      <td className="card-title">{l.productName?.original}{(l.descriptionLines ?? []).map((d, i) => {
                        const value = d.colorInfo?.original ?? d.plainText?.original;
                        return value ? <span key={i} className="block muted small">{d.name.original}: {value}</span> : null;
                      })}</td>
                      <td className="num" data-label="Price">{l.price?.formattedAmount ?? money(l.price?.amount)}</td>
                      <td className="num" data-label="Qty">{l.quantity}</td>
                      <td className="num" data-label="Total">{money(l.totalPriceBeforeTax?.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <dl className="totals">
              <div><dt>Subtotal</dt><dd>{money(s?.subtotal?.amount)}</dd></div>
              {(toMinor(s?.discount?.amount ?? '', currency) ?? 0n) > 0n && <div className="discount"><dt>Discount</dt><dd>−{money(s?.discount?.amount)}</dd></div>}
              <div><dt>Shipping{o.shippingInfo?.title ? ` (${o.shippingInfo.title})` : ''}</dt><dd>{o.shippingInfo?.title && toMinor(s?.shipping?.amount ?? '', currency) === 0n ? 'Free' : money(s?.shipping?.amount)}</dd></div>
              {/* Handling, insurance and a tip (the Wix Tips app's fee), each before tax as the total counts them. */}
              {(o.additionalFees ?? []).map((f) => <div key={f._id}><dt>{f.providerAppId === TIPS_APP_ID ? 'Tip' : f.name}</dt><dd>{money(f.priceBeforeTax?.amount)}</dd></div>)}
              <div><dt>Tax</dt><dd>{money(s?.tax?.amount)}</dd></div>
              <div className="grand"><dt>Total</dt><dd>{money(s?.total?.amount)}</dd></div>
              {can.collect && isPositiveAmount(o.balanceSummary?.balance?.amount) && (
                <div><dt>Balance due</dt><dd data-testid="balance-due">{money(o.balanceSummary?.balance?.amount)}</dd></div>
              )}
              {(toMinor(o.balanceSummary?.refunded?.amount ?? '', currency) ?? 0n) > 0n && (
                <div className="refunded"><dt>Refunded</dt><dd data-testid="refunded-total">−{money(o.balanceSummary?.refunded?.amount)}</dd></div>
              )}
            </dl>
          </section>
          <section className="panel" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">Timeline</h2>
            <ol className="timeline">
              {[...(o.activities ?? [])].reverse().map((a, i) => (
                <li key={a._id ?? i}>
                  <span className="timeline-what">{activityText(a, money)}</span>
                  <span className="muted small">{dateTime(a._createdDate)}</span>
                </li>
              ))}
              {(o.activities ?? []).length === 0 && <li className="muted">Nothing yet.</li>}
            </ol>
            <NoteForm orderId={orderId} />
          </section>
        </div>
        <div className="stack">
          <OrderInvoices orderId={orderId} email={o.buyerInfo?.email ?? undefined} canceled={canceled} />
          <section className="panel" aria-labelledby="buyer-heading">
            <h2 id="buyer-heading">Buyer</h2>
            <p>{o.buyerInfo?.email ?? '—'}<span className="block muted small">{o.buyerInfo?.memberId ? 'Member' : 'Guest'}</span></p>
          </section>
          <section className="panel" aria-labelledby="ship-heading">
            <h2 id="ship-heading">Shipping address</h2>
            <Address info={o.shippingInfo?.logistics?.shippingDestination ?? o.recipientInfo} />
          </section>
          <section className="panel" aria-labelledby="bill-heading">
            <h2 id="bill-heading">Billing address</h2>
            <Address info={o.billingInfo} />
          </section>
          <section className="panel" aria-labelledby="fulfil-heading">
            <h2 id="fulfil-heading">Shipments</h2>
            {(fulfillments.data ?? []).length === 0 ? <p className="muted">Not shipped yet.</p> : (
              <ul className="plain-list" role="list">
                {(fulfillments.data ?? []).map((f, i) => (
                  <li key={f._id ?? i}>
                    {f.trackingInfo?.shippingProvider ?? 'Shipment'} {f.trackingInfo?.trackingNumber && <strong>{f.trackingInfo.trackingNumber}</strong>}
                    <span className="block muted small">{dateTime(f._createdDate)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>

      <Modal open={dialog === 'fulfil'} onOpenChange={(open) => setDialog(open ? 'fulfil' : null)} title={`Fulfil order #${o.number}`} description="Every item ships together. The buyer sees the tracking number in their account.">
        <FulfilForm busy={act.isPending} onFulfil={(tracking) => run({ kind: 'fulfil', lineItems: wholeOrderLines(o), trackingInfo: trackingInfo(tracking) },
          tracking.trackingNumber.trim() ? `Order #${o.number} is fulfilled, tracking number ${tracking.trackingNumber.trim()}.` : `Order #${o.number} is fulfilled.`)} />
      </Modal>
      <Confirm open={dialog === 'pay'} onOpenChange={(open) => setDialog(open ? 'pay' : null)} title={`Mark order #${o.number} as paid?`} confirmLabel="Mark as paid"
        busy={act.isPending} onConfirm={() => run({ kind: 'mark-paid' }, `Order #${o.number} is marked as paid.`)}>
        <p>Use this when the buyer paid outside the store, for example by bank transfer or cash ({money(s?.total?.amount)}).</p>
      </Confirm>
      <Modal open={dialog === 'manual'} onOpenChange={(open) => setDialog(open ? 'manual' : null)} title={`Record a payment for order #${o.number}`} description="Part or all of the total, received outside the store.">
        <ManualPaymentForm busy={act.isPending} total={s?.total?.amount} currency={currency}
          onRecord={(amount) => run({ kind: 'record-payment', amount }, `A payment of ${money(amount)} is recorded on order #${o.number}.`)} />
      </Modal>
      <CancelDialog open={dialog === 'cancel'} onOpenChange={(open) => setDialog(open ? 'cancel' : null)} number={o.number ?? ''} busy={act.isPending}
        onCancel={(restock) => run({ kind: 'cancel', restock }, `Order #${o.number} is canceled${restock ? ' and its items are back in stock' : ''}.`)} />
      {dialog === 'edit' && (
        <EditOrderDialog orderId={orderId} number={o.number ?? ''} totalBefore={s?.total?.amount ?? '0'} onClose={() => setDialog(null)}
          onApplied={(message) => { setDialog(null); result.ok(message); void draftable.refetch(); }} />
      )}
      {dialog === 'refund' && (
        <RefundDialog orderId={orderId} number={o.number ?? ''} busy={act.isPending} serverError={act.error} onOpenChange={(open) => setDialog(open ? 'refund' : null)}
          onRefund={(payments, reason, amount) => run({ kind: 'refund', payments, reason }, (outcome) => outcome.refundWaits
            ? `A refund of ${money(amount)} is recorded on order #${o.number}. The payment provider did not answer yet: it is sent again shortly (never twice), and the Payments panel shows its state.`
            : `A refund of ${money(amount)} is made on order #${o.number}: card payments are refunded through the payment provider.`)} />
      )}
    </>
  );
}

const fulfilSchema = z.object({
  shippingProvider: z.string().max(100, 'At most 100 characters'),
  trackingNumber: z.string().max(ORDER_LIMITS.trackingNumber, `At most ${ORDER_LIMITS.trackingNumber} characters`),
  trackingLink: z.string().trim().refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), 'A web address such as https://carrier.example/track/123, or leave it empty'),
});
type FulfilForm = z.infer<typeof fulfilSchema>;

function FulfilForm({ busy, onFulfil }: { busy: boolean; onFulfil: (tracking: FulfilForm) => void }) {
  const { register, handleSubmit, formState: { errors } } = useForm<FulfilForm>({ resolver: zodResolver(fulfilSchema), defaultValues: { shippingProvider: '', trackingNumber: '', trackingLink: '' } });
  return (
    <form className="form-grid" noValidate onSubmit={(e) => void handleSubmit(onFulfil)(e)}>
      <Field label="Carrier" placeholder="e.g. UPS" {...register('shippingProvider')} error={errors.shippingProvider?.message} />
      <Field label="Tracking number" {...register('trackingNumber')} error={errors.trackingNumber?.message} />
      <Field label="Tracking link (optional)" type="url" placeholder="https://" {...register('trackingLink')} error={errors.trackingLink?.message} />
      <div className="actions"><button type="submit" className="button" disabled={busy}>{busy ? 'Fulfilling…' : 'Fulfil order'}</button></div>
    </form>
  );
}

function ManualPaymentForm({ busy, total, currency, onRecord }: { busy: boolean; total: string | undefined; currency: string; onRecord: (amount: string) => void }) {
  const schema = useMemo(() => z.object({
    amount: z.string().trim().refine((v) => (toMinor(v, currency) ?? 0n) > 0n, `Enter an amount like ${fromMinor(1250n, currency)}.`),
  }), [currency]);
  const { register, handleSubmit, formState: { errors } } = useForm<{ amount: string }>({ resolver: zodResolver(schema), defaultValues: { amount: total ?? '' } });
  return (
    <form className="form-grid" noValidate onSubmit={(e) => void handleSubmit((f) => onRecord(f.amount))(e)}>
      <Field label="Amount" inputMode="decimal" {...register('amount')} error={errors.amount?.message} />
      <div className="actions"><button type="submit" className="button" disabled={busy}>{busy ? 'Recording…' : 'Record payment'}</button></div>
    </form>
  );
}

function CancelDialog({ open, onOpenChange, number, busy, onCancel }: { open: boolean; onOpenChange: (open: boolean) => void; number: string; busy: boolean; onCancel: (restock: boolean) => void }) {
  const [restock, setRestock] = useState(true);
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={`Cancel order #${number}?`} description="The order stays in the list as canceled. This cannot be undone.">
      <label className="check"><input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} /> Put the items back in stock</label>
      <div className="actions modal-actions">
        <button type="button" className="button danger" disabled={busy} onClick={() => onCancel(restock)}>{busy ? 'Canceling…' : 'Cancel order'}</button>
        <button type="button" className="button secondary" onClick={() => onOpenChange(false)}>Keep it</button>
      </div>
    </Modal>
  );
}

/** The refund form's messages, one for each way an amount can be refused. */
function refundProblem(problem: 'FORMAT' | 'ZERO' | 'TOO_MUCH', currency: string, left: string, money: (v: string) => string): string {
  if (problem === 'FORMAT') return `Enter an amount like ${fromMinor(1250n, currency)}.`;
  if (problem === 'ZERO') return 'Enter more than zero.';
  return `At most ${money(left)} is left to refund.`;
}

/**
 * A refund of any amount up to what is left to refund: typed as a decimal string, checked in minor
 * units, and spread over the order's payments oldest first (the server checks each again).
 */
function RefundDialog({ orderId, number, busy, serverError, onOpenChange, onRefund }: {
  orderId: string; number: string; busy: boolean; serverError: unknown; onOpenChange: (open: boolean) => void;
  onRefund: (payments: { paymentId: string; amount: string }[], reason: string, amount: string) => void;
}) {
  const payments = useOrderPayments(orderId);
  const left = payments.data;
  return (
    <Modal open onOpenChange={onOpenChange} title={`Refund order #${number}`} description="Card payments go back through the payment provider; offline payments are only recorded (send that money back yourself).">
      {payments.isPending && <Loading label="Loading the payments…" />}
      {payments.isError && <ErrorState error={payments.error} retry={() => void payments.refetch()} />}
      {left && <RefundForm left={left} busy={busy} serverError={serverError} onRefund={onRefund} />}
    </Modal>
  );
}

function RefundForm({ left, busy, serverError, onRefund }: {
  left: Refundable; busy: boolean; serverError: unknown; onRefund: (payments: { paymentId: string; amount: string }[], reason: string, amount: string) => void;
}) {
  const { currency } = useAdmin();
  const money = useMoney();
  const schema = useMemo(() => z.object({
    amount: z.string().superRefine((amount, ctx) => {
      const plan = planRefund(amount, currency, left);
      if (!plan.ok) ctx.addIssue({ code: 'custom', message: refundProblem(plan.problem, currency, left.refundable, money) });
    }),
    reason: z.string().trim().max(ORDER_LIMITS.refundReason, `At most ${ORDER_LIMITS.refundReason} characters`),
  }), [currency, left, money]);
  const { register, handleSubmit, formState: { errors } } = useForm<{ amount: string; reason: string }>({ resolver: zodResolver(schema), defaultValues: { amount: left.refundable, reason: '' } });
  if ((toMinor(left.refundable, currency) ?? 0n) === 0n) return <p>Nothing is left to refund on this order.</p>;
  const submit = handleSubmit((form) => {
    const plan = planRefund(form.amount, currency, left);
    if (plan.ok) onRefund(plan.payments, form.reason.trim(), plan.amount);
  });
  return (
    <form className="form-grid" onSubmit={(e) => void submit(e)} noValidate>
      <Field label="Amount" inputMode="decimal" autoComplete="off" {...register('amount')}
        hint={`Up to ${money(left.refundable)}: the full amount, or less for a partial refund.`} error={errors.amount?.message} />
      <Field label="Reason (optional)" maxLength={ORDER_LIMITS.refundReason} placeholder="e.g. damaged in transit" {...register('reason')} error={errors.reason?.message} />
      {serverError !== null && serverError !== undefined && <Notice kind="error">{plainError(serverError)}</Notice>}
      <div className="actions"><button type="submit" className="button" disabled={busy}>{busy ? 'Refunding…' : 'Refund'}</button></div>
    </form>
  );
}
