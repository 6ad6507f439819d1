// The official @wix/ecom tips calls a shop makes (tips.previewTip, getTipChoice, updateTipChoice,
// getTipByOrderId) at `/_api/tips-service/v1/tips…` (a custom host) and `/tips/v1/tips…`
// (www.wixapis.com). A tip choice belongs to a checkout — its purchase flow id is the checkout's
// id — and is priced with it by the commerce kernel (commerce/pricing/tips.ts).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { formatAmount, MoneyError, multiply, parseAmount } from '../../platform/money.js';
import { TIP_AMOUNT_PATTERN, TIP_TYPES } from '../../platform/field-limits.js';
import type { CartService } from '../cart/service.js';
import { commerceSettingsOf } from '../commerce-settings/service.js';
import { tipAmount, tipChoiceProblem, type TipChoice } from '../commerce/pricing/tips.js';
import type { OrdersService } from '../orders/service.js';
import type { CheckoutService } from './service.js';
import * as W from './tips-wire-schemas.js';

const PREFIXES = ['/_api/tips-service/v1/tips', '/tips/v1/tips'];
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Decimal = Type.String({ minLength: 1, maxLength: 15, pattern: TIP_AMOUNT_PATTERN });
const TipChoiceInput = Type.Object({
  value: Decimal,
  tipType: Type.Union(TIP_TYPES.map((t) => Type.Literal(t))),
});
const PreviewBody = Type.Object({
  lineItemInfo: Type.Array(Type.Object({
    lineItemId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    catalogReference: Type.Optional(Type.Object({ catalogItemId: Type.Optional(Type.Union([Id, Type.Null()])), appId: Type.Optional(Type.Union([Id, Type.Null()])) })),
    price: Decimal,
    name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100000 }), Type.Null()])),
  }), { minItems: 1, maxItems: 50 }),
  tipChoice: TipChoiceInput,
  tipSettingsId: Type.Optional(Type.Union([Id, Type.Null()])),
  draftOrderId: Type.Optional(Type.Union([Id, Type.Null()])),
});
const UpdateChoiceBody = Type.Object({ tipChoice: TipChoiceInput, purchaseFlowId: Id });

function wireTip(t: { id?: string; goods: bigint; amount: bigint; type: string; split: string }, currency: string) {
  return {
    ...(t.id !== undefined && { id: t.id }),
    lineItemSubtotal: formatAmount(t.goods, currency),
    amount: formatAmount(t.amount, currency),
    distributions: [],
    undistributedAmount: formatAmount(t.amount, currency),
    tipType: t.type,
    staffDistributionMethod: t.split,
  };
}

export function tipsRoutes(checkout: CheckoutService, cart: CartService, orders: OrdersService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const shop = { access: 'shop' } as const;
    for (const prefix of PREFIXES) {
      // What a choice would come to on some lines (no checkout needed): price × quantity, summed.
      app.post(`${prefix}/preview`, { config: shop, schema: { body: PreviewBody, response: { 200: W.TipResponse } } }, async (req) => {
        const site = await cart.site(req.ctx);
        const { currency } = site.settings;
        const settings = commerceSettingsOf(site).tips;
        const choice: TipChoice = req.body.tipChoice;
        const problem = tipChoiceProblem(choice, settings, currency);
        if (problem) throw new ApiError(400, 'INVALID_TIP', problem, { tipChoice: choice });
        let goods = 0n;
        try {
          for (const line of req.body.lineItemInfo) goods += multiply(parseAmount(line.price, currency), line.quantity ?? 1);
        } catch (error) {
          if (!(error instanceof MoneyError)) throw error;
          throw ApiError.validation([{ field: 'lineItemInfo.price', rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message }]);
        }
        return { tip: wireTip({ goods, amount: tipAmount(choice, goods, currency), type: choice.tipType, split: settings.split }, currency) };
      });

      app.get(`${prefix}/choice/:purchaseFlowId`, { config: shop, schema: { params: Type.Object({ purchaseFlowId: Id }), response: { 200: W.TipChoiceResponse } } }, async (req) => {
        const view = await checkout.getCheckout(req.ctx, req.params.purchaseFlowId);
        return view.checkout.tipChoice ? { tipChoice: view.checkout.tipChoice } : {};
      });

      app.patch(`${prefix}/choice`, { config: shop, schema: { body: UpdateChoiceBody, response: { 200: W.TipChoiceResponse } } }, async (req) => {
        const view = await checkout.setTipChoice(req.ctx, req.body.purchaseFlowId, req.body.tipChoice);
        return view.checkout.tipChoice ? { tipChoice: view.checkout.tipChoice } : {};
      });

      app.get(`${prefix}/order/:orderId`, { config: { access: 'staff' }, schema: { params: Type.Object({ orderId: Id }), response: { 200: W.TipResponse } } }, async (req) => {
        const order = await orders.getOrder(req.ctx, req.params.orderId);
        if (!order.tip) throw ApiError.notFound('TIP_NOT_FOUND', `Order ${order.number} has no tip`, { orderId: order.id });
        return { tip: wireTip(order.tip, order.currency) };
      });
    }
  };
}
