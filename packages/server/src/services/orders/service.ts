import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvents, type OutboxEvent } from '../../platform/events.js';
import { recordAudit } from '../../platform/audit.js';
import { formatAmount } from '../../platform/money.js';
import { newId } from '../../platform/ids.js';
import type { SitesService } from '../sites/service.js';
import type { CatalogService } from '../catalog/service.js';
import type { StockChange } from '../catalog/service.js';
import { compileFilter, FilterError, parseSort, push, readInteger, type SortKey } from '../../platform/query-filter.js';
import { ORDER_FIELDS, sortExpression } from './search-fields.js';
import type { CartService } from '../cart/service.js';
import { currentBuyer, type Buyer } from '../commerce/buyer.js';
import type { Coupon, CouponsService } from '../coupons/service.js';
import type { PricedCart } from '../commerce/pricing/model.js';
import type { ResolvedLine } from '../commerce/lines.js';
import { commerceSettingsOf, type CommerceSettings } from '../commerce-settings/service.js';
import {
  balanceDue,
  cancel,
  fulfill,
  markPaid,
  markRestocked,
  recordPayment,
  snapshotOrder,
  unitsToRestock,
  type Change,
  type Order,
  type OrderEventType,
  type TrackingInfo,
} from './model.js';
import { addProviderPayment, confirmOffline, type ProviderPaymentInput } from './payment-model.js';
import type { PaymentsService } from '../payments/service.js';
import { OrderPayments } from './order-payments.js';
export type { OrderPayments } from './order-payments.js';
import * as store from './store.js';

export type { Order } from './model.js';

/** Wix order numbers start here; ours do too. */
export const FIRST_ORDER_NUMBER = 10001;
export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 100;

/** How a placed order is paid: nothing yet (create-order), or what the provider answered. */
export type PaymentRequest = { kind: 'offline' } | { kind: 'provider'; payment: ProviderPaymentInput };

export interface PlaceOrderInput {
  checkoutId: string;
  buyer: Buyer;
  createdBy: Order['createdBy'];
  email: string | null;
  currency: string;
  channelType: string;
  lines: readonly ResolvedLine[];
  priced: PricedCart;
  settings: CommerceSettings;
  coupon?: Coupon;
  billingInfo: Record<string, unknown> | null;
  shippingDestination: Record<string, unknown> | null;
  deliveryTimeSlot: { from: string; to: string } | null;
  buyerNote: string | null;
  payment: PaymentRequest;
  /** What gift cards pay (services/gift-cards holds it in this transaction): approved payments before the provider's. */
  giftCards?: readonly { giftCardId: string; obfuscatedCode: string; amount: bigint }[];
}

/**
 * What other services do inside an order's transaction (wired in app.ts): issue what a paid order
 * bought, give a gift card back what a refund returns to it.
 */
export interface OrderHooks {
  paid?: (tx: SiteContext, order: Order) => Promise<void>;
  refundToGiftCard?: (tx: SiteContext, input: { giftCardId: string; orderId: string; amount: bigint }) => Promise<void>;
}

/** The method name of a payment a gift card made; its transactionId is the card's id. */
export const GIFT_CARD_METHOD = 'gift_card';

export interface SearchInput {
  filter?: unknown;
  sort?: unknown;
  cursorPaging?: { limit?: unknown; cursor?: unknown };
}

export interface SearchPage {
  orders: Order[];
  nextCursor: string | null;
  hasNext: boolean;
}

interface CursorState {
  filter: unknown;
  sort: SortKey[];
  after: { values: (string | null)[]; id: string };
}

const SHOPPERS = new Set(['ANONYMOUS_VISITOR', 'MEMBER']);

function queryError(error: unknown): never {
  if (error instanceof FilterError) throw new ApiError(400, 'INVALID_SEARCH', error.message);
  throw error;
}

function orderNotFound(orderId: string): ApiError {
  return ApiError.notFound('ORDER_NOT_FOUND', `Order ${orderId} was not found`, { orderId });
}

export function stockChanges(order: Order, only?: readonly { line: Order['lines'][number]; quantity: number }[]): StockChange[] {
  const lines = only ?? order.lines.filter((l) => l.productId && l.variantId && !l.custom).map((line) => ({ line, quantity: line.quantity }));
  return lines.map(({ line, quantity }) => ({ productId: line.productId as string, variantId: line.variantId as string, quantity }));
}

