import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { registerPerIpLimit } from '../../platform/limits.js';
import { formatAmount, MoneyError, parseAmount } from '../../platform/money.js';
import type { SiteContext } from '../../platform/context.js';
import { currentBuyer } from '../commerce/buyer.js';
import type { GiftCardsService } from './service.js';
import { toWireGiftCard, toWireLedgerEntry } from './wire.js';
import { GiftCardAnswer, GiftCardCustomAmounts, GiftCardList, GiftCardPage, GiftCardSettingsAnswer, GiftCardWithLedger } from './wire-schemas.js';

const PREFIX = '/bodega/v1/gift-cards';
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Params = Type.Object({ id: Id });
const Decimal = Type.String({ minLength: 1, maxLength: 24 });
const CheckBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
const IssueBody = Type.Object({
  amount: Decimal,
  recipientName: Type.Optional(Type.String({ maxLength: 200 })),
  recipientEmail: Type.Optional(Type.String({ maxLength: 254, format: 'email' })),
  message: Type.Optional(Type.String({ maxLength: 1000 })),
  expirationDate: Type.Optional(Type.String({ format: 'date-time' })),
  note: Type.Optional(Type.String({ maxLength: 500 })),
});
const AdjustBody = Type.Object({ amount: Decimal, reason: Type.String({ minLength: 1, maxLength: 500 }) });
const SettingsBody = Type.Object({
  productIds: Type.Array(Id, { maxItems: 100 }),
  minCustomAmount: Type.Optional(Type.Union([Decimal, Type.Null()])),
  maxCustomAmount: Type.Optional(Type.Union([Decimal, Type.Null()])),
  validityMonths: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 600 }), Type.Null()])),
});

export interface GiftCardRoutesOptions {
  /** The site's currency (cards are issued in it). */
  currency(ctx: SiteContext): Promise<string>;
  /** Balance checks per minute per IP, as for sign-in; read per request, 0 turns it off. */
  rateLimitPerMinute: () => number;
}

/** A decimal amount in the site's currency; `signed` lets it start with a minus. */
function amountOf(text: string, currency: string, field: string, signed = false): bigint {
  const negative = signed && text.startsWith('-');
  try {
    const minor = parseAmount(negative ? text.slice(1) : text, currency);
    return negative ? -minor : minor;
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    throw ApiError.validation([{ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message }]);
  }
}

