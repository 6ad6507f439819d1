import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { SitesService } from '../sites/service.js';
import type { CatalogService } from '../catalog/service.js';
import type { AddToCartInput, CartService } from '../cart/service.js';
import { currentBuyer, type Buyer } from '../commerce/buyer.js';
import { MAX_LINE_QUANTITY, mergeLines, quantityTooHigh, type ResolvedLine } from '../commerce/lines.js';
import type { MerchantDiscount, PricedCart, TipChoice } from '../commerce/pricing/model.js';
import { tipChoiceProblem } from '../commerce/pricing/tips.js';
import { LINES_ONLY, pricingRequest, throwIfCouponRejected } from '../commerce/pricing/request.js';
import { commerceSettingsOf, type CommerceSettings } from '../commerce-settings/service.js';
import type { OrdersService, PaymentRequest } from '../orders/service.js';
import type { Coupon } from '../coupons/service.js';
import { ProviderError, providerFailure, type Attempt, type AuthorizeRequest, type PaymentsService, type ProviderEvent, type ProviderIntent } from '../payments/service.js';
import type { AppliedGiftCard, GiftCardsService } from '../gift-cards/service.js';
import * as store from './store.js';
import type { Checkout, KeyedLine } from './store.js';
import { customAmountOf, type GiftCardRules } from '../commerce/custom-amount.js';

export type { Checkout } from './store.js';

export interface CheckoutView {
  checkout: Checkout;
  lines: ResolvedLine[];
  priced: PricedCart;
  settings: CommerceSettings;
  /** The gift cards entered, each with what it pays of the total. */
  giftCards: AppliedGiftCard[];
}

/** What a buyer may set on a checkout (absent: unchanged; null: cleared). */
export interface CheckoutPatch {
  billingInfo?: Record<string, unknown> | null;
  shippingDestination?: Record<string, unknown> | null;
  selectedShippingOption?: { code: string; carrierId?: string } | null;
  deliveryTimeSlot?: { from: string; to: string } | null;
  email?: string | null;
  buyerNote?: string | null;
  couponCode?: string | null;
  merchantDiscounts?: MerchantDiscount[];
  add?: AddToCartInput;
  /** A gift card to pay with (added to those already entered). */
  giftCardCode?: string;
  /** Who the checkout is for (staff and API keys only: a draft order's customer). */
  buyer?: Buyer;
}

/** How create-order pays: not yet (create-order), or with what the storefront's payment form produced. */
export type CompleteRequest = { kind: 'offline' } | { kind: 'charge'; token: string; delayCapture: boolean; returnUrl: string };

/** A checkout under its lock, priced now unless it already became an order. */
interface Placing {
  checkout: Checkout;
  quote?: { lines: ResolvedLine[]; priced: PricedCart; settings: CommerceSettings; coupon?: Coupon };
}

export interface CreateCheckoutInput extends CheckoutPatch {
  channelType: string;
}

const SHOPPERS = new Set(['ANONYMOUS_VISITOR', 'MEMBER']);

/** An API key or the back office's staff: they may add custom lines and merchant discounts, and build a checkout for a named buyer (a draft order). */
function merchantCaller(ctx: RequestContext): boolean {
  return ctx.caller.kind === 'APP' || (ctx.caller.kind === 'WIX_USER' && (ctx.caller.memberRole === 'OWNER' || ctx.caller.memberRole === 'CONTRIBUTOR'));
}

function checkoutNotFound(checkoutId: string): ApiError {
  return ApiError.notFound('CHECKOUT_NOT_FOUND', `Checkout ${checkoutId} was not found`, { checkoutId });
}

/** The buyer a new checkout belongs to: the caller, or (for an API key) a named buyer or the key. */
export class CheckoutService {
  constructor(
    private readonly sites: SitesService,
    private readonly catalog: CatalogService,
    private readonly cart: CartService,
    private readonly orders: OrdersService,
    private readonly payments: PaymentsService,
    private readonly publicUrl: string,
    private readonly giftCards: GiftCardsService,
  ) {}

  /** The buyer who made a checkout uses it; the back office and API keys may use any. */
  private usable(ctx: RequestContext, checkout: Checkout): boolean {
    if (!SHOPPERS.has(ctx.caller.kind)) return true;
    const buyer = currentBuyer(ctx);
    return checkout.buyer.kind === buyer.kind && checkout.buyer.id === buyer.id;
  }

  private async view(ctx: RequestContext, checkout: Checkout): Promise<CheckoutView> {
    const { lines, priced, settings } = await this.price(ctx, checkout);
    return { checkout, lines, priced, settings, giftCards: await this.giftCards.quote(ctx, checkout.id, checkout.currency, priced.totals.total) };
  }

