import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { Site, SitesService } from '../sites/service.js';
import type { CatalogService } from '../catalog/service.js';
import { currentBuyer, quantityTooHigh, throwIfCouponRejected, type AddToCartInput, type Buyer, type CartService } from '../cart/service.js';
import { addressRegion, MAX_LINE_QUANTITY, type ResolvedLine } from '../cart/service.js';
import type { MerchantDiscount, PricedCart } from '../cart/service.js';
import { commerceSettingsOf, type CommerceSettings } from '../commerce-settings/service.js';
import type { OrdersService, PaymentRequest } from '../orders/service.js';
import * as store from './store.js';
import type { Checkout, KeyedLine } from './store.js';

export type { Checkout } from './store.js';

export interface CheckoutView {
  checkout: Checkout;
  lines: ResolvedLine[];
  priced: PricedCart;
  settings: CommerceSettings;
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
}

export interface CreateCheckoutInput extends CheckoutPatch {
  channelType: string;
}

const SHOPPERS = new Set(['ANONYMOUS_VISITOR', 'MEMBER']);

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
  ) {}

  /** The buyer who made a checkout uses it; the back office and API keys may use any. */
  private usable(ctx: RequestContext, checkout: Checkout): boolean {
    if (!SHOPPERS.has(ctx.caller.kind)) return true;
    const buyer = currentBuyer(ctx);
    return checkout.buyer.kind === buyer.kind && checkout.buyer.id === buyer.id;
  }

  private async view(ctx: RequestContext, checkout: Checkout): Promise<CheckoutView> {
    const shipping = addressRegion(checkout.shippingDestination?.address as Record<string, unknown> | undefined);
    const billing = addressRegion(checkout.billingInfo?.address as Record<string, unknown> | undefined);
    const { lines, priced, settings } = await this.cart.price(ctx, {
      siteId: ctx.siteId,
      currency: checkout.currency,
      now: ctx.now(),
      lines: checkout.lines,
      couponCode: checkout.couponCode,
      merchantDiscounts: checkout.merchantDiscounts,
      ...(shipping && { shippingAddress: shipping }),
      ...(billing && { billingAddress: billing }),
      selectedShippingOptionCode: checkout.selectedShippingOption?.code ?? null,
    });
    return { checkout, lines, priced, settings };
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
    if (add.customLineItems.length && ctx.caller.kind !== 'APP') throw ApiError.forbidden('Custom line items are added with an API key');
    const products = await this.catalog.productsByIds(ctx, add.lineItems.map((l) => l.catalogReference.catalogItemId));
    return this.cart.prepareLines(add, products).map((l) => ({
      id: l.id,
      key: l.key,
      quantity: l.quantity,
      ...(l.catalogReference && { catalogReference: l.catalogReference }),
      ...(l.custom && { custom: l.custom }),
    }));
  }

  private async checkCoupon(ctx: SiteContext, checkout: Checkout): Promise<void> {
    if (!checkout.couponCode) return;
    const { priced } = await this.cart.price(ctx, {
      siteId: ctx.siteId,
      currency: checkout.currency,
      now: ctx.now(),
      lines: checkout.lines,
      couponCode: checkout.couponCode,
      merchantDiscounts: checkout.merchantDiscounts,
      calculateShipping: false,
      calculateTax: false,
    });
    throwIfCouponRejected(priced);
  }

  private apply(ctx: RequestContext, checkout: Checkout, patch: CheckoutPatch, added: KeyedLine[]): Checkout {
    if (patch.merchantDiscounts !== undefined && ctx.caller.kind !== 'APP') throw ApiError.forbidden('Merchant discounts are set with an API key');
    const next: Checkout = { ...checkout, lines: checkout.lines.map((l) => ({ ...l })), updatedDate: ctx.now() };
    for (const line of added) {
      const same = line.key ? next.lines.find((l) => l.key === line.key) : undefined;
      if (same) same.quantity += line.quantity;
      else next.lines.push(line);
    }
    if (next.lines.some((l) => l.quantity > MAX_LINE_QUANTITY)) throw quantityTooHigh();
    if (patch.billingInfo !== undefined) next.billingInfo = patch.billingInfo;
    if (patch.shippingDestination !== undefined) next.shippingDestination = patch.shippingDestination;
    if (patch.selectedShippingOption !== undefined) next.selectedShippingOption = patch.selectedShippingOption;
    if (patch.deliveryTimeSlot !== undefined) next.deliveryTimeSlot = patch.deliveryTimeSlot;
    if (patch.email !== undefined) next.email = patch.email;
    if (patch.buyerNote !== undefined) next.buyerNote = patch.buyerNote;
    if (patch.couponCode !== undefined) next.couponCode = patch.couponCode || null;
    if (patch.merchantDiscounts !== undefined) next.merchantDiscounts = patch.merchantDiscounts;
    return next;
  }

  async createCheckout(ctx: RequestContext, input: CreateCheckoutInput, named?: Buyer): Promise<CheckoutView> {
    const site = await this.sites.activeSite(ctx);
    const added = await this.prepare(ctx, input.add);
    const now = ctx.now();
    const blank: Checkout = {
      id: newId(),
      cartId: null,
      buyer: currentBuyer(ctx, named),
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
      completed: false,
      orderId: null,
      createdDate: now,
      updatedDate: now,
    };
    const checkout = this.apply(ctx, blank, input, added);
    await withTransaction(ctx, async (tx) => {
      await this.checkCoupon(tx, checkout);
      await store.insertCheckout(tx, checkout);
      await recordEvent(tx.db, { siteId: ctx.siteId, type: 'checkout.created', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, buyer: checkout.buyer } });
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
      completed: false,
      orderId: null,
      createdDate: now,
      updatedDate: now,
    };
    // Lines keep their ids; their keys are recomputed so adding the same item later adds up.
    const products = await this.catalog.productsByIds(ctx, cart.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : [])));
    checkout.lines = cart.lines.map((l) => ({ ...l, key: l.catalogReference ? this.keyOf(l.catalogReference, products) : null }));
    await withTransaction(ctx, async (tx) => {
      await store.insertCheckout(tx, checkout);
      await this.cart.markCheckout(tx, cart.id, checkout.id);
      await recordEvent(tx.db, { siteId: ctx.siteId, type: 'checkout.created', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, cartId: cart.id, buyer } });
    });
    return checkout.id;
  }

  private keyOf(ref: NonNullable<KeyedLine['catalogReference']>, products: Awaited<ReturnType<CatalogService['productsByIds']>>): string | null {
    try {
      const [line] = this.cart.prepareLines({ lineItems: [{ catalogReference: ref, quantity: 1 }], customLineItems: [] }, products);
      return line.key;
    } catch {
      return null;
    }
  }

  /** Locks the checkout, changes it, and answers it as committed. */
  private async change(ctx: RequestContext, checkoutId: string, fn: (checkout: Checkout) => Checkout | Promise<Checkout>): Promise<CheckoutView> {
    const checkout = await withTransaction(ctx, async (tx) => {
      const current = await store.findCheckout(tx, checkoutId, true);
      if (!current || !this.usable(ctx, current)) throw checkoutNotFound(checkoutId);
      if (current.completed) throw new ApiError(400, 'CHECKOUT_ALREADY_COMPLETED', `Checkout ${checkoutId} already became order ${current.orderId}`, { orderId: current.orderId });
      const next = await fn(current);
      if (next.couponCode && next.couponCode !== current.couponCode) await this.checkCoupon(tx, next);
      await store.updateCheckout(tx, next);
      await recordEvent(tx.db, { siteId: ctx.siteId, type: 'checkout.updated', entityType: 'checkout', entityId: checkoutId, payload: { checkoutId } });
      return next;
    });
    return this.view(ctx, checkout);
  }

  async updateCheckout(ctx: RequestContext, checkoutId: string, patch: CheckoutPatch): Promise<CheckoutView> {
    const added = await this.prepare(ctx, patch.add);
    return this.change(ctx, checkoutId, (checkout) => this.apply(ctx, checkout, patch, added));
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
  async createOrder(ctx: RequestContext, checkoutId: string, payment: PaymentRequest): Promise<{ orderId: string }> {
    const site = await this.sites.activeSite(ctx);
    const sold: string[] = [];
    try {
      return await this.placeLocked(ctx, site, checkoutId, payment, sold);
    } finally {
      // Carts read products from a short cache: once stock moved, drop what they may have kept.
      if (sold.length) this.catalog.stockSettled(ctx.siteId, sold);
    }
  }

  private async placeLocked(ctx: RequestContext, site: Site, checkoutId: string, payment: PaymentRequest, sold: string[]): Promise<{ orderId: string }> {
    return withTransaction(ctx, async (tx) => {
      const checkout = await store.findCheckout(tx, checkoutId, true);
      if (!checkout || !this.usable(ctx, checkout)) throw checkoutNotFound(checkoutId);
      sold.push(...checkout.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : [])));
      const now = ctx.now();
      if (checkout.orderId) {
        if (payment.kind === 'charge') await this.orders.chargeExisting(tx, checkout.orderId, payment.token, commerceSettingsOf(site), now);
        return { orderId: checkout.orderId };
      }
      const shipping = addressRegion(checkout.shippingDestination?.address as Record<string, unknown> | undefined);
      const billing = addressRegion(checkout.billingInfo?.address as Record<string, unknown> | undefined);
      const { lines, priced, settings, coupon } = await this.cart.price(tx, {
        siteId: ctx.siteId,
        currency: checkout.currency,
        now,
        lines: checkout.lines,
        couponCode: checkout.couponCode,
        merchantDiscounts: checkout.merchantDiscounts,
        ...(shipping && { shippingAddress: shipping }),
        ...(billing && { billingAddress: billing }),
        selectedShippingOptionCode: checkout.selectedShippingOption?.code ?? null,
      });
      this.checkPlaceable(checkout, priced);
      const order = await this.orders.placeOrder(tx, {
        checkoutId: checkout.id,
        buyer: checkout.buyer,
        createdBy: ctx.caller.kind === 'APP' ? { kind: 'app', id: ctx.caller.subjectId } : checkout.buyer,
        email: checkout.email,
        currency: checkout.currency,
        channelType: checkout.channelType,
        lines,
        priced,
        settings,
        ...(coupon && { coupon }),
        billingInfo: checkout.billingInfo,
        shippingDestination: checkout.shippingDestination,
        deliveryTimeSlot: checkout.deliveryTimeSlot,
        buyerNote: checkout.buyerNote,
        payment,
      }, now);
      await store.markCompleted(tx, checkout.id, order.id, now);
      if (checkout.cartId) await this.cart.completeCart(tx, checkout.cartId, checkout.id);
      await recordEvent(tx.db, { siteId: ctx.siteId, type: 'checkout.completed', entityType: 'checkout', entityId: checkout.id, payload: { checkoutId: checkout.id, orderId: order.id, buyer: checkout.buyer } });
      return { orderId: order.id };
    });
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
