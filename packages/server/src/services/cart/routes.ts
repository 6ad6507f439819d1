import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ALL_CALLERS, BACK_OFFICE } from '../../platform/caller.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { formatDecimal, MoneyError, parseAmount, parseDecimal, toWireMoney } from '../../platform/money.js';
import type { CartService, Coupon } from './service.js';
import { BUYER_HEADER, CURRENT_CART_PREFIXES, currentBuyer, MAX_LINE_QUANTITY, namedBuyer } from './service.js';
import {
  AddressWithContact,
  CustomLineItemInput,
  fromWireCustomLines,
  fromWireLineItems,
  fromWireMerchantDiscounts,
  LineItemInput,
  MerchantDiscountInput,
  SelectedShippingOption,
  Address,
  toWireCart,
  toWireEstimate,
} from './wire.js';

const AddBody = Type.Object({
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLineItemInput, { maxItems: 300 })),
  businessLocationId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});

const UpdateBody = Type.Object({
  cartInfo: Type.Optional(Type.Object({
    buyerNote: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    contactInfo: Type.Optional(AddressWithContact),
    selectedShippingOption: Type.Optional(SelectedShippingOption),
    businessLocationId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  })),
  couponCode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  merchantDiscounts: Type.Optional(Type.Array(MerchantDiscountInput, { maxItems: 20 })),
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLineItemInput, { maxItems: 300 })),
});

const RemoveLinesBody = Type.Object({ lineItemIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 300 }) });

const QuantitiesBody = Type.Object({
  lineItems: Type.Array(Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), quantity: Type.Integer({ minimum: 0, maximum: MAX_LINE_QUANTITY }) }), { minItems: 1, maxItems: 300 }),
});

const EstimateBody = Type.Object({
  selectedShippingOption: Type.Optional(SelectedShippingOption),
  shippingAddress: Type.Optional(Address),
  billingAddress: Type.Optional(Address),
  selectedMemberships: Type.Optional(Type.Object({})),
  calculateTax: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  calculateShipping: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  calculateAdditionalFees: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});

const Decimal = Type.String({ maxLength: 40, pattern: '^\\d+(\\.\\d+)?$' });
const SettingsBody = Type.Object({
  settings: Type.Object({
    inventoryUpdateTrigger: Type.Optional(Type.Union([Type.Literal('ON_ORDER_PLACED'), Type.Literal('ON_ORDER_PAID')])),
    weightUnit: Type.Optional(Type.Union([Type.Literal('KG'), Type.Literal('LB')])),
    shippingRegions: Type.Optional(Type.Array(Type.Object({
      id: Type.String({ minLength: 1, maxLength: 100 }),
      name: Type.String({ maxLength: 100 }),
      country: Type.String({ minLength: 1, maxLength: 3 }),
      subdivision: Type.Optional(Type.String({ maxLength: 10 })),
      taxShipping: Type.Optional(Type.Boolean()),
      rules: Type.Array(Type.Object({
        code: Type.String({ minLength: 1, maxLength: 100 }),
        title: Type.String({ maxLength: 200 }),
        rate: Decimal,
        deliveryTime: Type.Optional(Type.String({ maxLength: 100 })),
        type: Type.Union([Type.Literal('BY_TOTAL_WEIGHT'), Type.Literal('BY_TOTAL_PRICE'), Type.Literal('BY_TOTAL_QUANTITY')]),
        operator: Type.Union([Type.Literal('EQ'), Type.Literal('GT'), Type.Literal('GTE'), Type.Literal('LT'), Type.Literal('LTE')]),
        threshold: Decimal,
      }), { maxItems: 50 }),
    }), { maxItems: 100 })),
    pickupOptions: Type.Optional(Type.Array(Type.Object({
      code: Type.String({ minLength: 1, maxLength: 100 }),
      title: Type.String({ maxLength: 200 }),
      cost: Decimal,
      instructions: Type.Optional(Type.String({ maxLength: 1000 })),
      address: Type.Optional(Address),
    }), { maxItems: 20 })),
    tax: Type.Optional(Type.Union([Type.Null(), Type.Object({
      pricesIncludeTax: Type.Optional(Type.Boolean()),
      taxShipping: Type.Optional(Type.Boolean()),
      rates: Type.Array(Type.Object({
        country: Type.String({ minLength: 2, maxLength: 2 }),
        subdivision: Type.Optional(Type.String({ maxLength: 10 })),
        rate: Decimal,
        name: Type.Optional(Type.String({ maxLength: 100 })),
      }), { maxItems: 200 }),
    })])),
    paymentProvider: Type.Optional(Type.String({ maxLength: 50 })),
  }),
});