  /** The checkout priced now, with the catalog, coupon and settings as they are. */
  private price(ctx: SiteContext, checkout: Checkout) {
    return this.cart.price(ctx, pricingRequest(ctx, checkout, {
      shippingAddress: checkout.shippingDestination?.address as Record<string, unknown> | undefined,
      billingAddress: checkout.billingInfo?.address as Record<string, unknown> | undefined,
      selectedShippingOptionCode: checkout.selectedShippingOption?.code ?? null,
      tip: checkout.tipChoice && { id: checkout.id, choice: checkout.tipChoice },
    }));
  }

  async getCheckout(ctx: RequestContext, checkoutId: string): Promise<CheckoutView> {
    const checkout = await store.findCheckout(ctx, checkoutId);
    if (!checkout || !this.usable(ctx, checkout)) throw checkoutNotFound(checkoutId);
    return this.view(ctx, checkout);
  }

  async getCheckoutByCart(ctx: RequestContext, cartId: string): Promise<CheckoutView> {
    const checkout = await store.findCheckoutByCart(ctx, cartId);
    if (!checkout || !this.usable(ctx, checkout)) throw ApiError.notFound('CHECKOUT_NOT_FOUND', `No checkout for cart ${cartId}`, { cartId });
    return this.view(ctx, checkout);
  }

  /** Validates lines to add (catalog items the buyer may buy; custom items by API key only). */
  private async prepare(ctx: RequestContext, add: AddToCartInput | undefined): Promise<KeyedLine[]> {
    if (!add || (add.lineItems.length === 0 && add.customLineItems.length === 0)) return [];
    if (add.customLineItems.length && !merchantCaller(ctx)) throw ApiError.forbidden('Custom line items are added with an API key or by staff');
    const products = await this.catalog.productsByIds(ctx, add.lineItems.map((l) => l.catalogReference.catalogItemId));
    const site = await this.cart.site(ctx);
    return this.cart.prepareLines(add, products, undefined, await this.cart.rulesFor(ctx, add, site.settings.currency)).map((l) => ({
      id: l.id,
      key: l.key,
      quantity: l.quantity,
      ...(l.catalogReference && { catalogReference: l.catalogReference }),
      ...(l.custom && { custom: l.custom }),
    }));
  }

  private async checkCoupon(ctx: SiteContext, checkout: Checkout): Promise<void> {
    if (!checkout.couponCode) return;
    const { priced } = await this.cart.price(ctx, pricingRequest(ctx, checkout, LINES_ONLY));
    throwIfCouponRejected(priced);
  }

  private apply(ctx: RequestContext, checkout: Checkout, patch: CheckoutPatch, added: KeyedLine[]): Checkout {
    if (patch.merchantDiscounts !== undefined && !merchantCaller(ctx)) throw ApiError.forbidden('Merchant discounts are set with an API key or by staff');
    // Lines add up by key as the cart's do (mergeLines, the rule of the cart's ON CONFLICT).
    const next: Checkout = { ...checkout, lines: mergeLines(checkout.lines, added), updatedDate: ctx.now() };
    if (next.lines.some((l) => l.quantity > MAX_LINE_QUANTITY)) throw quantityTooHigh();
    if (patch.billingInfo !== undefined) next.billingInfo = patch.billingInfo;
    if (patch.shippingDestination !== undefined) next.shippingDestination = patch.shippingDestination;
    if (patch.selectedShippingOption !== undefined) next.selectedShippingOption = patch.selectedShippingOption;
    if (patch.deliveryTimeSlot !== undefined) next.deliveryTimeSlot = patch.deliveryTimeSlot;
    if (patch.email !== undefined) next.email = patch.email;
    if (patch.buyerNote !== undefined) next.buyerNote = patch.buyerNote;
    if (patch.couponCode !== undefined) next.couponCode = patch.couponCode || null;
    if (patch.merchantDiscounts !== undefined) next.merchantDiscounts = patch.merchantDiscounts;
    if (patch.buyer !== undefined) {
      if (!merchantCaller(ctx)) throw ApiError.forbidden('The buyer is set by staff or an API key');
      next.buyer = patch.buyer;
    }
    return next;
  }

