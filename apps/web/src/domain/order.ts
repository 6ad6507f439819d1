import type { AddressWithContact, Order } from '@bodega/sdk';
import { countryName } from '../shop/countries.js';
import { fromMinor, splitRefund, toMinor } from '../ui/money.js';

/**
 * The payment statuses of an order still owed money: it can take a payment, and "Unpaid" lists it
 * (as the dashboard and the export count it; an offline payment waits as PENDING_MERCHANT until
 * the merchant marks it paid).
 */
export const OWED_PAYMENT_STATUSES = ['NOT_PAID', 'PARTIALLY_PAID', 'PENDING', 'PENDING_MERCHANT'] as const;
/** The payment statuses of an order some money of which can go back. */
export const REFUNDABLE_PAYMENT_STATUSES = ['PAID', 'PARTIALLY_REFUNDED', 'PARTIALLY_PAID'] as const;

const among = (list: readonly string[], value: string | undefined) => list.includes(value ?? '');

/** What the back office may do with an order now; the server checks each again. */
export function orderActions(order: Partial<Pick<Order, 'status' | 'paymentStatus' | 'fulfillmentStatus'>>) {
  const canceled = order.status === 'CANCELED';
  const shipped = order.fulfillmentStatus === 'FULFILLED';
  const collectable = !canceled && among(OWED_PAYMENT_STATUSES, order.paymentStatus);
  return {
    canceled,
    /** Mark as paid, or record a payment received outside the store. */
    collect: collectable,
    refund: among(REFUNDABLE_PAYMENT_STATUSES, order.paymentStatus),
    fulfil: !canceled && !shipped,
    cancel: !canceled && !shipped,
  };
}

/** One fulfilment for every line: the whole order ships together. */
export function wholeOrderLines(order: { lineItems: Pick<Order['lineItems'][number], '_id' | 'quantity'>[] }): { _id: string; quantity: number }[] {
  return order.lineItems.map((l) => ({ _id: l._id, quantity: l.quantity }));
}

/** Tracking details as the wire takes them: what was left empty is left out. */
export function trackingInfo(input: { trackingNumber: string; shippingProvider: string; trackingLink: string }) {
  const info: { trackingNumber?: string; shippingProvider?: string; trackingLink?: string } = {};
  for (const key of ['trackingNumber', 'shippingProvider', 'trackingLink'] as const) {
    const value = input[key].trim();
    if (value) info[key] = value;
  }
  return info;
}

/** What is left to refund on an order, as the server reports it: in total and per payment. */
export interface Refundable {
  refundable: string;
  payments: readonly { id: string; refundable: string }[];
}

export type RefundPlan =
  | { ok: true; amount: string; payments: { paymentId: string; amount: string }[] }
  | { ok: false; problem: 'FORMAT' | 'ZERO' | 'TOO_MUCH' };

/**
 * A refund of the typed amount: checked in minor units against what is left, then spread over the
 * payments oldest first. Never a float: the amount stays a decimal string or a bigint throughout.
 */
export function planRefund(typed: string, currency: string, left: Refundable): RefundPlan {
  const minor = toMinor(typed.trim(), currency);
  if (minor === undefined) return { ok: false, problem: 'FORMAT' };
  if (minor === 0n) return { ok: false, problem: 'ZERO' };
  if (minor > (toMinor(left.refundable, currency) ?? 0n)) return { ok: false, problem: 'TOO_MUCH' };
  const parts = splitRefund(minor, left.payments.map((p) => ({ id: p.id, refundable: toMinor(p.refundable, currency) ?? 0n })));
  if (!parts) return { ok: false, problem: 'TOO_MUCH' };
  return { ok: true, amount: fromMinor(minor, currency), payments: parts.map((p) => ({ paymentId: p.paymentId, amount: fromMinor(p.amount, currency) })) };
}

/** An address as the lines there are (a missing name leaves no empty first line). */
export function addressLines(info: AddressWithContact | undefined): string[] {
  const c = info?.contactDetails;
  const a = info?.address;
  return [
    [c?.firstName, c?.lastName].filter(Boolean).join(' '),
    c?.company, a?.addressLine, a?.addressLine2,
    // "US-NY" reads as "NY" beside the country's own line.
    [a?.postalCode, a?.city, a?.subdivision?.replace(/^[A-Z]{2}-/, '')].filter(Boolean).join(' '),
    a?.country ? countryName(a.country) : undefined,
    c?.phone,
  ].filter((line): line is string => Boolean(line));
}

/** True when the refund just made waits for the payment provider's answer (SCHEDULED). */
export function refundWaits(answer: Record<string, unknown>): boolean {
  const refunds = (answer.orderTransactions as { refunds?: { id?: string; _id?: string; transactions?: { refundStatus?: string }[] }[] } | undefined)?.refunds ?? [];
  const made = refunds.find((r) => (r._id ?? r.id) === answer.refundId);
  return made?.transactions?.some((x) => x.refundStatus === 'SCHEDULED') ?? false;
}
