// An order's payments through a provider: authorized, captured, voided, pending, declined,
// disputed. Pure, like model.ts: each change takes the order and the instant and returns the
// changed order with its events, or throws an ApiError naming the reason.
import { ApiError } from '../../platform/errors.js';
import type { Change, MoveState, Order, OrderActivity, OrderPayment, PaymentTxStatus } from './model.js';

/** Spec: why an authorized payment cannot be voided or captured. */
export type NotVoidableReason = 'EXPIRED' | 'NOT_SUPPORTED' | 'NOT_FOUND' | 'OFFLINE' | 'REQUIRES_CARD_READER';

/** A payment's status as the wire shows it: refunds turn an approved payment (partially) refunded. */
export function statusOf(p: OrderPayment): PaymentTxStatus {
  const status = p.status ?? 'APPROVED';
  if (status !== 'APPROVED') return status;
  if (p.refunded > 0n) return p.refunded >= p.amount ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  return 'APPROVED';
}

export function isOffline(p: OrderPayment): boolean {
  return p.method === 'manual' || p.method === 'offline';
}

function touched(order: Order, at: Date, activities: OrderActivity[]): Order {
  return { ...order, activities: [...order.activities, ...activities], updatedDate: at };
}

function replaced(order: Order, payment: OrderPayment): OrderPayment[] {
  return order.payments.map((p) => (p.id === payment.id ? payment : p));
}

/** The order's payment status after its payments changed. */
function orderPaymentStatus(order: Order): Order['paymentStatus'] {
  const statuses = order.payments.map(statusOf);
  if (order.paid > 0n) {
    if (order.refunded > 0n) return order.refunded >= order.paid ? 'FULLY_REFUNDED' : 'PARTIALLY_REFUNDED';
    return order.paid >= order.totals.total ? 'PAID' : 'PARTIALLY_PAID';
  }
  if (statuses.includes('AUTHORIZED') || statuses.includes('PENDING')) return 'PENDING';
  if (statuses.includes('PENDING_MERCHANT')) return 'PENDING_MERCHANT';
  if (statuses.length && statuses.every((s) => s === 'VOIDED' || s === 'CANCELED')) return 'CANCELED';
  if (statuses.length && statuses.at(-1) === 'DECLINED') return 'DECLINED';
  return order.totals.total === 0n ? 'PAID' : 'NOT_PAID';
}

export interface ProviderPaymentInput {
  provider: string;
  /** The provider's id of the payment. */
  transactionId: string;
  amount: bigint;
  status: 'APPROVED' | 'AUTHORIZED' | 'PENDING' | 'PENDING_MERCHANT';
  delayedCapture: boolean;
  methodName?: string;
  authorizationExpiresAt?: Date;
}

/** Adds a payment the provider approved, authorized or has not decided yet (or an offline one the merchant will confirm). */
export function addProviderPayment(order: Order, input: ProviderPaymentInput, at: Date, newId: () => string): Change {
  const payment: OrderPayment = {
    id: newId(),
    amount: input.amount,
    method: input.status === 'PENDING_MERCHANT' ? 'offline' : input.provider,
    ...(input.methodName !== undefined && { methodName: input.methodName }),
    ...(input.status !== 'PENDING_MERCHANT' && { transactionId: input.transactionId, provider: input.provider }),
    status: input.status,
    refunded: 0n,
    createdDate: at,
    ...(input.status === 'AUTHORIZED' && {
      authorization: { delayedCapture: input.delayedCapture, authorizedDate: at, amount: input.amount, captures: [], ...(input.authorizationExpiresAt && { expiresAt: input.authorizationExpiresAt }) },
    }),
  };
  const paid = input.status === 'APPROVED' ? order.paid + input.amount : order.paid;
  let next: Order = { ...order, payments: [...order.payments, payment], paid };
  next = { ...next, paymentStatus: orderPaymentStatus(next), ...(input.status === 'PENDING' && { status: 'PENDING' as const }) };
  const full = next.paymentStatus === 'PAID';
  const activities: OrderActivity[] = input.status === 'APPROVED' ? [{ id: newId(), type: full ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate: at, amount: input.amount }] : [];
  return { order: touched(next, at, activities), events: input.status === 'APPROVED' && full ? ['order.paid'] : ['order.payment_updated'] };
}

/**
 * The provider decided a PENDING payment (a webhook or the sweep), or an authorization moved on
 * without us: captured, or CANCELED (Stripe cancels an authorization left uncaptured for 7 days).
 */