export class OrdersService {
  /** Capture, void, refund through the provider, refundability, the provider's webhooks. */
  readonly payments: OrderPayments;
  readonly hooks: OrderHooks = {};

  constructor(
    private readonly sites: SitesService,
    private readonly catalog: CatalogService,
    private readonly cart: CartService,
    private readonly coupons: CouponsService,
    readonly paymentsService: PaymentsService,
  ) {
    this.payments = new OrderPayments(this, paymentsService, this.hooks);
  }

  private events(siteId: string, order: Order, types: readonly OrderEventType[]): OutboxEvent[] {
    return types.map((type) => ({
      siteId,
      type,
      entityType: 'order',
      entityId: order.id,
      payload: {
        orderId: order.id,
        number: String(order.number),
        buyer: order.buyer,
        status: order.status,
        paymentStatus: order.paymentStatus,
        fulfillmentStatus: order.fulfillmentStatus,
        total: order.totals.total.toString(),
        currency: order.currency,
      },
    }));
  }

  /** Records the order's events in its transaction; a paid order runs the paid hook (gift cards issue) there too. */
  private async emit(tx: SiteContext, order: Order, types: readonly OrderEventType[]): Promise<void> {
    await recordEvents(tx, this.events(tx.siteId, order, types));
    if (types.includes('order.paid') && this.hooks.paid) await this.hooks.paid(tx, order);
  }

  // Placing --------------------------------------------------------------------------------------

  /**
   * Turns a priced checkout into an order inside the caller's transaction (which holds the
   * checkout's lock). Locks are taken in one order by every writer: products (stock), then the
   * coupon, then the site's order counter.
   */
  async placeOrder(tx: SiteContext, input: PlaceOrderInput, at: Date): Promise<Order> {
    const id = newId();
    const draft = snapshotOrder({
      id,
      number: 0,
      checkoutId: input.checkoutId,
      buyer: input.buyer,
      createdBy: input.createdBy,
      email: input.email,
      currency: input.currency,
      channelType: input.channelType,
      weightUnit: input.settings.weightUnit,
      lines: input.lines,
      priced: input.priced,
      billingInfo: input.billingInfo,
      shippingDestination: input.shippingDestination,
      deliveryTimeSlot: input.deliveryTimeSlot,
      buyerNote: input.buyerNote,
      paymentOption: input.payment.kind === 'provider' && input.payment.payment.status !== 'PENDING_MERCHANT' ? 'FULL_PAYMENT_ONLINE' : 'FULL_PAYMENT_OFFLINE',
      at,
      newId,
    });
    let order = draft;
    if (input.settings.inventoryUpdateTrigger === 'ON_ORDER_PLACED') {
      await this.catalog.sellStock(tx, stockChanges(order), at);
      order = { ...order, stockState: 'DECREMENTED' };
    }
    const couponId = order.appliedDiscounts.find((d) => d.source === 'COUPON')?.couponId;
    if (couponId && !(await this.coupons.useCoupon(tx, couponId))) {
      throw new ApiError(400, 'USAGE_LIMIT_REACHED', 'The coupon has reached its usage limit', { couponId });
    }
    order = { ...order, number: await store.nextOrderNumber(tx, FIRST_ORDER_NUMBER) };
    const events: OrderEventType[] = ['order.created'];
    for (const card of input.giftCards ?? []) {
      const paid = addProviderPayment(order, { provider: GIFT_CARD_METHOD, transactionId: card.giftCardId, amount: card.amount, status: 'APPROVED', delayedCapture: false, methodName: `Gift card ${card.obfuscatedCode}` }, at, newId);
      order = paid.order;
      events.push(...paid.events.filter((e) => e !== 'order.payment_updated' || !events.includes(e)));
    }
    if (input.payment.kind === 'provider' && order.totals.total > 0n) {
      const paid = addProviderPayment(order, input.payment.payment, at, newId);
      order = paid.order;
      events.push(...paid.events);
    }
    order = await this.sellWhenPaid(tx, order, input.settings, at);
    await store.insertOrder(tx, order);
    if (input.payment.kind === 'provider') await this.payments.recordPayment(tx, order, order.payments.at(-1));
    await this.emit(tx, order, events);
    return order;
  }

