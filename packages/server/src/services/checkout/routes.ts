import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { PageBase } from '../../platform/page-base.js';
import { CURRENT_CART_PREFIXES, type CartService } from '../cart/service.js';
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
import type { CheckoutPatch, CheckoutService } from './service.js';
import { toWireCheckout } from './wire.js';
import * as W from './wire-schemas.js';

const CHANNEL_TYPES = ['UNSPECIFIED', 'WEB', 'POS', 'EBAY', 'AMAZON', 'OTHER_PLATFORM', 'WIX_APP_STORE', 'WIX_INVOICES', 'BACKOFFICE_MERCHANT', 'WISH', 'CLASS_PASS', 'GLOBAL_E', 'FACEBOOK', 'ETSY', 'TIKTOK', 'FAIRE_COM', 'PAYPAL_AGENTIC_CHECKOUT', 'STRIPE_AGENTIC_CHECKOUT'];
const ChannelType = Type.Union(CHANNEL_TYPES.map((c) => Type.Literal(c)));
const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParams = Type.Object({ id: Id });
const Email = Type.Union([Type.String({ maxLength: 254, format: 'email' }), Type.Null()]);
const TimeSlot = Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) });

const CheckoutInfo = Type.Object({
  id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  billingInfo: Type.Optional(Type.Union([AddressWithContact, Type.Null()])),
  shippingInfo: Type.Optional(Type.Object({
    shippingDestination: Type.Optional(Type.Union([AddressWithContact, Type.Null()])),
    selectedCarrierServiceOption: Type.Optional(Type.Union([Type.Null(), Type.Object({
      code: Type.String({ minLength: 1, maxLength: 100 }),
      carrierId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
      logistics: Type.Optional(Type.Object({ deliveryTimeSlot: Type.Optional(Type.Union([TimeSlot, Type.Null()])) })),
    })])),
  })),
  buyerInfo: Type.Optional(Type.Object({ email: Type.Optional(Email) })),
  buyerNote: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
});

const CreateBody = Type.Object({
  checkoutInfo: Type.Optional(CheckoutInfo),
  couponCode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLineItemInput, { maxItems: 300 })),
  merchantDiscounts: Type.Optional(Type.Array(MerchantDiscountInput, { maxItems: 20 })),
  channelType: Type.Optional(ChannelType),
  giftCardCode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});

const UpdateBody = Type.Object({
  checkout: CheckoutInfo,
  couponCode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLineItemInput, { maxItems: 300 })),
  merchantDiscounts: Type.Optional(Type.Array(MerchantDiscountInput, { maxItems: 20 })),
  giftCardCode: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});

const AddBody = Type.Object({
  lineItems: Type.Optional(Type.Array(LineItemInput, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLineItemInput, { maxItems: 300 })),
});
const RemoveLinesBody = Type.Object({ lineItemIds: Type.Array(Id, { minItems: 1, maxItems: 300 }) });
const QuantitiesBody = Type.Object({
  lineItems: Type.Array(Type.Object({ id: Id, quantity: Type.Integer({ minimum: 0, maximum: MAX_LINE_QUANTITY }) }), { minItems: 1, maxItems: 300 }),
});
const CreateOrderBody = Type.Object({
  savePaymentMethod: Type.Optional(Type.Boolean()),
  delayCapture: Type.Optional(Type.Boolean()),
  paymentToken: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});
const FromCartBody = Type.Object({
  channelType: Type.Optional(ChannelType),
  shippingAddress: Type.Optional(Address),
  billingAddress: Type.Optional(Address),
  selectedShippingOption: Type.Optional(SelectedShippingOption),
  email: Type.Optional(Email),
});

function patchFromWire(info: Static<typeof CheckoutInfo> | undefined): CheckoutPatch {
  if (!info) return {};
  const option = info.shippingInfo?.selectedCarrierServiceOption;
  const slot = option?.logistics?.deliveryTimeSlot;
  if (slot && new Date(slot.to) <= new Date(slot.from)) {
    throw ApiError.validation([{ field: 'checkout.shippingInfo.selectedCarrierServiceOption.logistics.deliveryTimeSlot.to', rule: 'VALIDATION', description: 'must be after from' }]);
  }
  return {
    ...(info.billingInfo !== undefined && { billingInfo: info.billingInfo }),
    ...(info.shippingInfo?.shippingDestination !== undefined && { shippingDestination: info.shippingInfo.shippingDestination }),
    ...(option !== undefined && { selectedShippingOption: option === null ? null : { code: option.code, ...(option.carrierId ? { carrierId: option.carrierId } : {}) } }),
    ...(slot !== undefined && { deliveryTimeSlot: slot }),
    ...(info.buyerInfo?.email !== undefined && { email: info.buyerInfo.email }),
    ...(info.buyerNote !== undefined && { buyerNote: info.buyerNote }),
  };
}

