// Orders: the snapshot a checkout leaves, and the state changes the back office makes (payments,
// refunds, cancellation, fulfillment). Pure: each change takes the order and the instant, and
// returns the changed order with the events to record, or throws an ApiError naming the reason.
import { ApiError } from '../../platform/errors.js';
import { formatDecimal, parseDecimal } from '../../platform/money.js';
import type { ItemType, PricedCart, ShippingOptionResult, TaxStatus } from '../commerce/pricing/model.js';
import type { CatalogReference, DescriptionLine, ResolvedLine } from '../commerce/lines.js';
import type { Buyer } from '../commerce/buyer.js';

export type PaymentStatus = 'NOT_PAID' | 'PAID' | 'PARTIALLY_REFUNDED' | 'FULLY_REFUNDED' | 'PENDING' | 'PARTIALLY_PAID' | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED';
export type FulfillmentStatus = 'NOT_FULFILLED' | 'FULFILLED' | 'PARTIALLY_FULFILLED' | 'CANCELED';
export type OrderStatus = 'INITIALIZED' | 'APPROVED' | 'CANCELED' | 'PENDING' | 'REJECTED';
export type ActivityType =
  | 'ORDER_PLACED' | 'ORDER_PAID' | 'ORDER_PARTIALLY_PAID' | 'ORDER_FULFILLED' | 'ORDER_CANCELED'
  | 'ORDER_REFUNDED' | 'TRACKING_NUMBER_ADDED' | 'MERCHANT_COMMENT'
  // Written by the merchant's tools (services/orders/activities.ts, draft-orders.ts).
  | 'CUSTOM_ACTIVITY' | 'DRAFT_ORDER_CHANGES_APPLIED'
  // Written by services/invoices.
  | 'INVOICE_ADDED' | 'INVOICE_SENT' | 'INVOICE_REMOVED'
  // A fulfillment's mail to the buyer (sent by the webhooks worker from order.fulfillment_created).
  | 'SHIPPING_CONFIRMATION_EMAIL_SENT' | 'PICKUP_READY_EMAIL_SENT';
export type StockState = 'NONE' | 'DECREMENTED' | 'RESTOCKED';
export type PaymentOption = 'FULL_PAYMENT_ONLINE' | 'FULL_PAYMENT_OFFLINE';

export interface OrderLine {
  id: string;
  productId?: string;
  variantId?: string;
  name: string;
  catalogReference?: CatalogReference;
  quantity: number;
  price: bigint;
  fullPrice: bigint;
  lineSubtotal: bigint;
  discount: bigint;
  taxableAmount: bigint;
  tax: bigint;
  totalBeforeTax: bigint;
  totalAfterTax: bigint;
  /** A fraction: "0.0725". */
  taxRate: string;
  itemType: ItemType;
  weight: string | null;
  sku: string | null;
  image: { url: string; width: number; height: number; altText?: string } | null;
  pagePath: string | null;
  descriptionLines: DescriptionLine[];
  custom: boolean;
  fulfilledQuantity: number;
  refundedQuantity: number;
  restockedQuantity: number;
}

export interface OrderDiscount {
  source: 'COUPON' | 'MERCHANT';
  couponId?: string;
  code?: string;
  name?: string;
  amount: bigint;
  discountType: 'GLOBAL' | 'SPECIFIC_ITEMS';
  lineItemIds: string[];
}

export interface OrderShipping {
  code: string;
  title: string;
  kind: 'DELIVERY' | 'PICKUP';
  cost: bigint;
  tax: bigint;
  deliveryTime?: string;
  instructions?: string;
  pickupAddress?: Record<string, unknown>;
  /** Where a delivery goes: the checkout's shipping address and contact. */
  destination?: Record<string, unknown>;
  deliveryTimeSlot?: { from: string; to: string };
  region?: { id: string; name: string };
}

/** Spec: a payment's status. */
export type PaymentTxStatus = 'APPROVED' | 'PENDING' | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'AUTHORIZED' | 'VOIDED';
/** Spec: refund and charge states. */
export type MoveState = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'SCHEDULED' | 'STARTED';

