// The official @wix/ecom draftOrders calls (createDraftOrder, createEmptyDraftOrder,
// addLineItemsToDraftOrder, updateLineItems, create/deleteCustomDiscounts, setShippingInfo,
// setBuyerInfo, setBillingInfo, getDraftOrder, getOrderDraftabilityStatus, commitDraftOrder, createOrderFromDraft,
// deleteDraftOrder, queryDraftOrders) for the back office and API keys.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { MoneyError, parseAmount, parseDecimal, formatDecimal } from '../../platform/money.js';
import { newId } from '../../platform/ids.js';
import type { PageBase } from '../../platform/page-base.js';
import { AddressWithContact } from '../commerce/addresses.js';
import { MAX_LINE_QUANTITY } from '../commerce/lines.js';
import type { MerchantDiscount } from '../commerce/pricing/model.js';
import { CatalogReferenceSchema, CustomLineItemInput, fromWireCustomLines, fromWireLineItems } from '../commerce/wire.js';
import type { DraftBuyer, DraftOrdersService, DraftOrderView, DraftPatch } from './draft-orders.js';
import { toWireCalculated, toWireDraftOrder } from './draft-orders-wire.js';
import { toWireOrder } from './wire.js';
import * as W from './draft-orders-wire-schemas.js';

const PREFIX = '/ecom/v1/draft-orders';
const Id = Type.String({ minLength: 1, maxLength: 100 });
const DraftParams = Type.Object({ draftOrderId: Id });
const Price = Type.Object({ amount: Type.String({ minLength: 1, maxLength: 40 }), formattedAmount: Type.Optional(Type.String({ maxLength: 100 })) });
const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

const CatalogLine = Type.Object({
  catalogReference: CatalogReferenceSchema,
  quantity: Type.Optional(Quantity),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});
const { price: _price, fullPrice: _fullPrice, ...customProperties } = CustomLineItemInput.properties;
const CustomLine = Type.Object({
  ...customProperties,
  price: Price,
  fullPrice: Type.Optional(Type.Union([Price, Type.Null()])),
  taxGroupId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});
const Discount = Type.Object({
  percentage: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
  amount: Type.Optional(Type.Union([Price, Type.Null()])),
  priceAmount: Type.Optional(Type.Union([Price, Type.Null()])),
  discountType: Type.Optional(Type.Union([Type.Literal('GLOBAL'), Type.Literal('SPECIFIC_ITEMS'), Type.Literal('SHIPPING')])),
  lineItemId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  applyToDraftOrder: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
const BuyerInfo = Type.Object({
  memberId: Type.Optional(Id),
  visitorId: Type.Optional(Id),
  contactId: Type.Optional(Type.Union([Id, Type.Null()])),
  email: Type.Optional(Type.Union([Type.String({ maxLength: 254, format: 'email' }), Type.Null()])),
});
const ShippingInfo = Type.Object({
  carrierId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  code: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  title: Type.Optional(Type.String({ maxLength: 200 })),
  logistics: Type.Optional(Type.Object({ shippingDestination: Type.Optional(Type.Union([AddressWithContact, Type.Null()])) })),
});
const DraftOrderInput = Type.Object({
  catalogLineItems: Type.Optional(Type.Array(CatalogLine, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLine, { maxItems: 300 })),
  discounts: Type.Optional(Type.Array(Discount, { maxItems: 20 })),
  buyerInfo: Type.Optional(BuyerInfo),
  shippingInfo: Type.Optional(ShippingInfo),
  billingInfo: Type.Optional(Type.Union([AddressWithContact, Type.Null()])),
});
const CreateBody = Type.Object({
  orderId: Type.Optional(Type.Union([Id, Type.Null()])),
  sourceOrderId: Type.Optional(Id),
  draftOrder: Type.Optional(DraftOrderInput),
});
const AddLinesBody = Type.Object({
  draftOrderId: Type.Optional(Id),
  catalogLineItems: Type.Optional(Type.Array(CatalogLine, { maxItems: 300 })),
  customLineItems: Type.Optional(Type.Array(CustomLine, { maxItems: 300 })),
});
const UpdateLinesBody = Type.Object({
  draftOrderId: Type.Optional(Id),
  lineItemChanges: Type.Array(Type.Object({ lineItemId: Id, newQuantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: MAX_LINE_QUANTITY }), Type.Null()])) }), { minItems: 1, maxItems: 300 }),
});
const CreateDiscountsBody = Type.Object({ draftOrderId: Type.Optional(Id), discounts: Type.Array(Discount, { minItems: 1, maxItems: 20 }) });
const DeleteDiscountsBody = Type.Object({ draftOrderId: Type.Optional(Id), discountIds: Type.Array(Id, { minItems: 1, maxItems: 20 }) });
const SetShippingBody = Type.Object({ draftOrderId: Id, shippingInfo: Type.Optional(ShippingInfo) });
const SetBuyerBody = Type.Object({ draftOrderId: Id, buyerInfo: Type.Optional(BuyerInfo) });
const SetBillingBody = Type.Object({ draftOrderId: Id, billingInfo: Type.Optional(Type.Union([AddressWithContact, Type.Null()])) });
const CommitBody = Type.Object({
  draftOrderId: Type.Optional(Id),
  commitSettings: Type.Optional(Type.Unknown()),
  createSettings: Type.Optional(Type.Unknown()),
  reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  channelInfo: Type.Optional(Type.Unknown()),
});
const QueryBody = Type.Object({
  query: Type.Optional(Type.Object({
    filter: Type.Optional(Type.Union([Type.Object({ status: Type.Optional(Type.Union([Type.Literal('DRAFT'), Type.Literal('COMMITTED'), Type.Object({ $eq: Type.Union([Type.Literal('DRAFT'), Type.Literal('COMMITTED')]) })])) }), Type.Null()])),
    sort: Type.Optional(Type.Unknown()),
    cursorPaging: Type.Optional(Type.Object({
      limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
      cursor: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    })),
  })),
});