export function settlePayment(order: Order, paymentId: string, outcome: 'APPROVED' | 'AUTHORIZED' | 'DECLINED' | 'CANCELED', at: Date, newId: () => string, failure?: string): Change {
  const payment = order.payments.find((p) => p.id === paymentId);
  if (!payment) throw new ApiError(404, 'PAYMENT_NOT_FOUND', `Order ${order.number} has no payment ${paymentId}`);
  const current = payment.status ?? 'APPROVED';
  if (current !== 'PENDING' && !(current === 'AUTHORIZED' && (outcome === 'APPROVED' || outcome === 'CANCELED'))) return { order, events: [] };
  const changed: OrderPayment = {
    ...payment,
    status: outcome,
    ...((outcome === 'DECLINED' || outcome === 'CANCELED') && failure ? { failure } : {}),
    ...(outcome === 'AUTHORIZED' && { authorization: { delayedCapture: true, authorizedDate: at, amount: payment.amount, captures: [] } }),
  };
  const paid = outcome === 'APPROVED' ? order.paid + payment.amount : order.paid;
  let next: Order = { ...order, payments: replaced(order, changed), paid };
  const failed = outcome === 'DECLINED' || outcome === 'CANCELED';
  const status = failed && order.status === 'PENDING' ? 'REJECTED' as const : order.status === 'PENDING' ? 'APPROVED' as const : order.status;
  next = { ...next, status, paymentStatus: orderPaymentStatus(next) };
  const activities: OrderActivity[] = outcome === 'APPROVED' ? [{ id: newId(), type: next.paymentStatus === 'PAID' ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate: at, amount: payment.amount }] : [];
  if (failed) activities.push({ id: newId(), type: 'MERCHANT_COMMENT', createdDate: at, message: `The payment ${outcome === 'CANCELED' ? 'was canceled at the provider' : 'failed'}: ${failure ?? 'declined by the provider'}` });
  const events: Change['events'] = failed ? ['order.payment_failed'] : next.paymentStatus === 'PAID' ? ['order.paid'] : ['order.payment_updated'];
  return { order: touched(next, at, activities), events };
}

/** Why this payment cannot be captured or voided now, or undefined when it can. */
export function authorizationBlock(order: Order, paymentId: string, at: Date): NotVoidableReason | undefined {
  const payment = order.payments.find((p) => p.id === paymentId);
  if (!payment) return 'NOT_FOUND';
  if (isOffline(payment)) return 'OFFLINE';
  if (payment.method === 'card_reader') return 'REQUIRES_CARD_READER';
  if (statusOf(payment) !== 'AUTHORIZED' || !payment.authorization) return 'NOT_SUPPORTED';
  if (payment.authorization.expiresAt && payment.authorization.expiresAt <= at) return 'EXPIRED';
  return undefined;
}

const BLOCK_CODES: Record<NotVoidableReason, string> = {
  NOT_FOUND: 'PAYMENT_NOT_FOUND',
  OFFLINE: 'NOT_REGULAR_ONLINE_PAYMENT',
  REQUIRES_CARD_READER: 'NOT_REGULAR_ONLINE_PAYMENT',
  NOT_SUPPORTED: 'PAYMENT_NOT_AUTHORIZED',
  EXPIRED: 'PAYMENT_NOT_AUTHORIZED',
};

/** Throws the spec's reason (and the package's error code) when the payment cannot be captured or voided. */
export function requireAuthorized(order: Order, paymentId: string, at: Date, doing: 'captured' | 'voided'): OrderPayment {
  const reason = authorizationBlock(order, paymentId, at);
  if (reason) {
    const payment = order.payments.find((p) => p.id === paymentId);
    const code = payment?.status === 'VOIDED' ? 'PAYMENT_ALREADY_VOIDED' : payment?.status === 'APPROVED' && payment.authorization ? 'PAYMENT_ALREADY_CAPTURED' : BLOCK_CODES[reason];
    throw new ApiError(400, code, `Payment ${paymentId} cannot be ${doing} (${reason})`, { paymentId, reason });
  }
  return order.payments.find((p) => p.id === paymentId) as OrderPayment;
}

export interface MoveResult {
  providerId: string;
  status: 'SUCCEEDED' | 'PENDING' | 'FAILED';
  failure?: string;
}

/** Records a capture: the captured amount is paid; the rest of the authorization is released. */
export function capturePayment(order: Order, paymentId: string, amount: bigint, move: MoveResult, at: Date, newId: () => string): Change {
  const payment = requireAuthorized(order, paymentId, at, 'captured');
  const authorization = payment.authorization as NonNullable<OrderPayment['authorization']>;
  const capture = { id: newId(), amount, status: move.status, providerId: move.providerId, createdDate: at, ...(move.failure ? { failure: move.failure } : {}) };
  if (move.status === 'FAILED') {
    const failed: OrderPayment = { ...payment, authorization: { ...authorization, captures: [...authorization.captures, capture] } };
    const activity: OrderActivity = { id: newId(), type: 'MERCHANT_COMMENT', createdDate: at, message: `The capture failed: ${move.failure ?? 'refused by the provider'}` };
    return { order: touched({ ...order, payments: replaced(order, failed) }, at, [activity]), events: ['order.payment_failed'] };
  }
  const changed: OrderPayment = { ...payment, amount, status: 'APPROVED', authorization: { ...authorization, captures: [...authorization.captures, capture] } };
  let next: Order = { ...order, payments: replaced(order, changed), paid: order.paid + amount };
  next = { ...next, paymentStatus: orderPaymentStatus(next) };
  const full = next.paymentStatus === 'PAID';
  return {
    order: touched(next, at, [{ id: newId(), type: full ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate: at, amount }]),
    events: [full ? 'order.paid' : 'order.payment_updated'],
  };
}