export interface OrderPayment {
  id: string;
  amount: bigint;
  /** A provider id (`test`, `stripe`), `offline` (mark as paid, or chosen at checkout) or `manual` (a recorded payment). */
  method: string;
  methodName?: string;
  /** The provider's id of the payment (a Stripe PaymentIntent). */
  transactionId?: string;
  /** The provider that took it; absent for offline and manual payments. */
  provider?: string;
  /** Absent on payments recorded before providers had states: APPROVED. */
  status?: PaymentTxStatus;
  failure?: string;
  refunded: bigint;
  createdDate: Date;
  /** A payment held on the card (delayed capture) and what became of it. */
  authorization?: {
    delayedCapture: boolean;
    authorizedDate: Date;
    /** What was held (a capture may take less). */
    amount?: bigint;
    expiresAt?: Date;
    captures: { id: string; amount: bigint; status: MoveState; providerId?: string; createdDate: Date; failure?: string }[];
    void?: { status: MoveState; voidedDate: Date; providerId?: string; reason: 'MANUAL' | 'SCHEDULED' };
  };
  chargebacks?: { id: string; amount: bigint; reason: string; createdDate: Date }[];
}

export interface OrderRefund {
  id: string;
  amount: bigint;
  reason?: string;
  lineItems: { lineItemId: string; quantity: number }[];
  shippingIncluded: boolean;
  /** `idempotencyKey`: the provider call's, for a refund sent through the provider (the sweep sends an unanswered one again under it). */
  payments: { paymentId: string; amount: bigint; status?: MoveState; providerRefundId?: string; externalRefund?: boolean; idempotencyKey?: string }[];
  /** PROVIDER: made in the provider's own dashboard, heard from its webhook. */
  madeAt?: 'PROVIDER';
  createdDate: Date;
}

export interface TrackingInfo {
  trackingNumber?: string;
  shippingProvider?: string;
  trackingLink?: string;
}

export interface OrderFulfillment {
  id: string;
  lineItems: { id: string; quantity: number }[];
  trackingInfo?: TrackingInfo;
  createdDate: Date;
}

export interface OrderActivity {
  id: string;
  type: ActivityType;
  createdDate: Date;
  message?: string;
  amount?: bigint;
  reason?: string;
  /** A CUSTOM_ACTIVITY's own kind, the app that wrote it and its data. */
  custom?: { type: string; appId?: string; additionalData: Record<string, string> };
  /** A DRAFT_ORDER_CHANGES_APPLIED's summary: what the edit changed, and the total before and after. */
  changes?: { draftOrderId: string; lines: { lineItemId: string; name: string; before: number; after: number }[]; shippingChanged: boolean; totalBefore: bigint; totalAfter: bigint };
}

export interface Order {
  id: string;
  number: number;
  checkoutId: string | null;
  buyer: Buyer;
  email: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  fulfillmentStatus: FulfillmentStatus;
  currency: string;
  totals: { subtotal: bigint; discount: bigint; shipping: bigint; tax: bigint; total: bigint };
  paid: bigint;
  refunded: bigint;
  stockState: StockState;
  archived: boolean;
  lines: OrderLine[];
  appliedDiscounts: OrderDiscount[];
  shipping: OrderShipping | null;
  billingInfo: Record<string, unknown> | null;
  buyerNote: string | null;
  tax: { total: bigint; pricesIncludeTax: boolean; rateType: TaxStatus; rate?: string };
  paymentOption: PaymentOption;
  channelType: string;
  /** Who placed it: the buyer, or the API key that did. */
  createdBy: { kind: 'visitor' | 'member' | 'app'; id: string };
  weightUnit: string;
  activities: OrderActivity[];
  payments: OrderPayment[];
  refunds: OrderRefund[];
  fulfillments: OrderFulfillment[];
  /** Additional fees (spec: HANDLING_FEE, INSURANCE); absent on orders from before fees existed. */
  additionalFees?: OrderFee[];
  /** The shopper's tip (spec: PERCENTAGE, AMOUNT, CUSTOM; split EQUAL or PROPORTIONAL, kept as the site set it); untaxed, in the total. */
  tip?: OrderTip;
  /** Set on an order imported from another platform (services/orders/import-service.ts). */
  imported?: { externalOrderId: string | null; externalOrderUrl?: string; importedDate: Date };
  purchasedDate: Date | null;
  createdDate: Date;
  updatedDate: Date;
}

