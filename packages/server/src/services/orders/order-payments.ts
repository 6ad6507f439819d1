// An order's money through the provider: capture, void and refund calls (each under an
// idempotency key made of our own ids and the order's state, so a retry after a lost answer
// repeats the provider's first result), refundability and collectability with the spec's
// reasons, the order's transactions, and what the provider's webhooks report.
import type { SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { CommerceSettings } from '../commerce-settings/service.js';
import { ProviderError, providerFailure, type MoneyMove, type PaymentProvider, type PaymentsService, type ProviderEvent, type Transaction } from '../payments/service.js';
import { balanceDue, refund, refundBlock, type Change, type MoveState, type NonRefundableReason, type Order, type OrderPayment, type OrderRefund, type RefundRequest } from './model.js';
import { addChargeback, authorizationBlock, capturePayment, isOffline, requireAuthorized, settlePayment, settleRefund, voidPayment, type NotVoidableReason } from './payment-model.js';
import { reduceRefund } from './store.js';

type Restock = 'NO_ITEMS' | 'ALL_ITEMS' | { lineItemId: string; quantity: number }[];

/** What this needs of the orders service (kept to an interface: service.ts builds this class). */
export interface OrderWriter {
  mutate(ctx: SiteContext, orderId: string, fn: (order: Order, tx: SiteContext, settings: CommerceSettings) => Promise<Change> | Change): Promise<Order>;
  recordRefund(ctx: SiteContext, orderId: string, restock: Restock, fn: (order: Order, tx: SiteContext) => Promise<Change>): Promise<Order>;
  getOrder(ctx: RequestContext, orderId: string): Promise<Order>;
}

export interface Refundability {
  paymentId: string;
  status: 'REFUNDABLE' | 'MANUAL' | 'NOT_REFUNDABLE';
  reason?: NonRefundableReason;
  manualReason?: NotVoidableReason;
}

export type Collectability =
  | 'COLLECTABLE' | 'NONCOLLECTABLE_ORDER_IS_CANCELLED' | 'NONCOLLECTABLE_ORDER_IS_PAID' | 'NONCOLLECTABLE_MISSING_PAYMENT_METHOD'
  | 'NONCOLLECTABLE_ORDER_IS_PENDING' | 'NONCOLLECTABLE_ORDER_IS_REJECTED' | 'NONCOLLECTABLE_ORDER_HAS_CHARGEBACKS';

/** A refund of a gift card's payment goes back on the card (services/gift-cards, wired in app.ts). */
export interface GiftCardRefunds {
  refundToGiftCard?: (tx: SiteContext, input: { giftCardId: string; orderId: string; amount: bigint }) => Promise<void>;
}

export class OrderPayments {
  constructor(private readonly orders: OrderWriter, private readonly payments: PaymentsService, private readonly giftCards: GiftCardRefunds = {}) {}

  private async providerOf(tx: SiteContext, payment: OrderPayment): Promise<PaymentProvider> {
    if (!payment.provider || !payment.transactionId) throw new ApiError(400, 'NOT_REGULAR_ONLINE_PAYMENT', `Payment ${payment.id} was not taken by a provider`, { paymentId: payment.id, reason: 'OFFLINE' });
    return this.payments.provider(tx, payment.provider);
  }

  /** Runs a provider call; its failure becomes an answer in words with the spec's reason. */
  private async ask<T>(doing: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ProviderError) throw providerFailure(error, doing);
      throw error;
    }
  }

  /** The provider's payment, recorded beside the order. */
  async recordPayment(tx: SiteContext, order: Order, payment: OrderPayment | undefined): Promise<void> {
    if (!payment?.provider) return;
    await this.payments.record(tx, {
      orderId: order.id, paymentId: payment.id, kind: 'PAYMENT', provider: payment.provider, providerTransactionId: payment.transactionId ?? null,
      idempotencyKey: null, amount: payment.amount, status: payment.status ?? 'APPROVED', failure: null,
    });
  }

  async capture(ctx: SiteContext, orderId: string, requests: { paymentId: string; amount?: bigint }[]): Promise<Order> {
    return this.orders.mutate(ctx, orderId, async (order, tx) => {
      let change: Change = { order, events: [] };
      for (const request of requests) {
        const payment = requireAuthorized(change.order, request.paymentId, tx.now(), 'captured');
        const amount = request.amount ?? payment.amount;
        if (amount <= 0n || amount > payment.amount) {
          throw new ApiError(400, 'INVALID_AMOUNT', `Between 0 and ${payment.amount.toString()} minor units of payment ${payment.id} can be captured`, { paymentId: payment.id });
        }
        const provider = await this.providerOf(tx, payment);
        const key = `bodega-capture-${payment.id}-${payment.authorization?.captures.length ?? 0}`;
        const move = await this.ask('capture the payment', () => provider.capture(payment.transactionId as string, amount, key));
        const next = capturePayment(change.order, payment.id, amount, move, tx.now(), newId);
        change = { order: next.order, events: [...change.events, ...next.events] };
        await this.payments.record(tx, { orderId, paymentId: payment.id, kind: 'CAPTURE', provider: provider.id, providerTransactionId: move.providerId, idempotencyKey: key, amount, status: move.status, failure: move.failure ?? null });
      }
      return change;
    });
  }

  /** Captures every authorized payment of the order in full (capture on fulfilment). */
  async captureAuthorized(ctx: SiteContext, orderId: string): Promise<Order> {
    const order = await this.orders.mutate(ctx, orderId, (o) => ({ order: o, events: [] }));
    const held = order.payments.filter((p) => !authorizationBlock(order, p.id, ctx.now()));
    return held.length ? this.capture(ctx, orderId, held.map((p) => ({ paymentId: p.id }))) : order;
  }

  async void(ctx: SiteContext, orderId: string, paymentIds: string[]): Promise<Order> {
    return this.orders.mutate(ctx, orderId, async (order, tx) => {
      let change: Change = { order, events: [] };
      for (const paymentId of paymentIds) {
        const payment = requireAuthorized(change.order, paymentId, tx.now(), 'voided');
        const provider = await this.providerOf(tx, payment);
        const key = `bodega-void-${payment.id}`;
        const move = await this.ask('void the payment', () => provider.void(payment.transactionId as string, key));
        const next = voidPayment(change.order, paymentId, move, tx.now(), newId);
        change = { order: next.order, events: [...change.events, ...next.events] };
        await this.payments.record(tx, { orderId, paymentId, kind: 'VOID', provider: provider.id, providerTransactionId: move.providerId, idempotencyKey: key, amount: payment.amount, status: move.status, failure: move.failure ?? null });
      }
      return change;
    });
  }

  /**
   * Refunds through the provider the payments it took (offline and manual ones are only
   * recorded): the provider's answer decides each refund's state.
   */
  async refund(ctx: SiteContext, orderId: string, request: RefundRequest, restock: Restock): Promise<{ order: Order; refundId: string }> {
    const order = await this.orders.recordRefund(ctx, orderId, restock, async (current, tx) => {
      const payments: OrderRefund['payments'] = [];
      const moves: Omit<Transaction, 'id' | 'createdAt'>[] = [];
      for (const wanted of request.payments) {
        const payment = current.payments.find((p) => p.id === wanted.paymentId);
        const block = refundBlock(current, payment);
        if (payment && !block && payment.method === 'gift_card' && payment.transactionId && this.giftCards.refundToGiftCard
          && wanted.amount > 0n && payment.refunded + wanted.amount <= payment.amount) {
          await this.giftCards.refundToGiftCard(tx, { giftCardId: payment.transactionId, orderId, amount: wanted.amount });
          payments.push({ ...wanted, status: 'SUCCEEDED', externalRefund: false });
          continue;
        }
        if (!payment || block || isOffline(payment) || !payment.provider) {
          payments.push({ ...wanted, status: 'SUCCEEDED', externalRefund: true });
          continue;
        }
        if (wanted.amount <= 0n || payment.refunded + wanted.amount > payment.amount) {
          payments.push(wanted); // the model refuses it in words
          continue;
        }
        const provider = await this.providerOf(tx, payment);
        const key = `bodega-refund-${payment.id}-${payment.refunded.toString()}-${wanted.amount.toString()}`;
        let move: Omit<MoneyMove, 'status'> & { status: MoneyMove['status'] | 'SCHEDULED' };
        try {
          move = await provider.refund(payment.transactionId as string, wanted.amount, key);
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          if (error.failure !== 'PROVIDER_IS_DOWN') throw providerFailure(error, 'refund the payment');
          // No answer: the refund is accepted and SCHEDULED; the sweep sends it again under the same key (never twice).
          move = { providerId: '', status: 'SCHEDULED' };
        }
        if (move.status === 'FAILED') throw new ApiError(400, 'REFUND_FAILED', `The provider refused the refund: ${move.failure ?? 'no reason given'}`, { paymentId: payment.id, refundStatus: 'FAILED' });
        payments.push({ ...wanted, status: move.status, ...(move.providerId && { providerRefundId: move.providerId }), externalRefund: false, idempotencyKey: key });
        moves.push({ orderId, paymentId: payment.id, kind: 'REFUND', provider: provider.id, providerTransactionId: move.providerId || null, idempotencyKey: key, amount: wanted.amount, status: move.status, failure: null });
      }
      const change = refund(current, { ...request, payments: request.payments.map((p) => ({ paymentId: p.paymentId, amount: p.amount })) }, tx.now(), newId);
      const last = change.order.refunds.at(-1);
      const refunds = last ? [...change.order.refunds.slice(0, -1), { ...last, payments }] : change.order.refunds;
      for (const move of moves) await this.payments.record(tx, move);
      return { ...change, order: { ...change.order, refunds } };
    });
    return { order, refundId: order.refunds[order.refunds.length - 1].id };
  }

  /** Each payment: refundable through the provider, by hand (offline), or not, and why (the provider is asked). */
  async refundability(ctx: RequestContext, orderId: string): Promise<{ order: Order; payments: Refundability[] }> {
    const order = await this.orders.getOrder(ctx, orderId);
    const payments: Refundability[] = [];
    for (const payment of order.payments) {
      const block = refundBlock(order, payment);
      if (block) {
        payments.push({ paymentId: payment.id, status: 'NOT_REFUNDABLE', reason: block });
        continue;
      }
      if (payment.method === 'gift_card' && this.giftCards.refundToGiftCard) {
        payments.push({ paymentId: payment.id, status: 'REFUNDABLE' });
        continue;
      }
      if (isOffline(payment) || !payment.provider || !payment.transactionId) {
        payments.push({ paymentId: payment.id, status: 'MANUAL', manualReason: 'OFFLINE' });
        continue;
      }
      if (payment.chargebacks?.length) {
        payments.push({ paymentId: payment.id, status: 'NOT_REFUNDABLE', reason: 'DISABLED_BY_PROVIDER' });
        continue;
      }
      try {
        const provider = await this.payments.provider(ctx, payment.provider);
        const intent = await provider.lookup({ intentId: payment.transactionId });
        payments.push(intent ? { paymentId: payment.id, status: 'REFUNDABLE' } : { paymentId: payment.id, status: 'NOT_REFUNDABLE', reason: 'TRANSACTION_NOT_FOUND' });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        const reason: NonRefundableReason = error.failure === 'EXPIRED' || error.failure === 'INVALID' ? 'DISABLED_BY_PROVIDER' : error.failure;
        payments.push({ paymentId: payment.id, status: 'NOT_REFUNDABLE', reason });
      }
    }
    return { order, payments };
  }

  async collectability(ctx: RequestContext, orderId: string): Promise<{ status: Collectability; amount: bigint; order: Order }> {
    const order = await this.orders.getOrder(ctx, orderId);
    const settings = await this.payments.settings(ctx);
    const status: Collectability = order.status === 'CANCELED' ? 'NONCOLLECTABLE_ORDER_IS_CANCELLED'
      : order.status === 'REJECTED' ? 'NONCOLLECTABLE_ORDER_IS_REJECTED'
      : order.status === 'PENDING' ? 'NONCOLLECTABLE_ORDER_IS_PENDING'
      : order.payments.some((p) => p.chargebacks?.length) ? 'NONCOLLECTABLE_ORDER_HAS_CHARGEBACKS'
      : balanceDue(order) === 0n ? 'NONCOLLECTABLE_ORDER_IS_PAID'
      : settings.provider === 'none' ? 'NONCOLLECTABLE_MISSING_PAYMENT_METHOD'
      : 'COLLECTABLE';
    return { status, amount: balanceDue(order), order };
  }

  async transactions(ctx: RequestContext, orderId: string): Promise<{ order: Order; transactions: Transaction[] }> {
    const order = await this.orders.getOrder(ctx, orderId);
    return { order, transactions: await this.payments.transactions(ctx, orderId) };
  }

  /** What a provider's webhook (or the sweep) found about a payment of this order. */
  async apply(ctx: SiteContext, orderId: string, event: ProviderEvent): Promise<Order> {
    if (event.kind === 'refund') return this.providerRefunded(ctx, orderId, event);
    return this.orders.mutate(ctx, orderId, async (order, tx): Promise<Change> => {
      const intentId = event.kind === 'intent' ? event.intent.id : event.kind === 'ignored' ? '' : event.intentId;
      const payment = order.payments.find((p) => p.transactionId === intentId);
      if (!payment) return { order, events: [] };
      if (event.kind === 'intent') {
        const { status, failure } = event.intent;
        if (status === 'APPROVED' || status === 'AUTHORIZED') return settlePayment(order, payment.id, status, tx.now(), newId);
        if (status === 'DECLINED') return settlePayment(order, payment.id, 'DECLINED', tx.now(), newId, failure ?? 'The provider declined the payment');
        if (status === 'CANCELED') return settlePayment(order, payment.id, 'CANCELED', tx.now(), newId, failure ?? 'the authorization was canceled (Stripe cancels one left uncaptured for 7 days)');
        return { order, events: [] };
      }
      if (event.kind === 'dispute') {
        await this.payments.record(tx, { orderId, paymentId: payment.id, kind: 'CHARGEBACK', provider: payment.provider ?? '', providerTransactionId: event.disputeId, idempotencyKey: `bodega-dispute-${event.disputeId}`, amount: event.amount, status: 'PENDING', failure: event.reason });
        return addChargeback(order, payment.id, { id: event.disputeId, amount: event.amount, reason: event.reason }, tx.now(), newId);
      }
      return { order, events: [] };
    });
  }

  /**
   * The provider's word that a payment's charge is refunded up to `amount` in all (Stripe's
   * charge.refunded): our refunds it had not answered are settled once that total covers them, and
   * money refunded beyond what Bodega knows was refunded in the provider's own dashboard: recorded
   * as a refund of the order (the dashboard's figures count it on its day), the merchant told by
   * mail and webhook event.
   */
  private async providerRefunded(ctx: SiteContext, orderId: string, event: Extract<ProviderEvent, { kind: 'refund' }>): Promise<Order> {
    let outside = 0n;
    const settled = await this.orders.mutate(ctx, orderId, async (order, tx): Promise<Change> => {
      const payment = order.payments.find((p) => p.transactionId === event.intentId);
      if (!payment) return { order, events: [] };
      outside = event.amount - payment.refunded;
      let change: Change = { order, events: [] };
      if (outside < 0n) return change;
      for (const key of unsettledKeys(order, payment.id)) {
        const next = settleRefund(change.order, key, { status: 'SUCCEEDED' }, tx.now(), newId);
        change = { order: next.order, events: [...change.events, ...next.events] };
        await this.payments.settleTransaction(tx, key, 'SUCCEEDED');
      }
      return change;
    });
    if (outside <= 0n) return settled;
    return this.orders.recordRefund(ctx, orderId, 'NO_ITEMS', async (order, tx): Promise<Change> => {
      const payment = order.payments.find((p) => p.transactionId === event.intentId);
      const amount = payment ? event.amount - payment.refunded : 0n;
      if (!payment || amount <= 0n) return { order, events: [] }; // another delivery of the event recorded it
      const made = refund(order, { payments: [{ paymentId: payment.id, amount }], lineItems: [], shippingIncluded: false, reason: 'Refunded in the payment provider\'s dashboard' }, tx.now(), newId);
      const last = made.order.refunds[made.order.refunds.length - 1];
      const recorded: OrderRefund = { ...last, madeAt: 'PROVIDER', payments: [{ paymentId: payment.id, amount, status: 'SUCCEEDED', externalRefund: false, providerRefundId: event.refundId }] };
      await this.payments.record(tx, { orderId, paymentId: payment.id, kind: 'REFUND', provider: payment.provider ?? '', providerTransactionId: event.refundId, idempotencyKey: `bodega-provider-refund-${event.eventId}`, amount, status: 'SUCCEEDED', failure: null });
      return { order: { ...made.order, refunds: [...made.order.refunds.slice(0, -1), recorded] }, events: [...made.events, 'order.refunded_at_provider'] };
    });
  }

  /**
   * The sweep: refunds the provider never answered are sent again under their first idempotency
   * key (the provider answers the first call's result, so never twice). Each is STARTED, committed,
   * before the call: a crash or another silence leaves it STARTED for the next sweep.
   */
  async retryRefunds(contextFor: (siteId: string) => SiteContext, olderThanMs: number, report: (error: unknown) => void = () => {}, siteIds: readonly string[] | null = null): Promise<number> {
    const open = await this.payments.unsettledRefunds(olderThanMs, siteIds);
    for (const { siteId, orderId, idempotencyKey } of open) {
      try {
        await this.resendRefund(contextFor(siteId), orderId, idempotencyKey);
      } catch (error) {
        if (!(error instanceof ApiError)) report(error);
      }
    }
    return open.length;
  }

  private async resendRefund(ctx: SiteContext, orderId: string, key: string): Promise<void> {
    const settle = (outcome: { status: MoveState; providerId?: string; failure?: string }) => this.orders.mutate(ctx, orderId, async (order, tx) => {
      const change = settleRefund(order, key, outcome, tx.now(), newId);
      if (change.order === order) return change;
      await this.payments.settleTransaction(tx, key, outcome.status, outcome.providerId ?? null, outcome.failure ?? null);
      if (change.reverted) await reduceRefund(tx, orderId, change.reverted.refundId, change.reverted.amount);
      return change;
    });
    const order = await settle({ status: 'STARTED' });
    const entry = order.refunds.flatMap((r) => r.payments).find((p) => p.idempotencyKey === key);
    const payment = order.payments.find((p) => p.id === entry?.paymentId);
    if (!entry || entry.status !== 'STARTED' || !payment) return;
    const provider = await this.providerOf(ctx, payment);
    let move: MoneyMove;
    try {
      move = await provider.refund(payment.transactionId as string, entry.amount, key);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.failure === 'PROVIDER_IS_DOWN') return; // still no answer: STARTED, sent again next time
      move = { providerId: '', status: 'FAILED', failure: error.message };
    }
    await settle({ status: move.status, ...(move.providerId && { providerId: move.providerId }), ...(move.failure && { failure: move.failure }) });
  }
}

/** The idempotency keys of a payment's refunds still waiting for the provider's word. */
function unsettledKeys(order: Order, paymentId: string): string[] {
  return order.refunds.flatMap((r) => r.payments)
    .filter((p) => p.paymentId === paymentId && p.idempotencyKey && (p.status === 'PENDING' || p.status === 'SCHEDULED' || p.status === 'STARTED'))
    .map((p) => p.idempotencyKey as string);
}
