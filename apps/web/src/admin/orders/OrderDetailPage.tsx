import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddressWithContact, Order, OrderActivity } from '@bodega/sdk';
import { countryName } from '../../shop/countries.js';
import { plainError } from '../../shop/errors.js';
import { Field } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { fromMinor, splitRefund, toMinor } from '../../ui/money.js';
import { Confirm, dateTime, Modal, PageHead, Status, useMoney, useResult } from '../ui.js';
import { PaymentsPanel } from './PaymentsPanel.js';

function Address({ info }: { info: AddressWithContact | undefined }) {
  if (!info?.address && !info?.contactDetails) return <p className="muted">None given.</p>;
  const c = info.contactDetails;
  const a = info.address;
  // Only the lines there are, so a missing name leaves no empty first line.
  const lines = [
    [c?.firstName, c?.lastName].filter(Boolean).join(' '),
    c?.company, a?.addressLine, a?.addressLine2,
    // "US-NY" reads as "NY" beside the country's own line.
    [a?.postalCode, a?.city, a?.subdivision?.replace(/^[A-Z]{2}-/, '')].filter(Boolean).join(' '),
    a?.country ? countryName(a.country) : undefined,
    c?.phone,
  ].filter((line): line is string => Boolean(line));
  return <address>{lines.map((line, i) => <span key={i} className="block">{line}</span>)}</address>;
}