/** A tip on an order: its id (the official tip's, its fee's code), type, the value chosen, amount and split. */
export interface OrderTip {
  id: string;
  type: 'PERCENTAGE' | 'AMOUNT' | 'CUSTOM';
  value: string;
  amount: bigint;
  /** The goods after discounts a percentage was taken of (the official tip's lineItemSubtotal). */
  goods: bigint;
  split: 'EQUAL' | 'PROPORTIONAL';
}

/** An additional fee on an order: its price, and its tax when the fee is taxed. */
export interface OrderFee {
  code: string;
  name: string;
  kind: 'HANDLING_FEE' | 'INSURANCE';
  price: bigint;
  tax: bigint;
  taxable: boolean;
}

export type OrderEventType = 'order.created' | 'order.paid' | 'order.payment_updated' | 'order.payment_failed' | 'order.payment_disputed' | 'order.fulfilled' | 'order.fulfillment_created' | 'order.canceled' | 'order.refunded'
  | 'order.refunded_at_provider' | 'order.updated' | 'order.imported';

export interface Change {
  order: Order;
  events: OrderEventType[];
}

export interface SnapshotInput {
  id: string;
  number: number;
  checkoutId: string | null;
  buyer: Buyer;
  createdBy: Order['createdBy'];
  email: string | null;
  currency: string;
  channelType: string;
  weightUnit: string;
  lines: readonly ResolvedLine[];
  priced: PricedCart;
  billingInfo: Record<string, unknown> | null;
  shippingDestination: Record<string, unknown> | null;
  deliveryTimeSlot: { from: string; to: string } | null;
  buyerNote: string | null;
  paymentOption: PaymentOption;
  at: Date;
  newId: () => string;
}

function shippingSnapshot(selected: ShippingOptionResult, input: SnapshotInput): OrderShipping {
  const { priced } = input;
  return {
    code: selected.code,
    title: selected.title,
    kind: selected.kind,
    cost: priced.shipping.cost,
    tax: priced.shipping.tax,
    ...(selected.deliveryTime !== undefined && { deliveryTime: selected.deliveryTime }),
    ...(selected.instructions !== undefined && { instructions: selected.instructions }),
    ...(selected.pickupAddress !== undefined && { pickupAddress: selected.pickupAddress }),
    ...(selected.kind === 'DELIVERY' && input.shippingDestination ? { destination: input.shippingDestination } : {}),
    ...(input.deliveryTimeSlot ? { deliveryTimeSlot: input.deliveryTimeSlot } : {}),
    ...(priced.shipping.region ? { region: priced.shipping.region } : {}),
  };
}