  /** With ON_ORDER_PAID, stock leaves when the order is paid (and fails the payment if short). */
  async sellWhenPaid(tx: SiteContext, order: Order, settings: CommerceSettings, at: Date): Promise<Order> {
    if (order.paymentStatus !== 'PAID' || order.stockState !== 'NONE' || settings.inventoryUpdateTrigger !== 'ON_ORDER_PAID') return order;
    await this.catalog.sellStock(tx, stockChanges(order), at);
    return { ...order, stockState: 'DECREMENTED' };
  }

  /** Pays an order a checkout already made (create-order-and-charge after create-order), with what the provider answered. */
  async addPayment(tx: SiteContext, orderId: string, payment: ProviderPaymentInput, settings: CommerceSettings, at: Date): Promise<Order> {
    const order = await store.findOrder(tx, orderId, true);
    if (!order) throw orderNotFound(orderId);
    const change = addProviderPayment(order, payment, at, newId);
    const next = await this.sellWhenPaid(tx, change.order, settings, at);
    await store.updateOrder(tx, next);
    await this.payments.recordPayment(tx, next, next.payments.at(-1));
    await this.emit(tx, next, change.events);
    return next;
  }

  /** What is left to pay on the order a checkout made. */
  async balanceOf(tx: SiteContext, orderId: string): Promise<{ due: bigint; order: Order }> {
    const order = await store.findOrder(tx, orderId, true);
    if (!order) throw orderNotFound(orderId);
    return { due: order.paymentStatus === 'NOT_PAID' || order.paymentStatus === 'PARTIALLY_PAID' || order.paymentStatus === 'DECLINED' ? balanceDue(order) : 0n, order };
  }

  async findByCheckout(tx: SiteContext, checkoutId: string): Promise<Order | undefined> {
    return store.findOrderByCheckout(tx, checkoutId);
  }

  // Reading --------------------------------------------------------------------------------------

  /** A buyer sees only their own orders (a visitor's thank-you page too); the back office sees all. */
  private visible(ctx: RequestContext, order: Order): boolean {
    if (!SHOPPERS.has(ctx.caller.kind)) return true;
    const buyer = currentBuyer(ctx);
    return order.buyer.kind === buyer.kind && order.buyer.id === buyer.id;
  }

  async getOrder(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await store.findOrder(ctx, orderId);
    if (!order || !this.visible(ctx, order)) throw orderNotFound(orderId);
    return order;
  }

