import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { PageBase } from '../../platform/page-base.js';
import type { CartService } from './service.js';
import { CURRENT_CART_PREFIXES } from './service.js';
import { BUYER_HEADER, currentBuyer, namedBuyer } from '../commerce/buyer.js';
import { Address, AddressWithContact } from '../commerce/addresses.js';
import { MAX_LINE_QUANTITY } from '../commerce/lines.js';
import {
  CustomLineItemInput,
  fromWireCustomLines,
  fromWireLineItems,
  fromWireMerchantDiscounts,
  LineItemInput,
  MerchantDiscountInput,
  SelectedShippingOption,
} from '../commerce/wire.js';
import { toWireCart, toWireEstimate } from './wire.js';
import { CartResponse, Empty, EstimateTotalsResponse } from './wire-schemas.js';

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

export function cartRoutes(cart: CartService, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const buyer = (req: FastifyRequest) => currentBuyer(req.ctx, namedBuyer(req.ctx, req.headers[BUYER_HEADER]));
    const currency = async (req: FastifyRequest) => (await cart.site(req.ctx)).settings.currency;
    const base = (req: FastifyRequest) => pageBase(req.ctx);

    for (const prefix of CURRENT_CART_PREFIXES) {
      const config = { access: 'shop' } as const;
      const answers = { response: { 200: CartResponse } };
      // The answer is kept serialized: an unchanged cart is read, checked and sent, not priced again.
      // Sent as JSON text, so the schema documents it (the other cart answers, written through it,
      // check the same toWireCart); the untyped instance takes the text.
      fastify.get(prefix, { config, schema: answers }, async (req, reply) => {
        const publicUrl = await base(req);
        const body = await cart.currentCartAnswer(req.ctx, buyer(req), (view) => JSON.stringify({ cart: toWireCart(view, publicUrl) }));
        return reply.type('application/json; charset=utf-8').send(body);
      });

      app.patch(prefix, { config, schema: { body: UpdateBody, ...answers } }, async (req) => {
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
        return { cart: toWireCart(view, await base(req)) };
      });

      app.delete(prefix, { config, schema: { response: { 200: Empty } } }, async (req) => {
        await cart.deleteCurrentCart(req.ctx, buyer(req));
        return {};
      });

      app.post(`${prefix}/add-to-cart`, { config, schema: { body: AddBody, ...answers } }, async (req) => {
        const body = req.body;
        if (!body.lineItems?.length && !body.customLineItems?.length) {
          throw ApiError.validation([{ field: 'lineItems', rule: 'MIN_SIZE', description: 'must not be empty', data: { threshold: 1 } }]);
        }
        const view = await cart.addToCurrentCart(req.ctx, buyer(req), {
          lineItems: fromWireLineItems(body.lineItems),
          customLineItems: fromWireCustomLines(body.customLineItems, await currency(req)),
          ...(body.businessLocationId !== undefined && { businessLocationId: body.businessLocationId }),
        });
        return { cart: toWireCart(view, await base(req)) };
      });

      app.post(`${prefix}/remove-line-items`, { config, schema: { body: RemoveLinesBody, ...answers } }, async (req) => {
        const view = await cart.removeLineItems(req.ctx, buyer(req), req.body.lineItemIds);
        return { cart: toWireCart(view, await base(req)) };
      });

      app.post(`${prefix}/remove-coupon`, { config, schema: answers }, async (req) => ({ cart: toWireCart(await cart.removeCoupon(req.ctx, buyer(req)), await base(req)) }));

      app.post(`${prefix}/update-line-items-quantity`, { config, schema: { body: QuantitiesBody, ...answers } }, async (req) => {
        const view = await cart.updateLineItemsQuantity(req.ctx, buyer(req), req.body.lineItems);
        return { cart: toWireCart(view, await base(req)) };
      });

      app.post(`${prefix}/estimate-totals`, { config, schema: { body: EstimateBody, response: { 200: EstimateTotalsResponse } } }, async (req) => {
        const body = req.body;
        const view = await cart.estimateTotals(req.ctx, buyer(req), {
          ...(body.shippingAddress && { shippingAddress: body.shippingAddress }),
          ...(body.billingAddress && { billingAddress: body.billingAddress }),
          ...(body.selectedShippingOption && { selectedShippingOption: body.selectedShippingOption }),
          ...(typeof body.calculateTax === 'boolean' && { calculateTax: body.calculateTax }),
          ...(typeof body.calculateShipping === 'boolean' && { calculateShipping: body.calculateShipping }),
        });
        return toWireEstimate(view, await base(req));
      });
    }
  };
}