/** The order a priced checkout becomes: lines, prices and addresses as they are at this instant. */
export function snapshotOrder(input: SnapshotInput): Order {
  const { priced } = input;
  const pricedLines = new Map(priced.lines.map((l) => [l.id, l]));
  const taxRate = priced.tax.rate ? formatDecimal(parseDecimal(priced.tax.rate.percent), 2) : '0';
  const lines: OrderLine[] = input.lines.map((line) => {
    const p = pricedLines.get(line.ref.id);
    return {
      id: line.ref.id,
      ...(line.productId !== undefined && { productId: line.productId }),
      ...(line.variantId !== undefined && { variantId: line.variantId }),
      name: line.name,
      ...(line.ref.catalogReference ?? line.ref.custom?.catalogReference ? { catalogReference: line.ref.catalogReference ?? line.ref.custom?.catalogReference } : {}),
      quantity: line.ref.quantity,
      price: line.price,
      fullPrice: line.fullPrice,
      lineSubtotal: p?.lineSubtotal ?? 0n,
      discount: p?.discount ?? 0n,
      taxableAmount: p?.taxableAmount ?? 0n,
      tax: p?.tax ?? 0n,
      totalBeforeTax: p?.totalBeforeTax ?? 0n,
      totalAfterTax: p?.totalAfterTax ?? 0n,
      taxRate: p && p.tax > 0n ? taxRate : '0',
      itemType: line.itemType,
      weight: line.weight,
      sku: line.sku,
      image: line.image,
      pagePath: line.slug ? `/product-page/${line.slug}` : line.ref.custom?.url ?? null,
      descriptionLines: line.descriptionLines,
      custom: line.ref.custom !== undefined,
      fulfilledQuantity: 0,
      refundedQuantity: 0,
      restockedQuantity: 0,
    };
  });
  const activities: OrderActivity[] = [{ id: input.newId(), type: 'ORDER_PLACED', createdDate: input.at }];
  return {
    id: input.id,
    number: input.number,
    checkoutId: input.checkoutId,
    buyer: input.buyer,
    email: input.email,
    status: 'APPROVED',
    paymentStatus: priced.totals.total === 0n ? 'PAID' : 'NOT_PAID',
    fulfillmentStatus: 'NOT_FULFILLED',
    currency: input.currency,
    totals: { ...priced.totals },
    paid: 0n,
    refunded: 0n,
    stockState: 'NONE',
    archived: false,
    lines,
    appliedDiscounts: priced.appliedDiscounts.map((d) => ({
      source: d.source,
      ...(d.source === 'COUPON' ? { ...(d.coupon.id !== undefined && { couponId: d.coupon.id }), code: d.coupon.code, ...(d.coupon.name !== undefined && { name: d.coupon.name }) } : {}),
      amount: d.amount,
      discountType: d.discountType,
      lineItemIds: d.lineItemIds,
    })),
    shipping: priced.shipping.selected ? shippingSnapshot(priced.shipping.selected, input) : null,
    billingInfo: input.billingInfo,
    buyerNote: input.buyerNote,
    tax: { total: priced.tax.total, pricesIncludeTax: priced.tax.pricesIncludeTax, rateType: priced.tax.status, ...(priced.tax.rate && { rate: taxRate }) },
    paymentOption: input.paymentOption,
    channelType: input.channelType,
    createdBy: input.createdBy,
    weightUnit: input.weightUnit,
    activities,
    payments: [],
    refunds: [],
    fulfillments: [],
    ...(priced.additionalFees?.length ? { additionalFees: priced.additionalFees.map((f) => ({ code: f.code, name: f.name, kind: f.code, price: f.price, tax: f.tax, taxable: f.taxable })) } : {}),
    ...(priced.tip && { tip: { ...priced.tip } }),
    purchasedDate: input.at,
    createdDate: input.at,
    updatedDate: input.at,
  };
}

export function balanceDue(order: Order): bigint {
  const due = order.totals.total - order.paid;
  return due > 0n ? due : 0n;
}

function touched(order: Order, at: Date, activities: OrderActivity[] = []): Order {
  return { ...order, activities: [...order.activities, ...activities], updatedDate: at };
}