/** Records a void: the authorization is released and nothing was taken. */
export function voidPayment(order: Order, paymentId: string, move: MoveResult, at: Date, newId: () => string): Change {
  const payment = requireAuthorized(order, paymentId, at, 'voided');
  const authorization = payment.authorization as NonNullable<OrderPayment['authorization']>;
  const changed: OrderPayment = {
    ...payment,
    status: move.status === 'SUCCEEDED' ? 'VOIDED' : payment.status ?? 'AUTHORIZED',
    authorization: { ...authorization, void: { status: move.status, voidedDate: at, providerId: move.providerId, reason: 'MANUAL' } },
  };
  let next: Order = { ...order, payments: replaced(order, changed) };
  next = { ...next, paymentStatus: orderPaymentStatus(next) };
  return { order: touched(next, at, [{ id: newId(), type: 'MERCHANT_COMMENT', createdDate: at, message: 'The authorized payment was voided.' }]), events: ['order.payment_updated'] };
}

/** The provider reports a dispute (chargeback) on a payment: recorded; the merchant is told by the event. */
export function addChargeback(order: Order, paymentId: string, chargeback: { id: string; amount: bigint; reason: string }, at: Date, newId: () => string): Change {
  const payment = order.payments.find((p) => p.id === paymentId);
  if (!payment) throw new ApiError(404, 'PAYMENT_NOT_FOUND', `Order ${order.number} has no payment ${paymentId}`);
  if (payment.chargebacks?.some((c) => c.id === chargeback.id)) return { order, events: [] };
  const changed: OrderPayment = { ...payment, chargebacks: [...(payment.chargebacks ?? []), { ...chargeback, createdDate: at }] };
  const message = `The buyer disputed ${chargeback.amount.toString()} minor units with the card issuer (${chargeback.reason}).`;
  return { order: touched({ ...order, payments: replaced(order, changed) }, at, [{ id: newId(), type: 'MERCHANT_COMMENT', createdDate: at, message }]), events: ['order.payment_disputed'] };
}

/** The merchant confirms an offline payment they were waiting for. */
export function confirmOffline(order: Order, at: Date, newId: () => string, methodName?: string): Change | undefined {
  const pending = order.payments.find((p) => p.status === 'PENDING_MERCHANT');
  if (!pending) return undefined;
  const changed: OrderPayment = { ...pending, status: 'APPROVED', ...(methodName !== undefined && { methodName }) };
  let next: Order = { ...order, payments: replaced(order, changed), paid: order.paid + pending.amount };
  next = { ...next, paymentStatus: orderPaymentStatus(next) };
  const full = next.paymentStatus === 'PAID';
  return { order: touched(next, at, [{ id: newId(), type: full ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate: at, amount: pending.amount }]), events: [full ? 'order.paid' : 'order.payment_updated'] };
}

/**
 * A refund sent through the provider moves on: SCHEDULED (accepted by Bodega, the provider did not
 * answer) → STARTED (being sent again) → the provider's PENDING, SUCCEEDED or FAILED. A failed
 * refund gives its amount back to the payment and the order (the money was not returned).
 */
export function settleRefund(order: Order, idempotencyKey: string, outcome: { status: MoveState; providerId?: string; failure?: string }, at: Date, newId: () => string): Change & { reverted?: { refundId: string; amount: bigint } } {
  const refund = order.refunds.find((r) => r.payments.some((p) => p.idempotencyKey === idempotencyKey));
  const entry = refund?.payments.find((p) => p.idempotencyKey === idempotencyKey);
  if (!refund || !entry || entry.status === 'SUCCEEDED' || entry.status === 'FAILED' || entry.status === outcome.status) return { order, events: [] };
  const settled = { ...entry, status: outcome.status, ...(outcome.providerId && { providerRefundId: outcome.providerId }) };
  const refunds = order.refunds.map((r) => (r.id === refund.id ? { ...r, payments: r.payments.map((p) => (p === entry ? settled : p)) } : r));
  let next: Order = { ...order, refunds };
  if (outcome.status !== 'FAILED') return { order: { ...next, updatedDate: at }, events: outcome.status === 'SUCCEEDED' ? ['order.payment_updated'] : [] };
  next = {
    ...next,
    payments: next.payments.map((p) => (p.id === entry.paymentId ? { ...p, refunded: p.refunded - entry.amount } : p)),
    refunded: next.refunded - entry.amount,
  };
  next = { ...next, paymentStatus: orderPaymentStatus(next) };
  const message = `The refund of ${entry.amount.toString()} minor units failed at the payment provider: ${outcome.failure ?? 'no reason given'}. The money was not returned.`;
  return { order: touched(next, at, [{ id: newId(), type: 'MERCHANT_COMMENT', createdDate: at, message }]), events: ['order.payment_updated'], reverted: { refundId: refund.id, amount: entry.amount } };
}