export function checkoutRoutes(checkout: CheckoutService, cart: CartService, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'shop' } as const;
    const answer = { 200: W.CheckoutResponse };
    const id = (req: { params: Static<typeof IdParams> }) => req.params.id;
    const wire = async (req: FastifyRequest, view: Parameters<typeof toWireCheckout>[0]) => ({ checkout: toWireCheckout(view, await pageBase(req.ctx)) });
    const currency = async (req: FastifyRequest) => (await cart.site(req.ctx)).settings.currency;

    app.post('/ecom/v1/checkouts', { config, schema: { body: CreateBody, response: answer } }, async (req) => {
      const body = req.body;
      const c = await currency(req);
      const view = await checkout.createCheckout(req.ctx, {
        channelType: body.channelType ?? 'WEB',
        ...patchFromWire(body.checkoutInfo),
        ...(body.couponCode !== undefined && { couponCode: body.couponCode }),
        ...(body.merchantDiscounts !== undefined && { merchantDiscounts: fromWireMerchantDiscounts(body.merchantDiscounts, c) }),
        ...(body.giftCardCode && { giftCardCode: body.giftCardCode }),
        add: { lineItems: fromWireLineItems(body.lineItems), customLineItems: fromWireCustomLines(body.customLineItems, c) },
      }, namedBuyer(req.ctx, req.headers[BUYER_HEADER]));
      return wire(req, view);
    });

    app.get('/ecom/v1/checkouts/:id', { config, schema: { params: IdParams, response: answer } }, async (req) => wire(req, await checkout.getCheckout(req.ctx, id(req))));
    app.get('/ecom/v1/checkouts/by-cart-id/:id', { config, schema: { params: IdParams, response: answer } }, async (req) => wire(req, await checkout.getCheckoutByCart(req.ctx, id(req))));
    for (const suffix of ['checkout-url', 'wix-checkout-url']) {
      app.get(`/ecom/v1/checkouts/:id/${suffix}`, { config, schema: { params: IdParams, response: { 200: W.CheckoutUrlResponse } } }, async (req) => {
        const view = await checkout.getCheckout(req.ctx, id(req));
        return { checkoutUrl: checkout.checkoutUrl(await pageBase(req.ctx), view.checkout.id) };
      });
    }

    app.patch('/ecom/v1/checkouts/:id', { config, schema: { body: UpdateBody, params: IdParams, response: answer } }, async (req) => {
      const body = req.body;
      const c = await currency(req);
      const add = body.lineItems || body.customLineItems ? { lineItems: fromWireLineItems(body.lineItems), customLineItems: fromWireCustomLines(body.customLineItems, c) } : undefined;
      return wire(req, await checkout.updateCheckout(req.ctx, id(req), {
        ...patchFromWire(body.checkout),
        ...(body.couponCode !== undefined && { couponCode: body.couponCode }),
        ...(body.merchantDiscounts !== undefined && { merchantDiscounts: fromWireMerchantDiscounts(body.merchantDiscounts, c) }),
        ...(add && { add }),
        ...(body.giftCardCode && { giftCardCode: body.giftCardCode }),
      }));
    });

    app.post('/ecom/v1/checkouts/:id/remove-gift-card', { config, schema: { params: IdParams, response: answer } }, async (req) => wire(req, await checkout.removeGiftCard(req.ctx, id(req))));

    app.post('/ecom/v1/checkouts/:id/remove-coupon', { config, schema: { params: IdParams, response: answer } }, async (req) => wire(req, await checkout.removeCoupon(req.ctx, id(req))));

    app.post('/ecom/v1/checkouts/:id/add-to-checkout', { config, schema: { body: AddBody, params: IdParams, response: answer } }, async (req) => {
      const body = req.body;
      if (!body.lineItems?.length && !body.customLineItems?.length) {
        throw ApiError.validation([{ field: 'lineItems', rule: 'MIN_SIZE', description: 'must not be empty', data: { threshold: 1 } }]);
      }
      const add = { lineItems: fromWireLineItems(body.lineItems), customLineItems: fromWireCustomLines(body.customLineItems, await currency(req)) };
      return wire(req, await checkout.updateCheckout(req.ctx, id(req), { add }));
    });

    app.post('/ecom/v1/checkouts/:id/remove-line-items', { config, schema: { body: RemoveLinesBody, params: IdParams, response: answer } }, async (req) =>
      wire(req, await checkout.removeLineItems(req.ctx, id(req), req.body.lineItemIds)));

    app.post('/ecom/v1/checkouts/:id/update-line-items-quantity', { config, schema: { body: QuantitiesBody, params: IdParams, response: answer } }, async (req) =>
      wire(req, await checkout.updateLineItemsQuantity(req.ctx, id(req), req.body.lineItems)));

    app.post('/ecom/v1/checkouts/:id/create-order', { config, schema: { body: CreateOrderBody, params: IdParams, response: { 200: W.CreateOrderResponse } } }, async (req) =>
      checkout.createOrder(req.ctx, id(req), { kind: 'offline' }));

    app.post('/ecom/v1/checkouts/:id/create-order-and-charge', { config, schema: { body: CreateOrderBody, params: IdParams, response: { 200: W.CreateOrderResponse } } }, async (req) => {
      const token = req.body.paymentToken;
      if (!token) throw ApiError.validation([{ field: 'paymentToken', rule: 'REQUIRED_FIELD', description: 'a payment token is required' }]);
      return checkout.createOrder(req.ctx, id(req), { kind: 'charge', token, delayCapture: req.body.delayCapture ?? false, returnUrl: '' });
    });

    for (const prefix of CURRENT_CART_PREFIXES) {
      app.post(`${prefix}/create-checkout`, { config, schema: { body: FromCartBody, response: { 200: W.CreateCheckoutResponse } } }, async (req) => {
        const body = req.body;
        const checkoutId = await checkout.createFromCurrentCart(req.ctx, currentBuyer(req.ctx, namedBuyer(req.ctx, req.headers[BUYER_HEADER])), {
          channelType: body.channelType ?? 'WEB',
          ...(body.shippingAddress && { shippingDestination: { address: body.shippingAddress } }),
          ...(body.billingAddress && { billingInfo: { address: body.billingAddress } }),
          ...(body.selectedShippingOption && { selectedShippingOption: { code: body.selectedShippingOption.code, ...(body.selectedShippingOption.carrierId ? { carrierId: body.selectedShippingOption.carrierId } : {}) } }),
          ...(body.email !== undefined && { email: body.email }),
        });
        return { checkoutId };
      });
    }
  };
}