  async createCheckout(ctx: RequestContext, input: CreateCheckoutInput, named?: Buyer): Promise<CheckoutView> {
    const site = await this.sites.activeSite(ctx);
    const added = await this.prepare(ctx, input.add);
    const now = ctx.now();
    const blank: Checkout = {
      id: newId(),
      cartId: null,
      buyer: named && merchantCaller(ctx) ? named : currentBuyer(ctx, named),
      channelType: input.channelType,
      currency: site.settings.currency,
      lines: [],
      couponCode: null,
      merchantDiscounts: [],
      buyerNote: null,
      email: null,
      billingInfo: null,
      shippingDestination: null,
      selectedShippingOption: null,
      deliveryTimeSlot: null,
      tipChoice: null,
      completed: false,
      orderId: null,
      createdDate: now,
      updatedDate: now,
    };
    const checkout = this.apply(ctx, blank, input, added);
    await withTransaction(ctx, async (tx) => {
      await this.checkCoupon(tx, checkout);
      await store.insertCheckout(tx, checkout);
      if (input.giftCardCode) await this.giftCards.attach(tx, checkout, input.giftCardCode);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'checkout.created', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, buyer: checkout.buyer } });
    });
    return this.view(ctx, checkout);
  }

  /** A checkout holding the current cart's lines, coupon and merchant discounts; the cart stays until an order is placed. */
  async createFromCurrentCart(ctx: RequestContext, buyer: Buyer, input: Omit<CreateCheckoutInput, 'add' | 'couponCode' | 'merchantDiscounts'>): Promise<string> {
    const cart = await this.cart.findCart(ctx, buyer);
    if (!cart) throw ApiError.notFound('OWNED_CART_NOT_FOUND', 'Cart not found');
    if (cart.lines.length === 0) throw new ApiError(400, 'CART_EMPTY', 'The cart has no line items');
    const now = ctx.now();
    const contact = cart.contactInfo ?? null;
    const checkout: Checkout = {
      id: newId(),
      cartId: cart.id,
      buyer,
      channelType: input.channelType,
      currency: cart.currency,
      lines: [],
      couponCode: cart.couponCode,
      merchantDiscounts: cart.merchantDiscounts,
      buyerNote: input.buyerNote ?? cart.buyerNote,
      email: input.email ?? null,
      billingInfo: input.billingInfo ?? null,
      shippingDestination: input.shippingDestination ?? contact,
      selectedShippingOption: input.selectedShippingOption ?? cart.selectedShippingOption,
      deliveryTimeSlot: null,
      tipChoice: null,
      completed: false,
      orderId: null,
      createdDate: now,
      updatedDate: now,
    };
    // Lines keep their ids; their keys are recomputed so adding the same item later adds up.
    const products = await this.catalog.productsByIds(ctx, cart.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : [])));
    const giftCards = cart.lines.some((l) => customAmountOf(l.catalogReference?.options) !== undefined) ? await this.cart.giftCardRules(ctx, cart.currency) : undefined;
    checkout.lines = cart.lines.map((l) => ({ ...l, key: l.catalogReference ? this.keyOf(l.catalogReference, products, giftCards) : null }));
    await withTransaction(ctx, async (tx) => {
      await store.insertCheckout(tx, checkout);
      await this.cart.markCheckout(tx, cart.id, checkout.id);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'checkout.created', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, cartId: cart.id, buyer } });
    });
    return checkout.id;
  }

  /**
   * A new checkout holding a placed order's lines (same line ids, the quantities given), buyer,
   * addresses, shipping choice and discounts: what an order edit is priced on (a draft order of the
   * order). Staff and API keys only.
   */
  async copyForEdit(ctx: RequestContext, checkoutId: string, channelType: string, quantities: ReadonlyMap<string, number>): Promise<CheckoutView> {
    if (!merchantCaller(ctx)) throw ApiError.forbidden('Orders are edited by staff or an API key');
    const source = await store.findCheckout(ctx, checkoutId);
    if (!source) throw checkoutNotFound(checkoutId);
    const now = ctx.now();
    const lines = source.lines.flatMap((l) => {
      const quantity = quantities.get(l.id);
      return quantity ? [{ ...l, quantity }] : [];
    });
    const copy: Checkout = { ...source, id: newId(), cartId: null, channelType, lines, completed: false, orderId: null, createdDate: now, updatedDate: now };
    await withTransaction(ctx, async (tx) => {
      await store.insertCheckout(tx, copy);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'checkout.created', entityType: 'checkout', entityId: copy.id, payload: { checkoutId: copy.id, buyer: copy.buyer } });
    });
    return this.view(ctx, copy);
  }

  private keyOf(ref: NonNullable<KeyedLine['catalogReference']>, products: Awaited<ReturnType<CatalogService['productsByIds']>>, giftCards?: GiftCardRules): string | null {
    try {
      const [line] = this.cart.prepareLines({ lineItems: [{ catalogReference: ref, quantity: 1 }], customLineItems: [] }, products, undefined, giftCards);
      return line.key;
    } catch {
      return null;
    }
  }

  /** Locks the checkout, changes it, and answers it as committed. */
  private async change(ctx: RequestContext, checkoutId: string, fn: (checkout: Checkout, tx: RequestContext) => Checkout | Promise<Checkout>): Promise<CheckoutView> {
    const checkout = await withTransaction(ctx, async (tx) => {
      const current = await store.findCheckout(tx, checkoutId, true);
      if (!current || !this.usable(ctx, current)) throw checkoutNotFound(checkoutId);
      if (current.completed) throw new ApiError(400, 'CHECKOUT_ALREADY_COMPLETED', `Checkout ${checkoutId} already became order ${current.orderId}`, { orderId: current.orderId });
      const next = await fn(current, tx);
      if (next.couponCode && next.couponCode !== current.couponCode) await this.checkCoupon(tx, next);
      await store.updateCheckout(tx, next);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'checkout.updated', entityType: 'checkout', entityId: checkoutId, payload: { checkoutId } });
      return next;
    });
    return this.view(ctx, checkout);
  }

  async updateCheckout(ctx: RequestContext, checkoutId: string, patch: CheckoutPatch): Promise<CheckoutView> {
    const added = await this.prepare(ctx, patch.add);
    return this.change(ctx, checkoutId, async (checkout, tx) => {
      if (patch.giftCardCode) await this.giftCards.attach(tx, checkout, patch.giftCardCode);
      return this.apply(ctx, checkout, patch, added);
    });
  }

  /** The shopper's tip (the official tips' updateTipChoice), checked against the site's tip settings; priced with the checkout. */
  async setTipChoice(ctx: RequestContext, checkoutId: string, choice: TipChoice): Promise<CheckoutView> {
    return this.change(ctx, checkoutId, async (checkout, tx) => {
      const problem = tipChoiceProblem(choice, commerceSettingsOf(await this.cart.site(tx)).tips, checkout.currency);
      if (problem) throw new ApiError(400, 'INVALID_TIP', problem, { tipChoice: choice });
      return { ...checkout, tipChoice: choice, updatedDate: tx.now() };
    });
  }

  /** Takes the gift cards off the checkout, giving back what it held of them. */
  async removeGiftCard(ctx: RequestContext, checkoutId: string): Promise<CheckoutView> {
    return this.change(ctx, checkoutId, async (checkout, tx) => {
      await this.giftCards.detach(tx, checkoutId);
      return { ...checkout, updatedDate: ctx.now() };
    });
  }

  async removeCoupon(ctx: RequestContext, checkoutId: string): Promise<CheckoutView> {
    return this.change(ctx, checkoutId, (checkout) => ({ ...checkout, couponCode: null, updatedDate: ctx.now() }));
  }

  async removeLineItems(ctx: RequestContext, checkoutId: string, lineItemIds: string[]): Promise<CheckoutView> {
    return this.change(ctx, checkoutId, (checkout) => {
      const unknown = lineItemIds.filter((id) => !checkout.lines.some((l) => l.id === id));
      if (unknown.length) throw new ApiError(400, 'LINE_ITEM_NOT_FOUND', `Not in the checkout: ${unknown.join(', ')}`, { lineItemIds: unknown });
      return { ...checkout, lines: checkout.lines.filter((l) => !lineItemIds.includes(l.id)), updatedDate: ctx.now() };
    });
  }

  async updateLineItemsQuantity(ctx: RequestContext, checkoutId: string, changes: { id: string; quantity: number }[]): Promise<CheckoutView> {
    return this.change(ctx, checkoutId, (checkout) => {
      const unknown = changes.filter((c) => !checkout.lines.some((l) => l.id === c.id)).map((c) => c.id);
      if (unknown.length) throw new ApiError(400, 'LINE_ITEM_NOT_FOUND', `Not in the checkout: ${unknown.join(', ')}`, { lineItemIds: unknown });
      const quantities = new Map(changes.map((c) => [c.id, c.quantity]));
      const lines = checkout.lines.map((l) => ({ ...l, quantity: quantities.get(l.id) ?? l.quantity })).filter((l) => l.quantity > 0);
      return { ...checkout, lines, updatedDate: ctx.now() };
    });
  }

  /**
   * Places the order. The checkout's row lock makes this idempotent under concurrent calls: the
   * second caller waits, then finds the order the first one made and answers it.
   */
  async createOrder(ctx: RequestContext, checkoutId: string, request: CompleteRequest = { kind: 'offline' }): Promise<{ orderId: string }> {
    if (request.kind === 'charge') {
      const offline = /^offline:(.+)$/.exec(request.token);
      if (!offline) return this.charge(ctx, checkoutId, request);
      const method = offline[1];
      const settings = await this.payments.settings(ctx);
      if (!(settings.offlineMethods as string[]).includes(method)) {
        throw new ApiError(400, 'PAYMENT_METHOD_NOT_AVAILABLE', `This store does not take "${method}"; it takes ${settings.offlineMethods.join(', ') || 'no offline payments'}`, { offlineMethods: settings.offlineMethods });
      }
      return this.locked(ctx, checkoutId, ctx, async (tx, placed) => {
        if (placed.checkout.orderId) return { orderId: placed.checkout.orderId };
        const amount = await this.amountDue(tx, placed);
        const payment: PaymentRequest = { kind: 'provider', payment: { provider: 'offline', transactionId: '', amount, status: 'PENDING_MERCHANT', delayedCapture: false, methodName: method } };
        return { orderId: await this.place(tx, placed, ctx.caller, payment) };
      });
    }
    return this.locked(ctx, checkoutId, ctx, async (tx, placed) => ({ orderId: placed.checkout.orderId ?? await this.place(tx, placed, ctx.caller, { kind: 'offline' }) }));
  }

  /**
   * Pays a checkout through the site's provider, never twice: the attempt, and with it the
   * idempotency key, is committed before the provider is called; the call and the order are made
   * under the checkout's lock, so concurrent completes wait, then answer the one order.
   */
  private async charge(ctx: RequestContext, checkoutId: string, request: { token: string; delayCapture: boolean; returnUrl: string }, requester: RequestContext | null = ctx): Promise<{ orderId: string }> {
    const settings = await this.payments.settings(ctx);
    if (settings.provider === 'none') {
      throw new ApiError(400, 'PAYMENT_PROVIDER_IS_NOT_AVAILABLE_ON_SITE', 'This store takes only offline payments', { offlineMethods: settings.offlineMethods });
    }
    const manual = request.delayCapture || settings.capturePolicy === 'ON_FULFILLMENT';
    const begun = await this.locked(ctx, checkoutId, requester, async (tx, placed): Promise<{ orderId: string } | { attemptId: string }> => {
      if (!requester && !placed.checkout.orderId) throw checkoutNotFound(checkoutId);
      const due = await this.amountDue(tx, placed);
      if (due === 0n) return { orderId: placed.checkout.orderId ?? await this.place(tx, placed, ctx.caller, { kind: 'offline' }) };
      const attempt = await this.payments.attemptFor(tx, { checkoutId, provider: settings.provider, token: request.token, amount: due, currency: placed.checkout.currency, delayCapture: manual });
      return { attemptId: attempt.id };
    });
    if ('orderId' in begun) return begun;
    return this.settleAttempt(ctx, begun.attemptId, requester, { mode: 'authorize', returnUrl: request.returnUrl });
  }

  /**
   * Pays what is left on the order a checkout made, through the same attempts and provider as
   * checkout, for a payer who need not be the checkout's buyer: the caller vouches for them (a
   * payment link's signature, services/orders/payment-requests.ts).
   */
  async payOrderBalance(ctx: RequestContext, checkoutId: string, request: { token: string; returnUrl: string }): Promise<{ orderId: string }> {
    return this.charge(ctx, checkoutId, { ...request, delayCapture: false }, null);
  }

  private async amountDue(tx: SiteContext, placed: Placing): Promise<bigint> {
    if (placed.checkout.orderId) return (await this.orders.balanceOf(tx, placed.checkout.orderId)).due;
    const total = placed.quote?.priced.totals.total ?? 0n;
    // Gift cards pay first: what they hold of the total is taken now, under their row locks.
    const held = await this.giftCards.hold(tx, placed.checkout.id, placed.checkout.currency, total);
    return total - held.reduce((sum, h) => sum + h.amount, 0n);
  }

  /**
   * Asks the provider about an attempt and acts on its answer under the checkout's lock: an order
   * for money taken or held, an answer in words for a decline or a 3-D Secure challenge. The
   * storefront's call authorizes; webhooks and the sweep only look the payment up (by its intent,
   * or by the idempotency key when our commit was lost).
   */
  async settleAttempt(ctx: SiteContext, attemptId: string, requester: RequestContext | null, how: { mode: 'authorize' | 'lookup'; returnUrl: string; intent?: ProviderIntent }): Promise<{ orderId: string }> {
    const known = await this.payments.getAttempt(ctx, attemptId);
    if (!known) throw ApiError.notFound('PAYMENT_NOT_FOUND', `No payment attempt ${attemptId}`, { attemptId });
    const outcome = await this.locked(ctx, known.checkoutId, requester, async (tx, placed): Promise<{ orderId: string } | { error: ApiError }> => {
      const attempt = await this.payments.lockAttempt(tx, attemptId);
      if (!attempt) throw ApiError.notFound('PAYMENT_NOT_FOUND', `No payment attempt ${attemptId}`, { attemptId });
      if (attempt.orderId) return { orderId: attempt.orderId };
      const fail = async (status: 'FAILED' | 'DECLINED' | 'REQUIRES_ACTION', failure: string | null, error: ApiError, intentId?: string) => {
        await this.payments.saveAttempt(tx, { ...attempt, status, failure, ...(intentId && { providerIntentId: intentId }) });
        // No payment will come of this attempt: the gift cards' holds go back on the cards (the next attempt holds them again).
        if (status !== 'REQUIRES_ACTION' && !placed.checkout.orderId) await this.giftCards.release(tx, placed.checkout.id, 'The payment failed');
        return { error };
      };
      const due = await this.amountDue(tx, placed);
      if (placed.checkout.orderId && due === 0n) return { orderId: placed.checkout.orderId };
      if (!attempt.providerIntentId && how.mode === 'authorize' && due !== attempt.amount) {
        return fail('FAILED', 'The checkout changed', new ApiError(409, 'CHECKOUT_CHANGED', 'The checkout changed while it was being paid; pay again'));
      }
      const provider = await this.payments.provider(tx, attempt.provider);
      const request: AuthorizeRequest = {
        idempotencyKey: attempt.idempotencyKey,
        amount: attempt.amount,
        currency: attempt.currency,
        token: attempt.token,
        capture: attempt.delayCapture ? 'MANUAL' : 'AUTOMATIC',
        // The shopper comes back to this site's own checkout page (its first verified domain).
        returnUrl: how.returnUrl || this.checkoutUrl(await this.sites.pageBase(tx, this.publicUrl), attempt.checkoutId),
        metadata: { bodega_site: tx.siteId, bodega_checkout: attempt.checkoutId, bodega_attempt: attempt.id },
      };
      let intent: ProviderIntent | null;
      try {
        intent = how.intent ?? (attempt.providerIntentId ? await provider.lookup({ intentId: attempt.providerIntentId })
          : how.mode === 'authorize' ? await provider.authorize(request) : await provider.lookup({ request }));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        if (error.failure === 'INVALID') return fail('FAILED', error.message, new ApiError(400, 'INVALID_PAYMENT_TOKEN', error.message, { transactionStatus: 'DECLINED', failureDetails: error.message }));
        // No answer: the attempt stays open, so a retry (or the sweep) asks again under the same key.
        return { error: providerFailure(error, 'take the payment') };
      }
      if (!intent) return fail('FAILED', 'The provider never received this payment', new ApiError(409, 'PAYMENT_NOT_FOUND', 'The provider has no record of this payment; pay again'));
      if (intent.status === 'REQUIRES_ACTION') {
        const data = { transactionStatus: 'PENDING', paymentResponseToken: intent.clientSecret ?? intent.id, ...(intent.actionUrl && { actionUrl: intent.actionUrl }), provider: attempt.provider };
        return fail('REQUIRES_ACTION', null, new ApiError(402, 'PAYMENT_ACTION_REQUIRED', 'The card issuer asks the shopper to confirm this payment (3-D Secure)', data), intent.id);
      }
      if (intent.status === 'DECLINED' || intent.status === 'CANCELED' || intent.status === 'VOIDED') {
        const words = intent.failure ?? 'The payment was declined';
        return fail('DECLINED', words, new ApiError(402, 'PAYMENT_DECLINED', words, { transactionStatus: 'DECLINED', failureDetails: words, paymentResponseToken: intent.id }), intent.id);
      }
      const payment: PaymentRequest = {
        kind: 'provider',
        payment: { provider: attempt.provider, transactionId: intent.id, amount: attempt.amount, status: intent.status, delayedCapture: attempt.delayCapture, ...(intent.authorizationExpiresAt && { authorizationExpiresAt: intent.authorizationExpiresAt }) },
      };
      const orderId = placed.checkout.orderId
        ? (await this.orders.addPayment(tx, placed.checkout.orderId, payment.payment, commerceSettingsOf(await this.sites.activeSite(tx)), tx.now())).id
        : await this.place(tx, placed, requester?.caller ?? null, payment);
      await this.payments.saveAttempt(tx, { ...attempt, status: intent.status, providerIntentId: intent.id, orderId });
      return { orderId };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /**
   * Settles attempts nobody finished: a server that died between the provider's answer and its
   * commit, a shopper who never came back from 3-D Secure, a payment the provider had not
   * decided. Each is looked up at the provider and acted on; answers in words are kept on the attempt. `siteIds` limits it to those sites (tests sharing one database sweep only their own).
   */
  async sweep(olderThanMs: number, report: (error: unknown) => void = () => {}, siteIds: readonly string[] | null = null): Promise<number> {
    const attempts = await this.payments.openAttempts(olderThanMs, siteIds);
    for (const attempt of attempts) {
      const ctx = this.sites.contextFor(attempt.siteId);
      try {
        if (attempt.orderId) await this.recheckPending(ctx, attempt);
        else await this.settleAttempt(ctx, attempt.id, null, { mode: 'lookup', returnUrl: '' });
      } catch (error) {
        if (!(error instanceof ApiError)) report(error);
      }
    }
    // Refunds the provider never answered are sent again too (orders/order-payments.ts).
    const refunds = await this.orders.payments.retryRefunds((siteId) => this.sites.contextFor(siteId), olderThanMs, report, siteIds);
    return attempts.length + refunds;
  }

  /** A payment the provider had not decided when the order was placed: asked again. */
  private async recheckPending(ctx: SiteContext, attempt: Attempt): Promise<void> {
    if (!attempt.orderId || !attempt.providerIntentId) return;
    const provider = await this.payments.provider(ctx, attempt.provider);
    const intent = await provider.lookup({ intentId: attempt.providerIntentId });
    if (!intent || intent.status === 'PENDING' || intent.status === 'REQUIRES_ACTION') return;
    await this.orders.payments.apply(ctx, attempt.orderId, { kind: 'intent', eventId: `sweep-${attempt.id}`, intent, metadata: {} });
    await this.payments.markAttempt(ctx, attempt.id, intent.status === 'APPROVED' || intent.status === 'AUTHORIZED' ? intent.status : 'DECLINED');
  }

  /** A provider's webhook, its signature checked by the provider: the order (or the checkout it pays) catches up. */
  async providerWebhook(siteId: string, providerName: string, rawBody: string, signature: string | undefined): Promise<void> {
    const ctx = this.sites.contextFor(siteId);
    await this.sites.activeSite(ctx);
    const provider = await this.payments.provider(ctx, providerName);
    let event: ProviderEvent;
    try {
      event = provider.parseWebhook(rawBody, signature);
    } catch (error) {
      if (error instanceof ProviderError) throw new ApiError(400, 'INVALID_SIGNATURE', error.message);
      throw error;
    }
    if (event.kind === 'ignored') return;
    const intentId = event.kind === 'intent' ? event.intent.id : event.intentId;
    const byMetadata = event.kind === 'intent' && event.metadata.bodega_attempt ? await this.payments.getAttempt(ctx, event.metadata.bodega_attempt) : undefined;
    const attempt = byMetadata ?? await this.payments.attemptByIntent(ctx, providerName, intentId);
    if (!attempt) return;
    let orderId = attempt.orderId;
    if (!orderId && event.kind === 'intent') {
      if (event.intent.status === 'APPROVED' || event.intent.status === 'AUTHORIZED' || event.intent.status === 'PENDING') {
        // Before our own commit (it waits for the checkout's lock) or after a crash: the order is made once.
        orderId = (await this.settleAttempt(ctx, attempt.id, null, { mode: 'lookup', returnUrl: '', intent: event.intent })).orderId;
      } else if (event.intent.status === 'DECLINED' || event.intent.status === 'CANCELED') {
        await this.payments.markAttempt(ctx, attempt.id, 'DECLINED', event.intent.failure);
      }
    }
    if (!orderId) return;
    await this.orders.payments.apply(ctx, orderId, event);
    if (event.kind === 'intent' && event.intent.status !== 'PENDING' && event.intent.status !== 'REQUIRES_ACTION') {
      await this.payments.markAttempt(ctx, attempt.id, event.intent.status === 'APPROVED' || event.intent.status === 'AUTHORIZED' ? event.intent.status : 'DECLINED');
    }
  }

  /**
   * Runs fn under the checkout's row lock with the checkout priced now (an order already made
   * is not priced again), and tells the catalog's caches about the stock that moved.
   */
  private async locked<T>(ctx: SiteContext, checkoutId: string, requester: RequestContext | null, fn: (tx: SiteContext, placed: Placing) => Promise<T>): Promise<T> {
    const sold: string[] = [];
    try {
      return await withTransaction(ctx, async (tx) => {
        const checkout = await store.findCheckout(tx, checkoutId, true);
        if (!checkout || (requester && !this.usable(requester, checkout))) throw checkoutNotFound(checkoutId);
        sold.push(...checkout.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : [])));
        if (checkout.orderId) return fn(tx, { checkout });
        const { lines, priced, settings, coupon } = await this.price(tx, checkout);
        this.checkPlaceable(checkout, priced);
        return fn(tx, { checkout, quote: { lines, priced, settings, ...(coupon && { coupon }) } });
      });
    } finally {
      // Carts read products from a short cache: once stock moved, drop what they may have kept.
      if (sold.length) this.catalog.stockSettled(ctx.siteId, sold);
    }
  }

  /** Turns the priced checkout into an order paid as `payment` says, and completes the checkout. */
  private async place(tx: SiteContext, placed: Placing, caller: RequestContext['caller'] | null, payment: PaymentRequest): Promise<string> {
    const { checkout, quote } = placed;
    if (!quote) throw new Error('A checkout that became an order is not placed again');
    const now = tx.now();
    const giftCards = await this.giftCards.hold(tx, checkout.id, checkout.currency, quote.priced.totals.total);
    const order = await this.orders.placeOrder(tx, {
      checkoutId: checkout.id,
      buyer: checkout.buyer,
      createdBy: caller?.kind === 'APP' ? { kind: 'app', id: caller.subjectId } : checkout.buyer,
      email: checkout.email,
      currency: checkout.currency,
      channelType: checkout.channelType,
      lines: quote.lines,
      priced: quote.priced,
      settings: quote.settings,
      ...(quote.coupon && { coupon: quote.coupon }),
      billingInfo: checkout.billingInfo,
      shippingDestination: checkout.shippingDestination,
      deliveryTimeSlot: checkout.deliveryTimeSlot,
      buyerNote: checkout.buyerNote,
      payment,
      giftCards,
    }, now);
    if (giftCards.length) await this.giftCards.completeCheckout(tx, checkout.id, order.id);
    await store.markCompleted(tx, checkout.id, order.id, now);
    if (checkout.cartId) await this.cart.completeCart(tx, checkout.cartId, checkout.id);
    await recordEvent(tx, { siteId: tx.siteId, type: 'checkout.completed', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, orderId: order.id, buyer: checkout.buyer } });
    return order.id;
  }

  /** What stops a checkout from becoming an order, as application errors a storefront can show. */
  private checkPlaceable(checkout: Checkout, priced: PricedCart): void {
    if (checkout.lines.length === 0) throw new ApiError(400, 'CHECKOUT_EMPTY', 'The checkout has no line items');
    const blocking = priced.violations.filter((v) => v.severity === 'ERROR');
    if (blocking.length) {
      const first = blocking[0];
      if (first.code === 'COUPON_INVALID') throwIfCouponRejected(priced);
      const data = { violations: blocking.map((v) => ({ code: v.code, description: v.description, ...('lineItem' in v.target ? { lineItemId: v.target.lineItem.id } : {}) })) };
      // Short stock reads the same whether pricing sees it or the locked stock check does.
      const stock = first.code === 'LINE_ITEM_OUT_OF_STOCK' || first.code === 'LINE_ITEM_PARTIALLY_AVAILABLE';
      throw new ApiError(stock ? 409 : 400, stock ? 'INSUFFICIENT_INVENTORY' : first.code, first.description, data);
    }
    if (priced.shipping.status !== 'NOT_REQUIRED' && priced.shipping.status !== 'SELECTED') {
      throw new ApiError(400, 'SHIPPING_DETAILS_REQUIRED', 'A physical order needs a shipping address or a pickup option', { shippingStatus: priced.shipping.status });
    }
    if (checkout.buyer.kind === 'visitor' && !checkout.email) {
      throw new ApiError(400, 'EMAIL_REQUIRED', 'A visitor\'s checkout needs an e-mail address (buyerInfo.email)');
    }
  }

  checkoutUrl(publicUrl: string, checkoutId: string): string {
    return `${publicUrl.replace(/\/$/, '')}/checkout?checkoutId=${encodeURIComponent(checkoutId)}`;
  }
}