  async searchOrders(ctx: RequestContext, search: SearchInput): Promise<SearchPage> {
    let limit: number;
    let state: CursorState;
    try {
      limit = readInteger(search.cursorPaging?.limit, 'cursorPaging.limit', { min: 1, max: MAX_SEARCH_LIMIT }) ?? DEFAULT_SEARCH_LIMIT;
      const cursor = search.cursorPaging?.cursor;
      if (cursor !== undefined && cursor !== null && cursor !== '') {
        if (typeof cursor !== 'string') throw new FilterError('cursorPaging.cursor must be a string');
        state = decodeCursor(cursor);
      } else {
        const sort = parseSort(search.sort, ORDER_FIELDS);
        state = { filter: search.filter ?? {}, sort: sort.length ? sort : [{ field: 'createdDate', order: 'DESC' }], after: { values: [], id: '' } };
      }
    } catch (error) {
      return queryError(error);
    }
    const params: unknown[] = [ctx.siteId];
    let where: string;
    try {
      where = compileFilter(state.filter, ORDER_FIELDS, params);
    } catch (error) {
      return queryError(error);
    }
    if (SHOPPERS.has(ctx.caller.kind)) {
      const buyer = currentBuyer(ctx);
      where = `o.buyer_kind = ${push(params, buyer.kind)} AND o.buyer_id = ${push(params, buyer.id)} AND ${where}`;
    }
    let keys: { sql: string; cast: string; row: string; order: 'ASC' | 'DESC' }[];
    try {
      keys = state.sort.map((k, i) => ({ ...sortExpression(k.field), row: `sort_${i}`, order: k.order }));
    } catch (error) {
      return queryError(error);
    }
    const lastOrder = keys.length ? keys[keys.length - 1].order : 'ASC';
    const all = [...keys, { sql: 'o.order_id', row: 'order_id', cast: 'text', order: lastOrder }];
    if (state.after.id) {
      // Keyset paging: rows strictly after the last one shown, in the sort's order.
      const values = [...state.after.values, state.after.id];
      const ors = all.map((key, i) => {
        const equal = all.slice(0, i).map((k, j) => `${k.sql} = ${push(params, values[j])}::${k.cast}`);
        const beyond = `${key.sql} ${key.order === 'ASC' ? '>' : '<'} ${push(params, values[i])}::${key.cast}`;
        return `(${[...equal, beyond].join(' AND ')})`;
      });
      where = `${where} AND (${ors.join(' OR ')})`;
    }
    const orderBy = all.map((k) => `${k.sql} ${k.order}`).join(', ');
    const sortColumns = keys.map((k) => `${k.sql} AS ${k.row}`);
    const { orders, sortValues } = await store.searchOrders(ctx, { where, params, orderBy, sortColumns, limit: limit + 1 });
    const hasNext = orders.length > limit;
    const page = orders.slice(0, limit);
    let nextCursor: string | null = null;
    if (hasNext) {
      const last = sortValues[limit - 1];
      const values = keys.map((k) => {
        const v = last[k.row];
        return v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v);
      });
      nextCursor = encodeCursor({ filter: state.filter, sort: state.sort, after: { values, id: page[page.length - 1].id } });
    }
    return { orders: page, nextCursor, hasNext };
  }

  /** Whether the buyer has a paid or fulfilled order (not canceled) with this product: a verified buyer of it. */
  async hasBought(ctx: SiteContext, buyer: Buyer, productId: string): Promise<boolean> {
    return store.hasBought(ctx, buyer, productId);
  }

  // Changing -------------------------------------------------------------------------------------

  private async settings(ctx: SiteContext): Promise<CommerceSettings> {
    return commerceSettingsOf(await this.sites.activeSite(ctx));
  }

  /**
   * Locks the order, applies a change, keeps stock in step with payment, and records events; with
   * `audited`, the action's audit entry too (status and money before → after; a change without a
   * caller, e.g. from the payment provider's webhook, is recorded as the system's).
   */
  async mutate(
    ctx: SiteContext, orderId: string, fn: (order: Order, tx: SiteContext, settings: CommerceSettings) => Promise<Change> | Change, audited?: AuditedAction,
  ): Promise<Order> {
    const settings = await this.settings(ctx);
    const products: string[] = [];
    try {
      return await this.mutateLocked(ctx, orderId, settings, fn, products, audited);
    } finally {
      if (products.length) this.catalog.stockSettled(ctx.siteId, products);
    }
  }

  private async mutateLocked(
    ctx: SiteContext,
    orderId: string,
    settings: CommerceSettings,
    fn: (order: Order, tx: SiteContext, settings: CommerceSettings) => Promise<Change> | Change,
    products: string[],
    audited: AuditedAction | undefined,
  ): Promise<Order> {
    return withTransaction(ctx, async (tx) => {
      const order = await store.findOrder(tx, orderId, true);
      if (!order) throw orderNotFound(orderId);
      products.push(...order.lines.flatMap((l) => (l.productId ? [l.productId] : [])));
      const change = await fn(order, tx, settings);
      const next = await this.sellWhenPaid(tx, change.order, settings, ctx.now());
      await store.updateOrder(tx, next);
      await this.emit(tx, next, change.events);
      if (audited) {
        await recordAudit(tx, { action: audited.action, objectType: 'order', objectId: orderId, before: auditedState(order), after: { ...auditedState(next), ...audited.details?.(next) } });
      }
      return next;
    });
  }

  async markAsPaid(ctx: RequestContext, orderId: string, methodName?: string): Promise<Order> {
    return this.mutate(ctx, orderId, (order) => confirmOffline(order, ctx.now(), newId, methodName) ?? markPaid(order, ctx.now(), newId, methodName), { action: 'order.marked_paid' });
  }

  /** Marks each order paid on its own; one failing does not stop the others. */
  async bulkMarkAsPaid(ctx: RequestContext, orderIds: string[]): Promise<{ id: string; order?: Order; error?: ApiError }[]> {
    const results: { id: string; order?: Order; error?: ApiError }[] = [];
    for (const id of orderIds) {
      try {
        results.push({ id, order: await this.markAsPaid(ctx, id) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ id, error });
      }
    }
    return results;
  }

  async recordManualPayment(ctx: RequestContext, orderId: string, amount: bigint, methodName?: string): Promise<Order> {
    return this.mutate(ctx, orderId, (order) => recordPayment(order, { amount, method: 'manual', ...(methodName !== undefined && { methodName }) }, ctx.now(), newId),
      { action: 'order.payment_recorded', details: (o) => ({ amount: formatAmount(amount, o.currency) }) });
  }

  /** Records a refund the provider made (or that is recorded only), restocking what was asked. */
  async recordRefund(
    ctx: SiteContext, orderId: string, restock: 'NO_ITEMS' | 'ALL_ITEMS' | { lineItemId: string; quantity: number }[],
    fn: (order: Order, tx: SiteContext) => Promise<Change>,
  ): Promise<Order> {
    return this.mutate(ctx, orderId, async (current, tx) => {
      const change = await fn(current, tx);
      if (change.order.refunds.length > current.refunds.length) await store.insertRefund(tx, orderId, change.order.refunds[change.order.refunds.length - 1]);
      if (restock === 'NO_ITEMS' || current.stockState !== 'DECREMENTED') return change;
      const units = unitsToRestock(change.order, restock === 'ALL_ITEMS' ? undefined : restock);
      await this.catalog.restock(tx, stockChanges(change.order, units), ctx.now());
      return { ...change, order: markRestocked(change.order, units, ctx.now()) };
    }, {
      action: 'order.refunded',
      details: (o) => {
        const made = o.refunds[o.refunds.length - 1];
        return { refundId: made.id, amount: formatAmount(made.amount, o.currency), ...(made.reason && { reason: made.reason }) };
      },
    });
  }

  async cancelOrder(ctx: RequestContext, orderId: string, options: { restockAllItems: boolean; customMessage?: string }): Promise<Order> {
    return this.mutate(ctx, orderId, async (current, tx) => {
      const change = cancel(current, ctx.now(), newId, options.customMessage);
      if (!options.restockAllItems || current.stockState !== 'DECREMENTED') return change;
      const units = unitsToRestock(change.order);
      await this.catalog.restock(tx, stockChanges(change.order, units), ctx.now());
      return { ...change, order: markRestocked(change.order, units, ctx.now()) };
    }, { action: 'order.canceled', details: () => ({ restockAllItems: options.restockAllItems }) });
  }

  async createFulfillment(ctx: RequestContext, orderId: string, request: { lineItems: { id: string; quantity?: number }[]; trackingInfo?: TrackingInfo }): Promise<{ order: Order; fulfillmentId: string }> {
    let fulfillmentId = '';
    const order = await this.mutate(ctx, orderId, (current) => {
      const change = fulfill(current, request, ctx.now(), newId);
      fulfillmentId = change.fulfillmentId;
      return change;
    });
    // "Authorize now, capture on fulfilment": the fulfilled order's held payments are taken now.
    if (order.fulfillmentStatus === 'FULFILLED' && order.payments.some((p) => p.status === 'AUTHORIZED')) {
      const settings = await this.paymentsService.settings(ctx);
      if (settings.capturePolicy === 'ON_FULFILLMENT') return { order: await this.payments.captureAuthorized(ctx, orderId), fulfillmentId };
    }
    return { order, fulfillmentId };
  }
}