type WireCustomLine = Static<typeof CustomLine>;
type WireDiscount = Static<typeof Discount>;

function lines(catalog: Static<typeof CatalogLine>[] | undefined, custom: WireCustomLine[] | undefined, currency: string) {
  const asInput = (custom ?? []).map(({ price, fullPrice, taxGroupId: _taxGroup, ...rest }) => ({ ...rest, price: price.amount, ...(fullPrice ? { fullPrice: fullPrice.amount } : {}) }));
  return { lineItems: fromWireLineItems(catalog), customLineItems: fromWireCustomLines(asInput, currency) };
}

/** Wix discount options → the pricing kernel's merchant discounts (a percentage or an amount, on the draft or one line). */
export function discountsFromWire(discounts: readonly WireDiscount[], currency: string, field = 'discounts'): MerchantDiscount[] {
  const violations: FieldViolation[] = [];
  const out = discounts.map((d, i): MerchantDiscount => {
    const at = `${field}[${i}]`;
    const scope = d.lineItemId ? { lineItemIds: [d.lineItemId] } : {};
    if (d.discountType === 'SHIPPING') violations.push({ field: `${at}.discountType`, rule: 'INVALID_ENUM_VALUE', description: 'shipping discounts are not supported; discount the draft or a line', data: { allowedValues: ['GLOBAL', 'SPECIFIC_ITEMS'] } });
    const amount = d.amount ?? d.priceAmount;
    try {
      if (amount && !d.percentage) return { id: newId(), type: 'AMOUNT', amount: parseAmount(amount.amount, currency), ...scope };
      if (d.percentage && !amount) {
        const percent = parseDecimal(d.percentage);
        if (percent.units <= 0n || percent.units > 100n * 10n ** BigInt(percent.scale)) throw new MoneyError('FORMAT', 'a percentage is more than 0 and at most 100');
        return { id: newId(), type: 'PERCENT', percent: formatDecimal(percent), ...scope };
      }
      violations.push({ field: at, rule: 'REQUIRED_ONE_OF_FIELD', description: 'give a percentage or an amount', data: {} });
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field: amount ? `${at}.amount.amount` : `${at}.percentage`, rule: 'FORMAT', description: error.message, data: {} });
    }
    return { type: 'AMOUNT', amount: 0n };
  });
  if (violations.length) throw ApiError.validation(violations);
  return out;
}