/** Records money received; the order is PAID when nothing is due, else PARTIALLY_PAID. */
export function recordPayment(
  order: Order,
  payment: { amount: bigint; method: string; methodName?: string; transactionId?: string },
  at: Date,
  newId: () => string,
): Change {
  if (order.status === 'CANCELED') throw new ApiError(400, 'ORDER_CANCELED', `Order ${order.number} is canceled`);
  if (order.paymentStatus === 'PAID' || order.paymentStatus === 'PARTIALLY_REFUNDED' || order.paymentStatus === 'FULLY_REFUNDED') {
    throw new ApiError(400, 'ORDER_ALREADY_PAID', `Order ${order.number} is already paid`);
  }
  const due = balanceDue(order);
  if (payment.amount <= 0n) throw ApiError.validation([{ field: 'amount', rule: 'DECIMAL_GT', description: 'must be more than zero', data: { threshold: '0' } }]);
  if (payment.amount > due) throw new ApiError(400, 'AMOUNT_EXCEEDS_BALANCE', `The balance of order ${order.number} is smaller than the payment`, { balance: due.toString() });
  const paid = order.paid + payment.amount;
  const full = paid >= order.totals.total;
  const record: OrderPayment = {
    id: newId(),
    amount: payment.amount,
    method: payment.method,
    ...(payment.methodName !== undefined && { methodName: payment.methodName }),
    ...(payment.transactionId !== undefined && { transactionId: payment.transactionId }),
    refunded: 0n,
    createdDate: at,
  };
  return {
    order: {
      ...touched(order, at, [{ id: newId(), type: full ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate: at, amount: payment.amount }]),
      paid,
      paymentStatus: full ? 'PAID' : 'PARTIALLY_PAID',
      payments: [...order.payments, record],
    },
    events: [full ? 'order.paid' : 'order.payment_updated'],
  };
}

/** Marks the whole balance as paid (offline payment collected by the merchant). */
export function markPaid(order: Order, at: Date, newId: () => string, methodName?: string): Change {
  return recordPayment(order, { amount: balanceDue(order), method: 'offline', ...(methodName !== undefined && { methodName }) }, at, newId);
}

/** Spec: why a payment cannot be refunded (those the order alone decides; the provider adds its own). */
export type NonRefundableReason =
  | 'NOT_PAID' | 'ALREADY_REFUNDED' | 'ZERO_PRICE' | 'PENDING_REFUND' | 'ORDER_IS_PENDING' | 'ORDER_IS_REJECTED' | 'PARTIALLY_PAID'
  | 'PROVIDER_IS_DOWN' | 'DISABLED_BY_PROVIDER' | 'FORBIDDEN' | 'TRANSACTION_NOT_FOUND' | 'ACCESS_DENIED' | 'INTERNAL_ERROR' | 'DEPOSIT_ONLINE_ITEM';

export interface RefundRequest {
  payments: { paymentId: string; amount: bigint }[];
  lineItems: { lineItemId: string; quantity: number }[];
  shippingIncluded: boolean;
  reason?: string;
}

/** Refund states that wait for the provider's word: one more refund of the payment waits too. */
const UNSETTLED: ReadonlySet<MoveState> = new Set(['PENDING', 'SCHEDULED', 'STARTED']);

/** Why a payment cannot be refunded, or undefined when it can. */
export function refundBlock(order: Order, payment: OrderPayment | undefined): NonRefundableReason | undefined {
  if (order.status === 'PENDING') return 'ORDER_IS_PENDING';
  if (order.status === 'REJECTED') return 'ORDER_IS_REJECTED';
  if (!payment || order.paid === 0n) return 'NOT_PAID';
  const status = payment.status ?? 'APPROVED';
  if (status !== 'APPROVED') return 'NOT_PAID';
  if (payment.amount === 0n) return 'ZERO_PRICE';
  if (payment.refunded >= payment.amount) return 'ALREADY_REFUNDED';
  if (order.refunds.some((r) => r.payments.some((p) => p.paymentId === payment.id && p.status !== undefined && UNSETTLED.has(p.status)))) return 'PENDING_REFUND';
  if (order.paymentStatus === 'PARTIALLY_PAID' && payment.provider) return 'PARTIALLY_PAID';
  return undefined;
}

/** What `refund` would take of a payment: nothing, and why, when refundBlock refuses it. */
export function refundableOf(order: Order, payment: OrderPayment): { refundable: bigint; reason?: NonRefundableReason } {
  const reason = refundBlock(order, payment);
  return reason ? { refundable: 0n, reason } : { refundable: payment.amount - payment.refunded };
}