const CouponSpec = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  code: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' }),
  startTime: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  expirationTime: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  usageLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
  minimumSubtotal: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 40 }), Type.Null()])),
  moneyOffAmount: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 40 })])),
  percentOffRate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
  active: Type.Optional(Type.Boolean()),
  scope: Type.Optional(Type.Object({
    namespace: Type.Optional(Type.String({ maxLength: 50 })),
    group: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 50 })), entityId: Type.Optional(Type.String({ maxLength: 100 })) })),
  })),
  /** Bodega: several products at once (the scope names one). */
  productIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000 })),
});
const CreateCouponBody = Type.Object({ specification: CouponSpec });
const QueryCouponsBody = Type.Object({
  query: Type.Optional(Type.Object({ paging: Type.Optional(Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), offset: Type.Optional(Type.Integer({ minimum: 0 })) })) })),
});

function couponFromWire(spec: Static<typeof CouponSpec>, currency: string): Omit<Coupon, 'id' | 'timesUsed' | 'createdDate'> {
  const violations: FieldViolation[] = [];
  const amount = (field: string, value: number | string): bigint => {
    try {
      return parseAmount(typeof value === 'number' ? formatDecimal(parseDecimal(value)) : value, currency);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message });
      return 0n;
    }
  };
  let discount: Coupon['discount'] = { type: 'AMOUNT', amount: 0n };
  if ((spec.moneyOffAmount !== undefined) === (spec.percentOffRate !== undefined)) {
    violations.push({ field: 'specification', rule: 'REQUIRED_ONE_OF_FIELD', description: 'give moneyOffAmount or percentOffRate' });
  } else if (spec.moneyOffAmount !== undefined) {
    discount = { type: 'AMOUNT', amount: amount('specification.moneyOffAmount', spec.moneyOffAmount) };
  } else if (spec.percentOffRate !== undefined) {
    discount = { type: 'PERCENT', percent: formatDecimal(parseDecimal(spec.percentOffRate)) };
  }
  const validFrom = spec.startTime ? new Date(spec.startTime) : null;
  const validUntil = spec.expirationTime ? new Date(spec.expirationTime) : null;
  if (validFrom && validUntil && validUntil <= validFrom) violations.push({ field: 'specification.expirationTime', rule: 'VALIDATION', description: 'must be after startTime' });
  const productIds = [...(spec.productIds ?? []), ...(spec.scope?.group?.name === 'product' && spec.scope.group.entityId ? [spec.scope.group.entityId] : [])];
  const minimum = spec.minimumSubtotal === undefined || spec.minimumSubtotal === null ? null : amount('specification.minimumSubtotal', spec.minimumSubtotal);
  if (violations.length) throw ApiError.validation(violations);
  return {
    code: spec.code,
    name: spec.name ?? spec.code,
    discount,
    minimumSubtotal: minimum,
    validFrom,
    validUntil,
    usageLimit: spec.usageLimit ?? null,
    productIds: [...new Set(productIds)],
    active: spec.active ?? true,
  };
}

function toWireCoupon(c: Coupon, currency: string, now: Date) {
  const number = (minor: bigint) => Number(toWireMoney(minor, currency).amount);
  return {
    id: c.id,
    specification: {
      name: c.name,
      code: c.code,
      ...(c.validFrom && { startTime: c.validFrom.toISOString() }),
      ...(c.validUntil && { expirationTime: c.validUntil.toISOString() }),
      ...(c.usageLimit !== null && { usageLimit: c.usageLimit }),
      ...(c.minimumSubtotal !== null && { minimumSubtotal: number(c.minimumSubtotal) }),
      ...(c.discount.type === 'AMOUNT' ? { moneyOffAmount: number(c.discount.amount) } : { percentOffRate: Number(c.discount.percent) }),
      ...(c.productIds.length ? { productIds: c.productIds, scope: { namespace: 'stores', group: { name: 'product', entityId: c.productIds[0] } } } : {}),
      active: c.active,
    },
    numberOfUsages: c.timesUsed,
    expired: c.validUntil !== null && c.validUntil <= now,
    dateCreated: c.createdDate.toISOString(),
  };
}