function buyerFromWire(info: Static<typeof BuyerInfo> | undefined): DraftBuyer | undefined {
  if (!info) return undefined;
  if (info.memberId) return { memberId: info.memberId, ...(info.email !== undefined && { email: info.email }) };
  if (info.email) return { email: info.email };
  if (info.visitorId || info.contactId) {
    throw ApiError.validation([{ field: 'buyerInfo.email', rule: 'REQUIRED_FIELD', description: 'a customer who is not a member is given by e-mail' }]);
  }
  return undefined;
}

function shippingFromWire(info: Static<typeof ShippingInfo> | undefined): Pick<DraftPatch, 'shippingDestination' | 'selectedShippingOption'> {
  if (!info) return {};
  const destination = info.logistics?.shippingDestination;
  return {
    ...(destination !== undefined && { shippingDestination: destination }),
    ...(info.code !== undefined && { selectedShippingOption: info.code ? { code: info.code, ...(info.carrierId ? { carrierId: info.carrierId } : {}) } : null }),
  };
}

export function draftOrdersRoutes(drafts: DraftOrdersService, pageBase: PageBase, currencyOf: (req: FastifyRequest) => Promise<string>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;
    const calculated = async (req: FastifyRequest, view: DraftOrderView) => ({ calculatedDraftOrder: toWireCalculated(view, await pageBase(req.ctx)) });
    const response = { 200: W.CalculatedDraftOrderAnswer };

    app.post(PREFIX, { config, schema: { body: CreateBody, response } }, async (req) => {
      const body = req.body;
      if (body.sourceOrderId) throw new ApiError(400, 'SOURCE_ORDER_NOT_SUPPORTED', 'Drafts copied from another order are not served; give orderId to edit an order, or draftOrder', {});
      if (body.orderId) return calculated(req, await drafts.createEdit(req.ctx, body.orderId));
      const input = body.draftOrder ?? {};
      const currency = await currencyOf(req);
      const add = lines(input.catalogLineItems, input.customLineItems, currency);
      const view = await drafts.create(req.ctx, {
        ...(buyerFromWire(input.buyerInfo) && { buyer: buyerFromWire(input.buyerInfo) }),
        ...((add.lineItems.length || add.customLineItems.length) && { add }),
        ...(input.discounts?.length && { merchantDiscounts: discountsFromWire(input.discounts, currency, 'draftOrder.discounts') }),
        ...shippingFromWire(input.shippingInfo),
        ...(input.billingInfo !== undefined && { billingInfo: input.billingInfo }),
      });
      return calculated(req, view);
    });

    app.post(`${PREFIX}/create-empty-draft-order`, { config, schema: { response } }, async (req) => calculated(req, await drafts.create(req.ctx, {})));

    app.get(`${PREFIX}/:draftOrderId`, { config, schema: { params: DraftParams, response } }, async (req) => calculated(req, await drafts.get(req.ctx, req.params.draftOrderId)));

    app.get(`${PREFIX}/:orderId/draftability`, { config, schema: { params: Type.Object({ orderId: Id }), response: { 200: W.Draftability } } }, async (req) =>
      drafts.draftability(req.ctx, req.params.orderId));

    app.post(`${PREFIX}/:draftOrderId/add-line-items`, { config, schema: { params: DraftParams, body: AddLinesBody, response } }, async (req) => {
      const add = lines(req.body.catalogLineItems, req.body.customLineItems, await currencyOf(req));
      if (!add.lineItems.length && !add.customLineItems.length) {
        throw ApiError.validation([{ field: 'catalogLineItems', rule: 'MIN_SIZE', description: 'give catalog or custom line items to add', data: { threshold: 1 } }]);
      }
      return calculated(req, await drafts.update(req.ctx, req.params.draftOrderId, { add }));
    });

    app.post(`${PREFIX}/:draftOrderId/line-items`, { config, schema: { params: DraftParams, body: UpdateLinesBody, response } }, async (req) => {
      const changes = req.body.lineItemChanges.flatMap((c) => (c.newQuantity === undefined || c.newQuantity === null ? [] : [{ id: c.lineItemId, quantity: c.newQuantity }]));
      if (!changes.length) return calculated(req, await drafts.get(req.ctx, req.params.draftOrderId));
      return calculated(req, await drafts.setQuantities(req.ctx, req.params.draftOrderId, changes));
    });

    app.post(`${PREFIX}/:draftOrderId/create-custom-discounts`, { config, schema: { params: DraftParams, body: CreateDiscountsBody, response } }, async (req) => {
      const current = await drafts.get(req.ctx, req.params.draftOrderId);
      const added = discountsFromWire(req.body.discounts, current.checkout.checkout.currency);
      return calculated(req, await drafts.update(req.ctx, req.params.draftOrderId, { merchantDiscounts: [...current.checkout.checkout.merchantDiscounts, ...added] }));
    });

    app.post(`${PREFIX}/:draftOrderId/delete-custom-discounts`, { config, schema: { params: DraftParams, body: DeleteDiscountsBody, response } }, async (req) => {
      const current = await drafts.get(req.ctx, req.params.draftOrderId);
      const known = current.checkout.checkout.merchantDiscounts;
      const unknown = req.body.discountIds.filter((id) => !known.some((d) => d.id === id));
      if (unknown.length) throw new ApiError(400, 'DISCOUNT_NOT_FOUND', `Not on the draft: ${unknown.join(', ')}`, { discountIds: unknown });
      return calculated(req, await drafts.update(req.ctx, req.params.draftOrderId, { merchantDiscounts: known.filter((d) => !req.body.discountIds.includes(d.id ?? '')) }));
    });

    app.put(`${PREFIX}/set-shipping-info`, { config, schema: { body: SetShippingBody, response } }, async (req) =>
      calculated(req, await drafts.update(req.ctx, req.body.draftOrderId, shippingFromWire(req.body.shippingInfo ?? { code: null, logistics: { shippingDestination: null } }))));

    app.put(`${PREFIX}/set-buyer-info`, { config, schema: { body: SetBuyerBody, response } }, async (req) => {
      const buyer = buyerFromWire(req.body.buyerInfo);
      return calculated(req, buyer ? await drafts.update(req.ctx, req.body.draftOrderId, { buyer }) : await drafts.get(req.ctx, req.body.draftOrderId));
    });

    app.put(`${PREFIX}/set-billing-info`, { config, schema: { body: SetBillingBody, response } }, async (req) =>
      calculated(req, await drafts.update(req.ctx, req.body.draftOrderId, { billingInfo: req.body.billingInfo ?? null })));

    app.post(`${PREFIX}/:draftOrderId/commit`, { config, schema: { params: DraftParams, body: CommitBody, response: { 200: W.CommittedAnswer } } }, async (req) => {
      const { draft, order } = await drafts.commit(req.ctx, req.params.draftOrderId);
      const base = await pageBase(req.ctx);
      return { committedDraftOrder: toWireDraftOrder(draft, base), orderAfterCommit: toWireOrder(order, base) };
    });

    app.post(`${PREFIX}/:draftOrderId/create-order`, { config, schema: { params: DraftParams, body: CommitBody, response: { 200: W.CreatedOrderAnswer } } }, async (req) => {
      const { draft, order } = await drafts.commit(req.ctx, req.params.draftOrderId);
      const base = await pageBase(req.ctx);
      return { committedDraftOrder: toWireDraftOrder(draft, base), createdOrder: toWireOrder(order, base) };
    });

    app.delete(`${PREFIX}/:draftOrderId`, { config, schema: { params: DraftParams, response: { 200: W.Empty } } }, async (req) => {
      await drafts.delete(req.ctx, req.params.draftOrderId);
      return {};
    });

    app.post(`${PREFIX}/query`, { config, schema: { body: QueryBody, response: { 200: W.DraftOrdersPage } } }, async (req) => {
      const query = req.body.query ?? {};
      const status = query.filter?.status;
      const page = await drafts.query(req.ctx, {
        ...(status && { status: typeof status === 'string' ? status : status.$eq }),
        ...(query.cursorPaging?.limit && { limit: query.cursorPaging.limit }),
        ...(query.cursorPaging?.cursor && { cursor: query.cursorPaging.cursor }),
      });
      const base = await pageBase(req.ctx);
      return {
        draftOrders: page.drafts.map((d) => toWireDraftOrder(d, base)),
        pagingMetadata: { count: page.drafts.length, cursors: { ...(page.nextCursor ? { next: page.nextCursor } : {}) }, hasNext: page.nextCursor !== null },
      };
    });
  };
}