/** A manual refund of some or all of the payments (the money goes back outside Bodega). */
export function refund(order: Order, request: RefundRequest, at: Date, newId: () => string): Change {
  if (order.paid === 0n) throw new ApiError(400, 'NOT_PAID', `Order ${order.number} has no payment to refund`);
  if (request.payments.length === 0) throw ApiError.validation([{ field: 'payments', rule: 'MIN_SIZE', description: 'name at least one payment', data: { threshold: 1 } }]);
  const payments = order.payments.map((p) => ({ ...p }));
  for (const [i, wanted] of request.payments.entries()) {
    const payment = payments.find((p) => p.id === wanted.paymentId);
    const block = refundBlock(order, payment);
    if (!payment || block) throw new ApiError(400, block ?? 'NOT_PAID', `Payment ${wanted.paymentId} cannot be refunded${block ? ` (${block})` : ''}`, { paymentId: wanted.paymentId, index: i });
    if (wanted.amount <= 0n) throw ApiError.validation([{ field: `payments[${i}].amount`, rule: 'DECIMAL_GT', description: 'must be more than zero', data: { threshold: '0' } }]);
    if (payment.refunded + wanted.amount > payment.amount) {
      throw new ApiError(400, 'AMOUNT_EXCEEDS_REFUNDABLE', `At most ${(payment.amount - payment.refunded).toString()} minor units of payment ${payment.id} can be refunded`, { paymentId: payment.id });
    }
    payment.refunded += wanted.amount;
  }
  const lines = order.lines.map((l) => ({ ...l }));
  for (const [i, item] of request.lineItems.entries()) {
    const line = lines.find((l) => l.id === item.lineItemId);
    if (!line) throw ApiError.validation([{ field: `details.lineItems[${i}].lineItemId`, rule: 'VALIDATION', description: `no line ${item.lineItemId}` }]);
    if (line.refundedQuantity + item.quantity > line.quantity) {
      throw ApiError.validation([{ field: `details.lineItems[${i}].quantity`, rule: 'MAX', description: `at most ${line.quantity - line.refundedQuantity} more`, data: { threshold: line.quantity - line.refundedQuantity } }]);
    }
    line.refundedQuantity += item.quantity;
  }
  const amount = request.payments.reduce((sum, p) => sum + p.amount, 0n);
  const refunded = order.refunded + amount;
  const record: OrderRefund = {
    id: newId(),
    amount,
    ...(request.reason !== undefined && { reason: request.reason }),
    lineItems: request.lineItems,
    shippingIncluded: request.shippingIncluded,
    payments: request.payments,
    createdDate: at,
  };
  return {
    order: {
      ...touched(order, at, [{ id: newId(), type: 'ORDER_REFUNDED', createdDate: at, amount, ...(request.reason !== undefined && { reason: request.reason }) }]),
      lines,
      payments,
      refunds: [...order.refunds, record],
      refunded,
      paymentStatus: refunded >= order.paid ? 'FULLY_REFUNDED' : 'PARTIALLY_REFUNDED',
    },
    events: ['order.refunded'],
  };
}

/** Cancels an order that is not fulfilled; an unpaid order's payment is canceled too. */
export function cancel(order: Order, at: Date, newId: () => string, message?: string): Change {
  if (order.status === 'CANCELED') throw new ApiError(400, 'ORDER_ALREADY_CANCELED', `Order ${order.number} is already canceled`);
  if (order.fulfillmentStatus === 'FULFILLED' || order.fulfillmentStatus === 'PARTIALLY_FULFILLED') {
    throw new ApiError(400, 'ORDER_FULFILLED', `Order ${order.number} has been fulfilled and cannot be canceled`);
  }
  const unpaid = order.paymentStatus === 'NOT_PAID' || order.paymentStatus === 'PENDING';
  return {
    order: {
      ...touched(order, at, [{ id: newId(), type: 'ORDER_CANCELED', createdDate: at, ...(message ? { message } : {}) }]),
      status: 'CANCELED',
      fulfillmentStatus: 'CANCELED',
      ...(unpaid && { paymentStatus: 'CANCELED' as const }),
    },
    events: ['order.canceled'],
  };
}