/** Balance checks (rate-limited), a member's cards, and the back office's gift cards. */
export function giftCardRoutes(giftCards: GiftCardsService, options: GiftCardRoutesOptions) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    await registerPerIpLimit(app, options.rateLimitPerMinute, 'balance checks');
    const staff = { access: 'staff' } as const;

    app.post(`${PREFIX}/check-balance`, { config: { access: 'shop', rateLimit: {} }, schema: { body: CheckBody, response: { 200: GiftCardAnswer } } }, async (req) => {
      const card = await giftCards.checkBalance(req.ctx, req.body.code);
      return { giftCard: toWireGiftCard(card, { showCode: false }) };
    });

    // The shop's product page: which products are gift cards and the custom amounts they take
    // (both limits, or none: custom amounts are off).
    app.get(`${PREFIX}/custom-amounts`, { config: { access: 'shop' }, schema: { response: { 200: GiftCardCustomAmounts } } }, async (req) => {
      const [s, currency] = [await giftCards.settings(req.ctx), await options.currency(req.ctx)];
      const on = s.minCustomAmount !== null && s.maxCustomAmount !== null;
      return { productIds: s.productIds, currency, minCustomAmount: on ? formatAmount(s.minCustomAmount ?? 0n, currency) : null, maxCustomAmount: on ? formatAmount(s.maxCustomAmount ?? 0n, currency) : null };
    });

    app.get(`${PREFIX}/my`, { config: { access: 'self' }, schema: { response: { 200: GiftCardList } } }, async (req) => {
      const cards = await giftCards.myCards(req.ctx, currentBuyer(req.ctx));
      return { giftCards: cards.map((c) => toWireGiftCard(c, { showCode: true })) };
    });

    app.get(PREFIX, { config: staff, schema: { querystring: ListQuery, response: { 200: GiftCardPage } } }, async (req) => {
      const limit = req.query.limit ?? 50;
      const offset = req.query.offset ?? 0;
      const { cards, total } = await giftCards.list(req.ctx, { ...(req.query.search && { search: req.query.search }), limit, offset });
      return { giftCards: cards.map((c) => toWireGiftCard(c, { showCode: true })), pagingMetadata: { count: cards.length, offset, total } };
    });

    app.post(PREFIX, { config: staff, schema: { body: IssueBody, response: { 200: GiftCardAnswer } } }, async (req) => {
      const body = req.body;
      const currency = await options.currency(req.ctx);
      const card = await giftCards.issue(req.ctx, {
        amount: amountOf(body.amount, currency, 'amount'),
        currency,
        ...(body.recipientName && { recipientName: body.recipientName }),
        ...(body.recipientEmail && { recipientEmail: body.recipientEmail }),
        ...(body.message && { message: body.message }),
        ...(body.expirationDate && { expiresAt: new Date(body.expirationDate) }),
        ...(body.note && { note: body.note }),
      });
      return { giftCard: toWireGiftCard(card, { showCode: true }) };
    });

    app.get(`${PREFIX}/settings`, { config: staff, schema: { response: { 200: GiftCardSettingsAnswer } } }, async (req) => {
      const [s, currency] = [await giftCards.settings(req.ctx), await options.currency(req.ctx)];
      return { settings: settingsToWire(s, currency) };
    });

    app.put(`${PREFIX}/settings`, { config: staff, schema: { body: SettingsBody, response: { 200: GiftCardSettingsAnswer } } }, async (req) => {
      const currency = await options.currency(req.ctx);
      const b = req.body;
      const saved = await giftCards.updateSettings(req.ctx, {
        productIds: b.productIds,
        minCustomAmount: b.minCustomAmount ? amountOf(b.minCustomAmount, currency, 'minCustomAmount') : null,
        maxCustomAmount: b.maxCustomAmount ? amountOf(b.maxCustomAmount, currency, 'maxCustomAmount') : null,
        validityMonths: b.validityMonths ?? null,
      });
      return { settings: settingsToWire(saved, currency) };
    });

    app.get(`${PREFIX}/:id`, { config: staff, schema: { params: Params, response: { 200: GiftCardWithLedger } } }, async (req) => {
      const { card, ledger } = await giftCards.get(req.ctx, req.params.id);
      return { giftCard: toWireGiftCard(card, { showCode: true }), ledger: ledger.map((e) => toWireLedgerEntry(e, card.currency)) };
    });

    app.post(`${PREFIX}/:id/adjust`, { config: staff, schema: { params: Params, body: AdjustBody, response: { 200: GiftCardAnswer } } }, async (req) => {
      const currency = await options.currency(req.ctx);
      const card = await giftCards.adjust(req.ctx, req.params.id, amountOf(req.body.amount, currency, 'amount', true), req.body.reason);
      return { giftCard: toWireGiftCard(card, { showCode: true }) };
    });

    for (const [verb, status] of [['disable', 'DISABLED'], ['enable', 'ACTIVE']] as const) {
      app.post(`${PREFIX}/:id/${verb}`, { config: staff, schema: { params: Params, response: { 200: GiftCardAnswer } } }, async (req) => ({
        giftCard: toWireGiftCard(await giftCards.setStatus(req.ctx, req.params.id, status), { showCode: true }),
      }));
    }
  };
}

function settingsToWire(s: Awaited<ReturnType<GiftCardsService['settings']>>, currency: string) {
  const money = (v: bigint | null) => (v === null ? null : formatAmount(v, currency));
  return { productIds: s.productIds, minCustomAmount: money(s.minCustomAmount), maxCustomAmount: money(s.maxCustomAmount), validityMonths: s.validityMonths };
}
