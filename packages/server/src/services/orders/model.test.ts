import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { priceCart } from '../commerce/pricing/totals.js';
import type { ResolvedLine } from '../commerce/lines.js';
import { balanceDue, cancel, fulfill, markPaid, markRestocked, recordPayment, refund, refundableOf, snapshotOrder, unitsToRestock, type Order } from './model.js';

const AT = new Date('2026-05-01T10:00:00Z');
let n = 0;
const newId = () => `id${++n}`;

function line(id: string, quantity: number, price: bigint): ResolvedLine {
  return {
    ref: { id, quantity, catalogReference: { appId: 'app', catalogItemId: `p-${id}` } },
    productId: `p-${id}`, variantId: 'v', slug: id, name: id.toUpperCase(), price, fullPrice: price, itemType: 'PHYSICAL',
    weight: '1', sku: null, image: null, descriptionLines: [], stock: { found: true, inStock: true },
  };
}

function order(): Order {
  const lines = [line('a', 2, 1000n), line('b', 1, 500n)];
  const priced = priceCart({
    currency: 'USD', now: AT, lines: lines.map((l) => ({ id: l.ref.id, productId: l.productId, itemType: 'PHYSICAL', quantity: l.ref.quantity, price: l.price })),
    shippingAddress: { country: 'US' },
    shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: 500n, type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: 0 }] }],
  });
  return snapshotOrder({
    id: 'o1', number: 10001, checkoutId: 'c1', buyer: { kind: 'visitor', id: 'v1' }, createdBy: { kind: 'visitor', id: 'v1' }, email: 'a@b.co',
    currency: 'USD', channelType: 'WEB', weightUnit: 'KG', lines, priced, billingInfo: null, shippingDestination: { address: { country: 'US' } },
    deliveryTimeSlot: null, buyerNote: null, paymentOption: 'FULL_PAYMENT_OFFLINE', at: AT, newId,
  });
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('the order snapshot', () => {
  it('keeps lines, totals, shipping and the placing activity', () => {
    const o = order();
    expect(o).toMatchObject({ status: 'APPROVED', paymentStatus: 'NOT_PAID', fulfillmentStatus: 'NOT_FULFILLED', totals: { subtotal: 2500n, shipping: 500n, total: 3000n } });
    expect(o.lines.map((l) => [l.id, l.quantity, l.lineSubtotal])).toEqual([['a', 2, 2000n], ['b', 1, 500n]]);
    expect(o.shipping).toMatchObject({ code: 'std', cost: 500n, kind: 'DELIVERY', destination: { address: { country: 'US' } } });
    expect(o.activities.map((a) => a.type)).toEqual(['ORDER_PLACED']);
    expect(balanceDue(o)).toBe(3000n);
  });
});