/** A staff action on an order that the audit log records (mutate). */
interface AuditedAction {
  action: string;
  /** What the action did beyond the state change (a refund's id and amount). */
  details?: (next: Order) => Record<string, unknown>;
}

function auditedState(order: Order): Record<string, unknown> {
  return { status: order.status, paymentStatus: order.paymentStatus, paid: formatAmount(order.paid, order.currency), refunded: formatAmount(order.refunded, order.currency) };
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

function decodeCursor(text: string): CursorState {
  try {
    const state = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorState;
    if (!Array.isArray(state.sort) || !state.after || typeof state.after.id !== 'string' || !Array.isArray(state.after.values)) throw new Error('shape');
    const sort = parseSort(state.sort.map((k) => ({ fieldName: k.field, order: k.order })), ORDER_FIELDS);
    if (sort.length !== state.after.values.length) throw new Error('shape');
    return { filter: state.filter, sort, after: state.after };
  } catch (error) {
    if (error instanceof FilterError) throw error;
    throw new FilterError('The cursor is not one this server gave');
  }
}

// What other services use of this one's modules: they import service.ts only.
export { toWireOrder } from './wire.js';

/** An order as stored, through the context's handle (the outbox worker reads one per event). */
export async function findOrder(ctx: SiteContext, orderId: string): Promise<Order | undefined> {
  return store.findOrder(ctx, orderId);
}

// For the back office (services/backoffice): dashboard aggregates, search and export batches.
export { refundableOf, type NonRefundableReason } from './model.js';
export * as ordersBackOffice from './back-office.js';
export type { OrderExportFilters } from './back-office.js';