/** The units of each line that were sold from stock and not yet returned. */
export function unitsToRestock(order: Order, only?: readonly { lineItemId: string; quantity: number }[]): { line: OrderLine; quantity: number }[] {
  const wanted = only ? new Map(only.map((i) => [i.lineItemId, i.quantity])) : undefined;
  return order.lines
    .filter((l) => l.productId && l.variantId && !l.custom)
    .map((line) => {
      const left = line.quantity - line.restockedQuantity;
      const quantity = wanted ? Math.min(wanted.get(line.id) ?? 0, left) : left;
      return { line, quantity };
    })
    .filter((x) => x.quantity > 0);
}

export function markRestocked(order: Order, restocked: readonly { line: OrderLine; quantity: number }[], at: Date): Order {
  const byId = new Map(restocked.map((r) => [r.line.id, r.quantity]));
  const lines = order.lines.map((l) => ({ ...l, restockedQuantity: l.restockedQuantity + (byId.get(l.id) ?? 0) }));
  const all = lines.every((l) => !l.productId || l.custom || l.restockedQuantity >= l.quantity);
  return { ...order, lines, stockState: all ? 'RESTOCKED' : order.stockState, updatedDate: at };
}

/** Ships or hands over units: all that remain when no lines are named. */
export function fulfill(
  order: Order,
  request: { lineItems: { id: string; quantity?: number }[]; trackingInfo?: TrackingInfo },
  at: Date,
  newId: () => string,
): Change & { fulfillmentId: string } {
  if (order.status === 'CANCELED') throw new ApiError(400, 'ORDER_CANCELED', `Order ${order.number} is canceled`);
  const lines = order.lines.map((l) => ({ ...l }));
  const items = request.lineItems.length
    ? request.lineItems
    : lines.filter((l) => l.fulfilledQuantity < l.quantity).map((l) => ({ id: l.id, quantity: l.quantity - l.fulfilledQuantity }));
  if (items.length === 0) throw new ApiError(400, 'ORDER_ALREADY_FULFILLED', `Order ${order.number} is already fulfilled`);
  const fulfilled: { id: string; quantity: number }[] = [];
  for (const [i, item] of items.entries()) {
    const line = lines.find((l) => l.id === item.id);
    if (!line) throw ApiError.validation([{ field: `fulfillment.lineItems[${i}].id`, rule: 'VALIDATION', description: `no line ${item.id}` }]);
    const left = line.quantity - line.fulfilledQuantity;
    const quantity = item.quantity ?? left;
    if (quantity < 1 || quantity > left) {
      throw ApiError.validation([{ field: `fulfillment.lineItems[${i}].quantity`, rule: 'MAX', description: `between 1 and ${left}`, data: { threshold: left } }]);
    }
    line.fulfilledQuantity += quantity;
    fulfilled.push({ id: line.id, quantity });
  }
  const done = lines.every((l) => l.fulfilledQuantity >= l.quantity);
  const tracking = request.trackingInfo && Object.values(request.trackingInfo).some((v) => v) ? request.trackingInfo : undefined;
  const fulfillment: OrderFulfillment = { id: newId(), lineItems: fulfilled, ...(tracking && { trackingInfo: tracking }), createdDate: at };
  const activities: OrderActivity[] = [];
  if (tracking?.trackingNumber) activities.push({ id: newId(), type: 'TRACKING_NUMBER_ADDED', createdDate: at });
  if (done) activities.push({ id: newId(), type: 'ORDER_FULFILLED', createdDate: at });
  // The buyer is mailed of every fulfillment (services/webhooks/mails.ts, from this change's
  // order.fulfillment_created event, recorded in the same transaction): its timeline says so.
  if (order.email) activities.push({ id: newId(), type: order.shipping?.kind === 'PICKUP' ? 'PICKUP_READY_EMAIL_SENT' : 'SHIPPING_CONFIRMATION_EMAIL_SENT', createdDate: at });
  return {
    order: { ...touched(order, at, activities), lines, fulfillments: [...order.fulfillments, fulfillment], fulfillmentStatus: done ? 'FULFILLED' : 'PARTIALLY_FULFILLED' },
    events: done ? ['order.fulfillment_created', 'order.fulfilled'] : ['order.fulfillment_created'],
    fulfillmentId: fulfillment.id,
  };
}