describe('payments', () => {
  it('goes NOT_PAID → PARTIALLY_PAID → PAID and refuses a payment over the balance', () => {
    const partly = recordPayment(order(), { amount: 1000n, method: 'manual' }, AT, newId);
    expect(partly.order).toMatchObject({ paymentStatus: 'PARTIALLY_PAID', paid: 1000n });
    expect(partly.events).toEqual(['order.payment_updated']);
    expect(code(() => recordPayment(partly.order, { amount: 2001n, method: 'manual' }, AT, newId))).toBe('AMOUNT_EXCEEDS_BALANCE');
    const paid = markPaid(partly.order, AT, newId);
    expect(paid.order).toMatchObject({ paymentStatus: 'PAID', paid: 3000n });
    expect(paid.events).toEqual(['order.paid']);
    expect(paid.order.activities.map((a) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_PARTIALLY_PAID', 'ORDER_PAID']);
    expect(code(() => markPaid(paid.order, AT, newId))).toBe('ORDER_ALREADY_PAID');
    expect(code(() => recordPayment(order(), { amount: 0n, method: 'manual' }, AT, newId))).toBe('INVALID_ARGUMENT');
  });

  it('refunds part, then all, of a payment', () => {
    const paid = markPaid(order(), AT, newId).order;
    const paymentId = paid.payments[0].id;
    const part = refund(paid, { payments: [{ paymentId, amount: 1000n }], lineItems: [{ lineItemId: 'a', quantity: 1 }], shippingIncluded: false, reason: 'broken' }, AT, newId);
    expect(part.order).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', refunded: 1000n });
    expect(part.order.lines[0].refundedQuantity).toBe(1);
    expect(code(() => refund(part.order, { payments: [{ paymentId, amount: 2001n }], lineItems: [], shippingIncluded: false }, AT, newId))).toBe('AMOUNT_EXCEEDS_REFUNDABLE');
    expect(code(() => refund(part.order, { payments: [{ paymentId, amount: 1n }], lineItems: [{ lineItemId: 'a', quantity: 2 }], shippingIncluded: false }, AT, newId))).toBe('INVALID_ARGUMENT');
    const all = refund(part.order, { payments: [{ paymentId, amount: 2000n }], lineItems: [], shippingIncluded: true }, AT, newId);
    expect(all.order).toMatchObject({ paymentStatus: 'FULLY_REFUNDED', refunded: 3000n });
    expect(code(() => refund(all.order, { payments: [{ paymentId, amount: 1n }], lineItems: [], shippingIncluded: false }, AT, newId))).toBe('ALREADY_REFUNDED');
    expect(code(() => refund(order(), { payments: [{ paymentId: 'x', amount: 1n }], lineItems: [], shippingIncluded: false }, AT, newId))).toBe('NOT_PAID');
  });

  it('offers as refundable exactly what refund accepts, and names the code refund would refuse with', () => {
    const paid = markPaid(order(), AT, newId).order;
    const payment = paid.payments[0];
    const cases: [string, Order, bigint, string | undefined][] = [
      ['paid', paid, 3000n, undefined],
      ['partly refunded', refund(paid, { payments: [{ paymentId: payment.id, amount: 1000n }], lineItems: [], shippingIncluded: false }, AT, newId).order, 2000n, undefined],
      ['fully refunded', refund(paid, { payments: [{ paymentId: payment.id, amount: 3000n }], lineItems: [], shippingIncluded: false }, AT, newId).order, 0n, 'ALREADY_REFUNDED'],
      // A payment left on an order whose paid total is zero: refund refuses it whatever its own amounts say.
      ['order with nothing paid', { ...paid, paid: 0n }, 0n, 'NOT_PAID'],
      ['zero payment', { ...paid, payments: [{ ...payment, amount: 0n }] }, 0n, 'ZERO_PRICE'],
    ];
    for (const [name, o, refundable, reason] of cases) {
      const p = o.payments[0];
      expect(refundableOf(o, p), name).toEqual({ refundable, ...(reason && { reason }) });
      const attempt = code(() => refund(o, { payments: [{ paymentId: p.id, amount: refundable || 1n }], lineItems: [], shippingIncluded: false }, AT, newId));
      expect(attempt, name).toBe(reason ?? 'no error');
    }
  });
});

describe('cancel, restock and fulfill', () => {
  it('cancels an unpaid order, canceling its payment too, once', () => {
    const canceled = cancel(order(), AT, newId, 'out of town');
    expect(canceled.order).toMatchObject({ status: 'CANCELED', paymentStatus: 'CANCELED', fulfillmentStatus: 'CANCELED' });
    expect(canceled.order.activities.at(-1)).toMatchObject({ type: 'ORDER_CANCELED', message: 'out of town' });
    expect(code(() => cancel(canceled.order, AT, newId))).toBe('ORDER_ALREADY_CANCELED');
    expect(code(() => fulfill(canceled.order, { lineItems: [] }, AT, newId))).toBe('ORDER_CANCELED');
    expect(cancel(markPaid(order(), AT, newId).order, AT, newId).order.paymentStatus).toBe('PAID');
  });

  it('restocks each unit once', () => {
    const o = order();
    const first = unitsToRestock(o, [{ lineItemId: 'a', quantity: 1 }]);
    expect(first.map((u) => [u.line.id, u.quantity])).toEqual([['a', 1]]);
    const after = markRestocked(o, first, AT);
    expect(unitsToRestock(after).map((u) => [u.line.id, u.quantity])).toEqual([['a', 1], ['b', 1]]);
    const done = markRestocked(after, unitsToRestock(after), AT);
    expect(done.stockState).toBe('RESTOCKED');
    expect(unitsToRestock(done)).toEqual([]);
  });

  it('fulfills in parts and refuses more than is left', () => {
    const part = fulfill(order(), { lineItems: [{ id: 'a', quantity: 1 }], trackingInfo: { trackingNumber: 'T1' } }, AT, newId);
    expect(part.order.fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    expect(part.events).toEqual(['order.fulfillment_created']);
    expect(code(() => fulfill(part.order, { lineItems: [{ id: 'a', quantity: 2 }] }, AT, newId))).toBe('INVALID_ARGUMENT');
    expect(code(() => fulfill(part.order, { lineItems: [{ id: 'zz' }] }, AT, newId))).toBe('INVALID_ARGUMENT');
    const rest = fulfill(part.order, { lineItems: [] }, AT, newId);
    expect(rest.order.fulfillmentStatus).toBe('FULFILLED');
    expect(rest.events).toEqual(['order.fulfillment_created', 'order.fulfilled']);
    expect(rest.order.fulfillments[1].lineItems).toEqual([{ id: 'a', quantity: 1 }, { id: 'b', quantity: 1 }]);
    expect(code(() => cancel(rest.order, AT, newId))).toBe('ORDER_FULFILLED');
    expect(code(() => fulfill(rest.order, { lineItems: [] }, AT, newId))).toBe('ORDER_ALREADY_FULFILLED');
  });

  it('writes the fulfillment mail on the timeline: a shipping confirmation, or ready for pickup; none without an e-mail', () => {
    const types = (o: Order) => fulfill(o, { lineItems: [] }, AT, newId).order.activities.map((a) => a.type).slice(1);
    expect(types(order())).toEqual(['ORDER_FULFILLED', 'SHIPPING_CONFIRMATION_EMAIL_SENT']);
    const pickup = order();
    expect(types({ ...pickup, shipping: pickup.shipping && { ...pickup.shipping, kind: 'PICKUP' } })).toEqual(['ORDER_FULFILLED', 'PICKUP_READY_EMAIL_SENT']);
    expect(types({ ...order(), email: null })).toEqual(['ORDER_FULFILLED']);
  });
});
