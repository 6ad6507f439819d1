import type { RequestContext } from '../../platform/caller.js';
import { inTransaction, withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import type { Site, SitesService } from '../sites/service.js';
import type { CatalogService } from '../catalog/service.js';
import { isStoresAppId, lineKey, resolveVariant, STORES_APP_ID, stockOf, type Product } from '../catalog/service.js';
import { commerceSettingsOf, type CommerceSettings } from '../commerce-settings/service.js';
import type { Coupon, CouponsService } from '../coupons/service.js';
import type { Buyer } from '../commerce/buyer.js';
import { MAX_LINE_QUANTITY, mergeLines, quantityTooHigh, resolveLines, variantResolver, type CatalogLineInput, type CustomLine, type ResolvedLine, type VariantResolver } from '../commerce/lines.js';
import type { MerchantDiscount, PricedCart } from '../commerce/pricing/model.js';
import { couponDefinition, LINES_ONLY, pricingInput, pricingRequest, throwIfCouponRejected, type PricingRequest } from '../commerce/pricing/request.js';
import { priceCart } from '../commerce/pricing/totals.js';
import { checkCustomAmount, customAmountOf, readCustomAmount, type GiftCardRules } from '../commerce/custom-amount.js';
import * as store from './store.js';
import type { CartView } from './model.js';
import type { Cart, NewLine } from './store.js';

export type { Cart } from './store.js';
export type { CartView } from './model.js';


export interface AddToCartInput {
  lineItems: CatalogLineInput[];
  customLineItems: { quantity: number; line: CustomLine }[];
  businessLocationId?: string | null;
}

export interface UpdateCartInput {
  couponCode?: string | null;
  merchantDiscounts?: MerchantDiscount[];
  buyerNote?: string | null;
  contactInfo?: Record<string, unknown> | null;
  selectedShippingOption?: { code: string; carrierId?: string } | null;
  businessLocationId?: string | null;
  add?: AddToCartInput;
}

export interface EstimateInput {
  shippingAddress?: Record<string, unknown> | null;
  billingAddress?: Record<string, unknown> | null;
  selectedShippingOption?: { code?: string } | null;
  calculateTax?: boolean;
  calculateShipping?: boolean;
}


/** Current cart at www/edge.wixapis.com and at a custom host. */
export const CURRENT_CART_PREFIXES = ['/ecom/v1/carts/current', '/_api/ecom-cart/v1/carts/current'];

function cartNotFound(): ApiError {
  return ApiError.notFound('OWNED_CART_NOT_FOUND', 'Cart not found');
}

/** Carts whose last answer is kept (a few KB each), and for how long one unread is kept. */
const ANSWERS_KEPT = 1000;
const ANSWER_KEPT_MS = 60_000;

/** The part of the gift-card settings a cart needs. */
export interface GiftCardSettingsView {
  productIds: readonly string[];
  minCustomAmount: bigint | null;
  maxCustomAmount: bigint | null;
}

interface KeptAnswer {
  version: string;
  site: Site;
  /** The product objects it was priced from, in line order (the catalog's cache hands out the same objects until they change). */
  products: (Product | undefined)[];
  answer: unknown;
}

export class CartService {
  /**
   * The last rendered answer of each cart read without a coupon: it is reused while the cart row's
   * version, the site and every product object are the very ones it came from, so it is exactly
   * what pricing again would give (without a coupon, pricing does not depend on the time).
   */
  private readonly answers: TtlCache<string, KeptAnswer>;
  /**
   * The gift-card settings (wired in app.ts): lines of their products are typed GIFT_CARD, and may
   * carry a custom amount within their limits.
   */
  giftCardSettings: ((ctx: SiteContext) => Promise<GiftCardSettingsView>) | undefined;

  constructor(
    private readonly sites: SitesService,
    private readonly catalog: CatalogService,
    private readonly coupons: CouponsService,
    now: () => Date,
  ) {
    this.answers = new TtlCache({ ttlMs: ANSWER_KEPT_MS, maxSize: ANSWERS_KEPT, now });
  }

  /** What custom gift-card amounts are checked against, in the given currency. */
  async giftCardRules(ctx: SiteContext, currency: string): Promise<GiftCardRules> {
    const settings = this.giftCardSettings ? await this.giftCardSettings(ctx) : { productIds: [], minCustomAmount: null, maxCustomAmount: null };
    return { currency, productIds: new Set(settings.productIds), minCustomAmount: settings.minCustomAmount, maxCustomAmount: settings.maxCustomAmount };
  }

  /**
   * A digital line of a gift-card product is a GIFT_CARD line (spec: item types), priced at its
   * custom amount when it carries one; read only when a cart has digital or custom-amount lines. A
   * custom amount the settings no longer allow leaves the line unavailable (never bought at a
   * price the shop did not agree to).
   */
  private async typeGiftCards(ctx: SiteContext, lines: ResolvedLine[], currency: string): Promise<ResolvedLine[]> {
    const custom = (l: ResolvedLine) => customAmountOf(l.ref.catalogReference?.options) !== undefined;
    if (!lines.some((l) => l.itemType === 'DIGITAL' || custom(l))) return lines;
    const rules = await this.giftCardRules(ctx, currency);
    return lines.map((l) => {
      const giftCard = l.itemType === 'DIGITAL' && l.productId !== undefined && rules.productIds.has(l.productId);
      const typed: ResolvedLine = giftCard ? { ...l, itemType: 'GIFT_CARD' } : l;
      if (!custom(l) || !l.stock.found) return typed;
      const read = giftCard ? readCustomAmount(customAmountOf(l.ref.catalogReference?.options), l.productId ?? '', rules) : undefined;
      if (!read?.ok) return { ...typed, stock: { found: false, inStock: false } };
      return { ...typed, price: read.amount, fullPrice: read.amount };
    });
  }

  async site(ctx: SiteContext): Promise<Site> {
    return this.sites.activeSite(ctx);
  }

  // Reading and pricing -------------------------------------------------------------------------

  /** Resolves lines against the catalog and prices them; one catalog read and, with a coupon, one coupon read. */
  async price(
    ctx: SiteContext,
    request: PricingRequest,
    options: { products?: ReadonlyMap<string, Product>; resolve?: VariantResolver } = {},
  ): Promise<{ lines: ResolvedLine[]; priced: PricedCart; settings: CommerceSettings; coupon?: Coupon }> {
    const site = await this.site(ctx);
    const settings = commerceSettingsOf(site);
    const catalogIds = request.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : []));
    const found = options.products ?? (await this.catalog.productsByIds(ctx, catalogIds));
    const lines = await this.typeGiftCards(ctx, resolveLines(request.lines, found, options.resolve), request.currency);
    const coupon = request.couponCode ? await this.coupons.findByCode(ctx, request.couponCode) : undefined;
    const priced = priceCart(pricingInput(lines, {
      currency: request.currency,
      now: request.now,
      settings,
      couponCode: request.couponCode,
      coupon: couponDefinition(coupon),
      merchantDiscounts: request.merchantDiscounts,
      shippingAddress: request.shippingAddress ?? null,
      billingAddress: request.billingAddress ?? null,
      selectedShippingOptionCode: request.selectedShippingOptionCode ?? null,
      ...(request.calculateTax !== undefined && { calculateTax: request.calculateTax }),
      ...(request.calculateShipping !== undefined && { calculateShipping: request.calculateShipping }),
      ...(request.tip && { tip: request.tip }),
    }));
    return { lines, priced, settings, ...(coupon && { coupon }) };
  }

  private async view(ctx: RequestContext, cart: Cart, products?: ReadonlyMap<string, Product>, resolve?: VariantResolver): Promise<CartView> {
    const { lines, priced, settings } = await this.price(ctx, pricingRequest(ctx, cart, LINES_ONLY), { ...(products && { products }), ...(resolve && { resolve }) });
    return { cart, lines, priced, settings };
  }

  async findCart(ctx: SiteContext, buyer: Buyer): Promise<Cart | undefined> {
    return store.findCart(ctx, buyer);
  }

  /** A cart by id, priced, for the back office (event entities); undefined when it is gone. */
  async cartById(ctx: RequestContext, cartId: string): Promise<CartView | undefined> {
    const cart = await store.findCartById(ctx, cartId);
    return cart && this.view(ctx, cart);
  }

  async getCurrentCart(ctx: RequestContext, buyer: Buyer): Promise<CartView> {
    const cart = await store.findCart(ctx, buyer);
    if (!cart) throw cartNotFound();
    return this.view(ctx, cart);
  }

  /** The buyer's cart as `render` answers it, reusing the last answer while nothing it depends on changed. */
  async currentCartAnswer<T>(ctx: RequestContext, buyer: Buyer, render: (view: CartView) => T): Promise<T> {
    const cart = await store.findCart(ctx, buyer);
    if (!cart) throw cartNotFound();
    if (cart.couponCode || cart.version === undefined || inTransaction(ctx)) return render(await this.view(ctx, cart));
    const site = await this.site(ctx);
    const ids = cart.lines.flatMap((l) => (l.catalogReference ? [l.catalogReference.catalogItemId] : []));
    const products = await this.catalog.productsByIds(ctx, ids, cart.productVersions);
    const key = `${ctx.siteId}/${cart.id}`;
    const kept = this.answers.get(key);
    if (kept && kept.version === cart.version && kept.site === site && kept.products.length === ids.length && ids.every((id, i) => kept.products[i] === products.get(id))) {
      return kept.answer as T;
    }
    const answer = render(await this.view(ctx, cart, products));
    this.answers.set(key, { version: cart.version, site, products: ids.map((id) => products.get(id)), answer });
    return answer;
  }

  async estimateTotals(ctx: RequestContext, buyer: Buyer, input: EstimateInput): Promise<CartView> {
    const cart = await store.findCart(ctx, buyer);
    if (!cart) throw cartNotFound();
    const { lines, priced, settings } = await this.price(ctx, pricingRequest(ctx, cart, {
      shippingAddress: input.shippingAddress ?? (cart.contactInfo?.address as Record<string, unknown> | undefined),
      billingAddress: input.billingAddress,
      selectedShippingOptionCode: input.selectedShippingOption?.code ?? cart.selectedShippingOption?.code ?? null,
      ...(input.calculateTax !== undefined && { calculateTax: input.calculateTax }),
      ...(input.calculateShipping !== undefined && { calculateShipping: input.calculateShipping }),
    }));
    return { cart, lines, priced, settings };
  }

  // Adding lines ------------------------------------------------------------------------------

  /**
   * Checks requested catalog lines against the products (refusing unknown, hidden or sold-out
   * items with an application error) and gives each its line key.
   */
  prepareLines(input: AddToCartInput, products: ReadonlyMap<string, Product>, resolve: VariantResolver = resolveVariant, giftCards?: GiftCardRules): NewLine[] {
    const asked = input.lineItems.map((item, i): NewLine => {
      const ref = item.catalogReference;
      if (!isStoresAppId(ref.appId)) {
        throw new ApiError(400, 'CATALOG_APP_NOT_SUPPORTED', `Line ${i}: catalog app ${ref.appId} is not known here; use ${STORES_APP_ID}`, { index: i, appId: ref.appId });
      }
      const product = products.get(ref.catalogItemId);
      if (!product || !product.visible) {
        throw new ApiError(400, 'CATALOG_ITEM_NOT_FOUND', `Product ${ref.catalogItemId} was not found`, { index: i, catalogItemId: ref.catalogItemId });
      }
      const resolution = resolve(product, ref.options);
      if (!resolution.ok) throw new ApiError(400, resolution.code, resolution.description, { index: i, catalogItemId: ref.catalogItemId });
      if (!resolution.variant.visible) {
        throw new ApiError(400, 'VARIANT_NOT_FOUND', `Product ${product.id} has no variant ${resolution.variant.id}`, { index: i, catalogItemId: ref.catalogItemId });
      }
      if (!stockOf(product, resolution.variant).inStock) {
        throw new ApiError(400, 'ITEM_OUT_OF_STOCK', `${product.name} is out of stock`, { index: i, catalogItemId: ref.catalogItemId, variantId: resolution.variant.id });
      }
      const key = lineKey(product.id, resolution.variant.id, resolution.customTextFields);
      const customAmount = customAmountOf(ref.options);
      if (customAmount === undefined) return { id: newId(), key, catalogReference: ref, quantity: item.quantity, custom: undefined };
      // Two amounts are two lines; the same amount however written ("25", "25.00") is one.
      const amount = checkCustomAmount(customAmount, product.productType === 'digital' ? product.id : '', giftCards, i);
      return { id: newId(), key: `${key}|amount:${amount}`, catalogReference: ref, quantity: item.quantity, custom: undefined };
    });
    const customs = input.customLineItems.map((custom): NewLine => ({ id: newId(), key: null, catalogReference: null, quantity: custom.quantity, custom: custom.line }));
    // The same item asked twice is one line, as in the stored cart (and a checkout).
    const lines = mergeLines([], [...asked, ...customs]);
    for (const line of lines) {
      if (line.quantity > MAX_LINE_QUANTITY) throw quantityTooHigh();
    }
    return lines;
  }

  /** The gift-card rules when some line being added carries a custom amount (else no read). */
  async rulesFor(ctx: SiteContext, input: AddToCartInput, currency: string): Promise<GiftCardRules | undefined> {
    return input.lineItems.some((l) => customAmountOf(l.catalogReference.options) !== undefined) ? this.giftCardRules(ctx, currency) : undefined;
  }

  async addToCurrentCart(ctx: RequestContext, buyer: Buyer, input: AddToCartInput): Promise<CartView> {
    // Each variant is resolved once: when the new lines are checked, reused to price the cart.
    const resolve = variantResolver();
    const { result, products } = await this.addLines(ctx, buyer, input, resolve);
    // Each product is read once: the requested ones before the add, the cart's others after it.
    const missing = result.lines.flatMap((l) => (l.catalogReference && !products.has(l.catalogReference.catalogItemId) ? [l.catalogReference.catalogItemId] : []));
    const all = missing.length ? new Map([...products, ...(await this.catalog.productsByIds(ctx, missing))]) : products;
    return this.view(ctx, result.cart, all, resolve);
  }

  /** Checks and adds lines to the buyer's cart (created when missing), through the context's handle. */
  private async addLines(ctx: RequestContext, buyer: Buyer, input: AddToCartInput, resolve?: VariantResolver): Promise<{ result: store.AddResult; products: Map<string, Product> }> {
    if (input.customLineItems.length && ctx.caller.kind !== 'APP') throw ApiError.forbidden('Custom line items are added with an API key');
    const site = await this.site(ctx);
    const products = await this.catalog.productsByIds(ctx, input.lineItems.map((l) => l.catalogReference.catalogItemId));
    const lines = this.prepareLines(input, products, resolve, await this.rulesFor(ctx, input, site.settings.currency));
    try {
      const result = await store.addLines(ctx, {
        id: newId(),
        buyer,
        currency: site.settings.currency,
        businessLocationId: input.businessLocationId ?? null,
      }, lines, { buyer }, ctx.now());
      return { result, products };
    } catch (error) {
      if (error instanceof store.LineQuantityExceeded) throw quantityTooHigh();
      throw error;
    }
  }

  // Changing the cart -------------------------------------------------------------------------

  /**
   * Locks the buyer's cart, changes it, and answers it as committed; `before` runs first in the
   * same transaction, so a change that fails undoes it too.
   */
  private async change(
    ctx: RequestContext,
    buyer: Buyer,
    fn: (tx: RequestContext, cart: Cart) => Promise<void>,
    before?: (tx: RequestContext) => Promise<void>,
  ): Promise<CartView> {
    const cartId = await withTransaction(ctx, async (tx) => {
      if (before) await before(tx);
      const cart = await store.lockCart(tx, buyer);
      if (!cart) throw cartNotFound();
      await fn(tx, cart);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'cart.updated', entityType: 'cart', entityId: cart.id, payload: { cartId: cart.id, buyer } });
      return cart.id;
    });
    const cart = await store.findCartById(ctx, cartId);
    if (!cart) throw cartNotFound();
    return this.view(ctx, cart);
  }

  /** New lines and the other changes commit together: a refused coupon leaves the cart as it was. */
  async updateCurrentCart(ctx: RequestContext, buyer: Buyer, input: UpdateCartInput): Promise<CartView> {
    if (input.merchantDiscounts !== undefined && ctx.caller.kind !== 'APP') {
      throw ApiError.forbidden('Merchant discounts are set with an API key');
    }
    const add = input.add;
    const adding = add && (add.lineItems.length || add.customLineItems.length) ? add : undefined;
    const now = ctx.now();
    return this.change(ctx, buyer, async (tx, cart) => {
      const fields: Parameters<typeof store.updateCartFields>[2] = {};
      if (input.couponCode !== undefined) {
        if (input.couponCode) await this.checkCoupon(tx, cart, input.couponCode);
        fields.couponCode = input.couponCode || null;
      }
      if (input.merchantDiscounts !== undefined) {
        const ids = new Set(cart.lines.map((l) => l.id));
        input.merchantDiscounts.forEach((d, i) => {
          const unknown = (d.lineItemIds ?? []).filter((id) => !ids.has(id));
          if (unknown.length) throw ApiError.validation([{ field: `merchantDiscounts[${i}].lineItemIds`, rule: 'VALIDATION', description: `not in the cart: ${unknown.join(', ')}` }]);
        });
        fields.merchantDiscounts = input.merchantDiscounts;
      }
      if (input.buyerNote !== undefined) fields.buyerNote = input.buyerNote;
      if (input.contactInfo !== undefined) fields.contactInfo = input.contactInfo;
      if (input.selectedShippingOption !== undefined) fields.selectedShippingOption = input.selectedShippingOption;
      if (input.businessLocationId !== undefined) fields.businessLocationId = input.businessLocationId;
      await store.updateCartFields(tx, cart.id, fields, now);
    }, adding && (async (tx) => {
      await this.addLines(tx, buyer, adding);
    }));
  }

  /** A code the cart cannot use is refused now, with the reason pricing gives. */
  private async checkCoupon(ctx: SiteContext, cart: Cart, code: string): Promise<void> {
    const { priced } = await this.price(ctx, pricingRequest(ctx, cart, { ...LINES_ONLY, couponCode: code }));
    throwIfCouponRejected(priced);
  }

  async removeCoupon(ctx: RequestContext, buyer: Buyer): Promise<CartView> {
    return this.change(ctx, buyer, (tx, cart) => store.updateCartFields(tx, cart.id, { couponCode: null }, ctx.now()));
  }

  async removeLineItems(ctx: RequestContext, buyer: Buyer, lineItemIds: string[]): Promise<CartView> {
    return this.change(ctx, buyer, async (tx, cart) => {
      const unknown = lineItemIds.filter((id) => !cart.lines.some((l) => l.id === id));
      if (unknown.length) throw new ApiError(400, 'LINE_ITEM_NOT_FOUND', `Not in the cart: ${unknown.join(', ')}`, { lineItemIds: unknown });
      await store.removeLines(tx, cart.id, lineItemIds);
      await store.updateCartFields(tx, cart.id, {}, ctx.now());
    });
  }

  async updateLineItemsQuantity(ctx: RequestContext, buyer: Buyer, changes: { id: string; quantity: number }[]): Promise<CartView> {
    return this.change(ctx, buyer, async (tx, cart) => {
      const unknown = changes.filter((c) => !cart.lines.some((l) => l.id === c.id)).map((c) => c.id);
      if (unknown.length) throw new ApiError(400, 'LINE_ITEM_NOT_FOUND', `Not in the cart: ${unknown.join(', ')}`, { lineItemIds: unknown });
      const zero = changes.filter((c) => c.quantity === 0).map((c) => c.id);
      const set = changes.filter((c) => c.quantity > 0);
      if (zero.length) await store.removeLines(tx, cart.id, zero);
      if (set.length) await store.setLineQuantities(tx, cart.id, set);
      await store.updateCartFields(tx, cart.id, {}, ctx.now());
    });
  }

  async deleteCurrentCart(ctx: RequestContext, buyer: Buyer): Promise<void> {
    await withTransaction(ctx, async (tx) => {
      const cart = await store.lockCart(tx, buyer);
      if (!cart) throw cartNotFound();
      await store.deleteCart(tx, cart.id);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'cart.deleted', entityType: 'cart', entityId: cart.id, payload: { cartId: cart.id, buyer } });
    });
  }

  // For checkout ------------------------------------------------------------------------------

  async markCheckout(ctx: SiteContext, cartId: string, checkoutId: string): Promise<void> {
    await store.updateCartFields(ctx, cartId, { checkoutId }, ctx.now());
  }

  /** After an order: the cart it came from is done (only if it still points at that checkout). */
  async completeCart(ctx: SiteContext, cartId: string, checkoutId: string): Promise<void> {
    const cart = await store.findCartById(ctx, cartId);
    if (!cart || cart.checkoutId !== checkoutId) return;
    await store.deleteCart(ctx, cartId);
    const siteId = ctx.siteId;
    await recordEvent(ctx, { siteId, type: 'cart.deleted', entityType: 'cart', entityId: cartId, payload: { cartId, buyer: cart.buyer, checkoutId } });
  }

  // Sign-in -----------------------------------------------------------------------------------

  /**
   * A visitor signed in: their cart becomes (or joins) the member's, in the caller's transaction.
   * Lines of the same item add up (capped at the maximum quantity); the member's coupon wins.
   */
  async mergeVisitorCart(ctx: SiteContext, visitorId: string, memberId: string): Promise<void> {
    await withTransaction(ctx, (tx) => this.mergeInTransaction(tx, visitorId, memberId));
  }

  private async mergeInTransaction(ctx: SiteContext, visitorId: string, memberId: string): Promise<void> {
    const { siteId } = ctx;
    const at = ctx.now();
    // Lock order: the visitor's cart, then the member's (created if missing, which also locks it),
    // so a member adding items meanwhile waits instead of racing the move.
    const visitor = await store.lockCart(ctx, { kind: 'visitor', id: visitorId });
    if (!visitor) return;
    const memberBuyer: Buyer = { kind: 'member', id: memberId };
    const member = await store.ensureCart(ctx, { id: newId(), buyer: memberBuyer, currency: visitor.currency }, at);
    await store.moveLines(ctx, visitor.id, member.id, MAX_LINE_QUANTITY);
    await store.updateCartFields(ctx, member.id, {
      ...(!member.couponCode && visitor.couponCode ? { couponCode: visitor.couponCode } : {}),
      ...(!member.contactInfo && visitor.contactInfo ? { contactInfo: visitor.contactInfo } : {}),
    }, at);
    await store.deleteCart(ctx, visitor.id);
    await recordEvent(ctx, { siteId, type: 'cart.deleted', entityType: 'cart', entityId: visitor.id, payload: { cartId: visitor.id, mergedIntoCartId: member.id } });
    await recordEvent(ctx, {
      siteId, type: member.inserted ? 'cart.created' : 'cart.updated', entityType: 'cart', entityId: member.id,
      payload: { cartId: member.id, buyer: memberBuyer, mergedFromCartId: visitor.id },
    });
  }
}