export function cartRoutes(cart: CartService, publicUrl: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const buyer = (req: FastifyRequest) => currentBuyer(req.ctx, namedBuyer(req.ctx, req.headers[BUYER_HEADER]));
    const currency = async (req: FastifyRequest) => (await cart.site(req.ctx)).settings.currency;

    for (const prefix of CURRENT_CART_PREFIXES) {
      const config = { callers: ALL_CALLERS };
      // The answer is kept serialized: an unchanged cart is read, checked and sent, not priced again.
      app.get(prefix, { config }, async (req, reply) => {
        const body = await cart.currentCartAnswer(req.ctx, buyer(req), (view) => JSON.stringify({ cart: toWireCart(view, publicUrl) }));
        return reply.type('application/json; charset=utf-8').send(body);
      });

      app.patch(prefix, { config, schema: { body: UpdateBody } }, async (req) => {
        const body = req.body;
        const c = await currency(req);
        const info = body.cartInfo;
        const view = await cart.updateCurrentCart(req.ctx, buyer(req), {
          ...(body.couponCode !== undefined && { couponCode: body.couponCode }),
          ...(body.merchantDiscounts !== undefined && { merchantDiscounts: fromWireMerchantDiscounts(body.merchantDiscounts, c) }),
          ...(info?.buyerNote !== undefined && { buyerNote: info.buyerNote }),
          ...(info?.contactInfo !== undefined && { contactInfo: info.contactInfo }),
          ...(info?.selectedShippingOption !== undefined && { selectedShippingOption: { code: info.selectedShippingOption.code, ...(info.selectedShippingOption.carrierId ? { carrierId: info.selectedShippingOption.carrierId } : {}) } }),
          ...(info?.businessLocationId !== undefined && { businessLocationId: info.businessLocationId }),
          ...((body.lineItems || body.customLineItems) && {
            add: { lineItems: fromWireLineItems(body.lineItems), customLineItems: fromWireCustomLines(body.customLineItems, c) },
          }),
        });
        return { cart: toWireCart(view, publicUrl) };
      });

      app.delete(prefix, { config }, async (req) => {
        await cart.deleteCurrentCart(req.ctx, buyer(req));
        return {};
      });

      app.post(`${prefix}/add-to-cart`, { config, schema: { body: AddBody } }, async (req) => {
        const body = req.body;
        if (!body.lineItems?.length && !body.customLineItems?.length) {
          throw ApiError.validation([{ field: 'lineItems', rule: 'MIN_SIZE', description: 'must not be empty', data: { threshold: 1 } }]);
        }
        const view = await cart.addToCurrentCart(req.ctx, buyer(req), {
          lineItems: fromWireLineItems(body.lineItems),
          customLineItems: fromWireCustomLines(body.customLineItems, await currency(req)),
          ...(body.businessLocationId !== undefined && { businessLocationId: body.businessLocationId }),
        });
        return { cart: toWireCart(view, publicUrl) };
      });

      app.post(`${prefix}/remove-line-items`, { config, schema: { body: RemoveLinesBody } }, async (req) => {
        const view = await cart.removeLineItems(req.ctx, buyer(req), req.body.lineItemIds);
        return { cart: toWireCart(view, publicUrl) };
      });

      app.post(`${prefix}/remove-coupon`, { config }, async (req) => ({ cart: toWireCart(await cart.removeCoupon(req.ctx, buyer(req)), publicUrl) }));

      app.post(`${prefix}/update-line-items-quantity`, { config, schema: { body: QuantitiesBody } }, async (req) => {
        const view = await cart.updateLineItemsQuantity(req.ctx, buyer(req), req.body.lineItems);
        return { cart: toWireCart(view, publicUrl) };
      });

      app.post(`${prefix}/estimate-totals`, { config, schema: { body: EstimateBody } }, async (req) => {
        const body = req.body;
        const view = await cart.estimateTotals(req.ctx, buyer(req), {
          ...(body.shippingAddress && { shippingAddress: body.shippingAddress }),
          ...(body.billingAddress && { billingAddress: body.billingAddress }),
          ...(body.selectedShippingOption && { selectedShippingOption: body.selectedShippingOption }),
          ...(typeof body.calculateTax === 'boolean' && { calculateTax: body.calculateTax }),
          ...(typeof body.calculateShipping === 'boolean' && { calculateShipping: body.calculateShipping }),
        });
        return toWireEstimate(view, publicUrl);
      });
    }

    // Shipping regions and rules, pickup, tax and the inventory trigger (Bodega's own call).
    for (const path of ['/_api/bodega/v1/commerce-settings']) {
      const config = { callers: BACK_OFFICE };
      app.get(path, { config }, async (req) => ({ settings: await cart.storedSettings(req.ctx) }));
      app.patch(path, { config, schema: { body: SettingsBody } }, async (req) => ({
        settings: await cart.updateSettings(req.ctx, req.body.settings),
      }));
    }

    // Coupons for the back office, in the shape of the Wix coupons API.
    for (const prefix of ['/stores/v2/coupons', '/_api/bodega/v1/coupons']) {
      const config = { callers: BACK_OFFICE };
      app.post(prefix, { config, schema: { body: CreateCouponBody } }, async (req) => {
        const c = await currency(req);
        const coupon = await cart.createCoupon(req.ctx, couponFromWire(req.body.specification, c));
        return { id: coupon.id, coupon: toWireCoupon(coupon, c, req.ctx.now()) };
      });
      app.post(`${prefix}/query`, { config, schema: { body: QueryCouponsBody } }, async (req) => {
        const paging = req.body.query?.paging;
        const limit = paging?.limit ?? 50;
        const offset = paging?.offset ?? 0;
        const c = await currency(req);
        const { coupons, total } = await cart.listCoupons(req.ctx, limit, offset);
        return { coupons: coupons.map((x) => toWireCoupon(x, c, req.ctx.now())), metadata: { count: coupons.length, offset, total } };
      });
      app.get(`${prefix}/:id`, { config, schema: { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }) } }, async (req) => {
        const c = await currency(req);
        return { coupon: toWireCoupon(await cart.getCoupon(req.ctx, (req.params).id), c, req.ctx.now()) };
      });
    }
  };
}