const ACTIVITY: Record<string, string> = {
  ORDER_PLACED: 'Order placed', ORDER_PAID: 'Paid', ORDER_PARTIALLY_PAID: 'Partly paid', ORDER_FULFILLED: 'Fulfilled', ORDER_NOT_FULFILLED: 'Fulfilment removed',
  ORDER_CANCELED: 'Canceled', ORDER_REFUNDED: 'Refunded', MERCHANT_COMMENT: 'Comment', TRACKING_NUMBER_ADDED: 'Tracking number added',
  TRACKING_NUMBER_EDITED: 'Tracking number changed', TRACKING_LINK_ADDED: 'Tracking link added', SHIPPING_CONFIRMATION_EMAIL_SENT: 'Shipping e-mail sent',
  INVOICE_ADDED: 'Invoice added', PAYMENT_RECORDED: 'Payment recorded', CUSTOM_ACTIVITY: 'Note',
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
  const { api, currency } = useAdmin();
  const money = useMoney();
  const queryClient = useQueryClient();
  const order = useQuery({ queryKey: ['admin', 'order', orderId], queryFn: () => api.orders.getOrder(orderId) });
  const fulfillments = useQuery({
    queryKey: ['admin', 'order', orderId, 'fulfillments'],
    queryFn: async () => (await api.orderFulfillments.listFulfillmentsForSingleOrder(orderId)).orderWithFulfillments?.fulfillments ?? [],
  });
  const result = useResult();
  const [dialog, setDialog] = useState<'fulfil' | 'cancel' | 'refund' | 'pay' | 'manual' | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['admin', 'order', orderId] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
  };
  const act = useMutation({
    mutationFn: async (action: () => Promise<string>) => action(),
    onSuccess: async (text) => { setDialog(null); result.ok(text); await refresh(); },
    onError: (error) => result.fail(error),
  });

  if (order.isPending) return <Loading label="Loading the order…" />;
  if (order.isError) return <><PageHead title="Order" /><ErrorState error={order.error} retry={() => void order.refetch()} /></>;
  const o: Order = order.data;
  const canceled = o.status === 'CANCELED';
  // Money can still come in while some is owed; a paid or refunded order takes none.
  const collectable = ['NOT_PAID', 'PARTIALLY_PAID', 'PENDING', 'PENDING_MERCHANT'].includes(o.paymentStatus ?? '');
  const refundable = ['PAID', 'PARTIALLY_REFUNDED', 'PARTIALLY_PAID'].includes(o.paymentStatus ?? '');
  const s = o.priceSummary;
  const run = (action: () => Promise<string>) => { result.clear(); act.mutate(action); };

  function fulfil(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const trackingNumber = String(form.get('trackingNumber') ?? '').trim();
    const shippingProvider = String(form.get('carrier') ?? '').trim();
    const trackingLink = String(form.get('trackingLink') ?? '').trim();
    run(async () => {
      await api.orderFulfillments.createFulfillment(orderId, {
        lineItems: o.lineItems.map((l) => ({ _id: l._id, quantity: l.quantity })),
        trackingInfo: { ...(trackingNumber && { trackingNumber }), ...(shippingProvider && { shippingProvider }), ...(trackingLink && { trackingLink }) },
      });
      return trackingNumber ? `Order #${o.number} is fulfilled, tracking number ${trackingNumber}.` : `Order #${o.number} is fulfilled.`;
    });
  }

  return (
    <>
      <p className="small"><Link to="/admin/orders">← Orders</Link></p>
      <PageHead title={`Order #${o.number}`} lead={`Placed ${dateTime(o._createdDate)}${o.buyerInfo?.email ? ` by ${o.buyerInfo.email}` : ''}`}>
        {collectable && !canceled && <button type="button" className="button" onClick={() => setDialog('pay')}>Mark as paid</button>}
        {collectable && !canceled && <button type="button" className="button secondary" onClick={() => setDialog('manual')}>Record a payment</button>}
        {o.fulfillmentStatus !== 'FULFILLED' && !canceled && <button type="button" className="button" onClick={() => setDialog('fulfil')}>Fulfil</button>}
        {refundable && <button type="button" className="button secondary" onClick={() => { act.reset(); setDialog('refund'); }}>Refund</button>}
        {!canceled && o.fulfillmentStatus !== 'FULFILLED' && <button type="button" className="button secondary danger-outline" onClick={() => setDialog('cancel')}>Cancel order</button>}
      </PageHead>
      {result.view}
      <div className="status-row" aria-label="Status">
        <span>Payment <Status value={o.paymentStatus} /></span>
        <span>Fulfilment <Status value={o.fulfillmentStatus} /></span>
        {canceled && <span><Status value="CANCELED" /></span>}
      </div>
      <div className="detail-columns">
        <div className="stack">
          <PaymentsPanel orderId={orderId} onChanged={refresh} />
          <section className="panel" aria-labelledby="lines-heading">
            <h2 id="lines-heading">Items</h2>
            <div className="table-wrap">
              <table className="table cards">
                <thead><tr><th scope="col">Item</th><th scope="col" className="num">Price</th><th scope="col" className="num">Qty</th><th scope="col" className="num">Total</th></tr></thead>
                <tbody>
                  {o.lineItems.map((l) => (
                    <tr key={l._id}>
                      <td className="card-title">{l.productName?.original}{(l.descriptionLines ?? []).map((d, i) => {
                        const line = d as { name?: { original?: string }; colorInfo?: { original?: string }; plainText?: { original?: string } };
                        const value = line.colorInfo?.original ?? line.plainText?.original;
                        return value ? <span key={i} className="block muted small">{line.name?.original}: {value}</span> : null;
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
              <div><dt>Tax</dt><dd>{money(s?.tax?.amount)}</dd></div>
              <div className="grand"><dt>Total</dt><dd>{money(s?.total?.amount)}</dd></div>
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
          </section>
        </div>
        <div className="stack">
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
        <form className="form-grid" onSubmit={fulfil}>
          <Field label="Carrier" name="carrier" placeholder="e.g. UPS" />
          <Field label="Tracking number" name="trackingNumber" />
          <Field label="Tracking link (optional)" name="trackingLink" type="url" placeholder="https://" />
          <div className="actions"><button type="submit" className="button" disabled={act.isPending}>{act.isPending ? 'Fulfilling…' : 'Fulfil order'}</button></div>
        </form>
      </Modal>
      <Confirm open={dialog === 'pay'} onOpenChange={(open) => setDialog(open ? 'pay' : null)} title={`Mark order #${o.number} as paid?`} confirmLabel="Mark as paid"
        busy={act.isPending} onConfirm={() => run(async () => { await api.orders.paymentCollectionMarkOrderAsPaid(orderId); return `Order #${o.number} is marked as paid.`; })}>
        <p>Use this when the buyer paid outside the store, for example by bank transfer or cash ({money(s?.total?.amount)}).</p>
      </Confirm>
      <Modal open={dialog === 'manual'} onOpenChange={(open) => setDialog(open ? 'manual' : null)} title={`Record a payment for order #${o.number}`} description="Part or all of the total, received outside the store.">
        <form className="form-grid" onSubmit={(event) => {
          event.preventDefault();
          const amount = String(new FormData(event.currentTarget).get('amount') ?? '').trim();
          run(async () => { await api.orders.recordManuallyCollectedPayment(orderId, { amount }); return `A payment of ${money(amount)} is recorded on order #${o.number}.`; });
        }}>
          <Field label="Amount" name="amount" inputMode="decimal" required pattern="\d+(\.\d{1,2})?" defaultValue={s?.total?.amount} />
          <div className="actions"><button type="submit" className="button" disabled={act.isPending}>{act.isPending ? 'Recording…' : 'Record payment'}</button></div>
        </form>
      </Modal>
      <CancelDialog open={dialog === 'cancel'} onOpenChange={(open) => setDialog(open ? 'cancel' : null)} number={o.number ?? ''} busy={act.isPending}
        onCancel={(restock) => run(async () => { await api.orders.cancelOrder(orderId, { restockAllItems: restock }); return `Order #${o.number} is canceled${restock ? ' and its items are back in stock' : ''}.`; })} />
      {dialog === 'refund' && (
        <RefundDialog orderId={orderId} number={o.number ?? ''} busy={act.isPending} serverError={act.error} onOpenChange={(open) => setDialog(open ? 'refund' : null)}
          onRefund={(payments, reason, amount) => run(async () => {
            const res = await api.orders.triggerRefund(orderId, payments.map((p) => ({ paymentId: p.paymentId, amount: { amount: p.amount } })), {
              ...(reason && { details: { reason } }), sideEffects: { restockInfo: { type: 'NO_ITEMS' } },
            });
            if (refundWaits(res)) return `A refund of ${money(amount)} is recorded on order #${o.number}. The payment provider did not answer yet: it is sent again shortly (never twice), and the Payments panel shows its state.`;
            return `A refund of ${money(amount)} is made on order #${o.number}: card payments are refunded through the payment provider.`;
          })} />
      )}
    </>
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

/** True when the refund just made waits for the payment provider's answer (SCHEDULED). */
function refundWaits(res: Record<string, unknown>): boolean {
  const refunds = (res.orderTransactions as { refunds?: { id?: string; _id?: string; transactions?: { refundStatus?: string }[] }[] } | undefined)?.refunds ?? [];
  const made = refunds.find((r) => (r._id ?? r.id) === res.refundId);
  return made?.transactions?.some((x) => x.refundStatus === 'SCHEDULED') ?? false;
}

/**
 * A refund of any amount up to what is left to refund: typed as a decimal string, checked in minor
 * units, and spread over the order's payments oldest first (the server checks each again).
 */
function RefundDialog({ orderId, number, busy, serverError, onOpenChange, onRefund }: {
  orderId: string; number: string; busy: boolean; serverError: unknown; onOpenChange: (open: boolean) => void;
  onRefund: (payments: { paymentId: string; amount: string }[], reason: string, amount: string) => void;
}) {
  const { api, currency } = useAdmin();
  const money = useMoney();
  const payments = useQuery({ queryKey: ['admin', 'order', orderId, 'payments'], queryFn: () => api.backOffice.orderPayments(orderId) });
  const [error, setError] = useState<string | undefined>();
  const left = payments.data ? toMinor(payments.data.refundable, currency) ?? 0n : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!payments.data || left === undefined) return;
    const form = new FormData(event.currentTarget);
    const text = String(form.get('amount') ?? '').trim();
    const reason = String(form.get('reason') ?? '').trim();
    const minor = toMinor(text, currency);
    if (minor === undefined) return setError(`Enter an amount like ${fromMinor(1250n, currency)}.`);
    if (minor === 0n) return setError('Enter more than zero.');
    if (minor > left) return setError(`At most ${money(payments.data.refundable)} is left to refund.`);
    const parts = splitRefund(minor, payments.data.payments.map((p) => ({ id: p.id, refundable: toMinor(p.refundable, currency) ?? 0n })));
    if (!parts) return setError(`At most ${money(payments.data.refundable)} is left to refund.`);
    setError(undefined);
    onRefund(parts.map((p) => ({ paymentId: p.paymentId, amount: fromMinor(p.amount, currency) })), reason, fromMinor(minor, currency));
  }

  return (
    <Modal open onOpenChange={onOpenChange} title={`Refund order #${number}`} description="Card payments go back through the payment provider; offline payments are only recorded (send that money back yourself).">
      {payments.isPending && <Loading label="Loading the payments…" />}
      {payments.isError && <ErrorState error={payments.error} retry={() => void payments.refetch()} />}
      {payments.data && left !== undefined && (left === 0n ? <p>Nothing is left to refund on this order.</p> : (
        <form className="form-grid" onSubmit={submit} noValidate>
          <Field label="Amount" name="amount" inputMode="decimal" autoComplete="off" required defaultValue={payments.data.refundable}
            hint={`Up to ${money(payments.data.refundable)}: the full amount, or less for a partial refund.`} error={error} />
          <Field label="Reason (optional)" name="reason" maxLength={200} placeholder="e.g. damaged in transit" />
          {serverError !== null && serverError !== undefined && <Notice kind="error">{plainError(serverError)}</Notice>}
          <div className="actions"><button type="submit" className="button" disabled={busy}>{busy ? 'Refunding…' : 'Refund'}</button></div>
        </form>
      ))}
    </Modal>
  );
}
