import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { CheckoutService } from '../checkout/service.js';
import type { OrdersService } from '../orders/service.js';
import { CAPTURE_POLICIES, OFFLINE_METHODS, PROVIDERS, type PaymentSettings, type PaymentsService, type SettingsPatch } from './service.js';
import * as W from './wire-schemas.js';

const PREFIX = '/_api/bodega/v1';
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const SettingsBody = Type.Object({
  settings: Type.Object({
    provider: Type.Optional(literals(PROVIDERS)),
    capturePolicy: Type.Optional(literals(CAPTURE_POLICIES)),
    offlineMethods: Type.Optional(Type.Array(literals(OFFLINE_METHODS), { maxItems: 3, uniqueItems: true })),
    publishableKey: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 255, pattern: '^pk_' }), Type.Null()])),
    secretKey: Type.Optional(Type.String({ minLength: 8, maxLength: 255, pattern: '^(sk|rk)_' })),
    webhookSecret: Type.Optional(Type.String({ minLength: 8, maxLength: 255, pattern: '^whsec_' })),
  }, { additionalProperties: false }),
});
const ReturnParams = Type.Object({ checkoutId: Type.String({ minLength: 1, maxLength: 100 }) });
const ReturnBody = Type.Object({ paymentIntentId: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
const WebhookParams = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 40 }), siteId: Type.String({ minLength: 1, maxLength: 100 }) });

/** Payment settings hold the provider's keys: the owner and API keys only, never a contributor. */
function wireSettings(settings: PaymentSettings, siteId: string, publicUrl: string) {
  return { settings: { ...settings, webhookUrl: `${publicUrl.replace(/\/$/, '')}${PREFIX}/payments/webhooks/stripe/${encodeURIComponent(siteId)}` } };
}

export function paymentsRoutes(deps: { payments: PaymentsService; orders: OrdersService; checkout: CheckoutService; publicUrl: string }) {
  const { payments, checkout, publicUrl } = deps;
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const admin = { access: 'owner' } as const;

    app.get(`${PREFIX}/payment-settings`, { config: admin, schema: { response: { 200: W.PaymentSettingsAnswer } } }, async (req) => {
      return wireSettings(await payments.settings(req.ctx), req.ctx.siteId, publicUrl);
    });

    app.patch(`${PREFIX}/payment-settings`, { config: admin, schema: { body: SettingsBody, response: { 200: W.PaymentSettingsAnswer } } }, async (req) => {
      const s = req.body.settings;
      const patch: SettingsPatch = {
        ...(s.provider !== undefined && { provider: s.provider }),
        ...(s.capturePolicy !== undefined && { capturePolicy: s.capturePolicy }),
        ...(s.offlineMethods !== undefined && { offlineMethods: s.offlineMethods }),
        ...(s.publishableKey !== undefined && { publishableKey: s.publishableKey }),
        ...(s.secretKey !== undefined && { secretKey: s.secretKey }),
        ...(s.webhookSecret !== undefined && { webhookSecret: s.webhookSecret }),
      };
      return wireSettings(await payments.updateSettings(req.ctx, patch), req.ctx.siteId, publicUrl);
    });

    app.post(`${PREFIX}/payment-settings/test-connection`, { config: admin, schema: { response: { 200: W.ConnectionTest } } }, async (req) => {
      return payments.testConnection(req.ctx);
    });

    // What the storefront's payment step offers: never a secret.
    app.get(`${PREFIX}/payment-options`, { config: { access: 'shop' }, schema: { response: { 200: W.PaymentOptions } } }, async (req) => {
      const s = await payments.settings(req.ctx);
      return { provider: s.provider, publishableKey: s.provider === 'stripe' ? s.publishableKey : null, offlineMethods: s.offlineMethods };
    });

    // The shopper is back from the provider's own page (a full-page 3-D Secure redirect): the
    // payment is looked up at the provider, never taken from the URL's redirect_status, and the
    // order placed once, or the reason given in words (402 PAYMENT_DECLINED, as when paying).
    app.post(`${PREFIX}/checkouts/:checkoutId/payment-return`, { config: { access: 'shop' }, schema: { params: ReturnParams, body: ReturnBody, response: { 200: W.PaymentReturn } } }, async (req) => {
      const attempt = await payments.attemptOfCheckout(req.ctx, req.params.checkoutId, req.body.paymentIntentId);
      if (!attempt) throw ApiError.notFound('PAYMENT_NOT_FOUND', 'This checkout has no such payment: pay again', { checkoutId: req.params.checkoutId });
      return checkout.settleAttempt(req.ctx, attempt.id, req.ctx, { mode: 'lookup', returnUrl: '' });
    });

    // The provider's webhooks: public, trusted only once the provider's signature checks. The
    // signature covers the exact bytes, so this scope keeps the body as text.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      scope.withTypeProvider<TypeBoxTypeProvider>().post(`${PREFIX}/payments/webhooks/:provider/:siteId`, { schema: { params: WebhookParams, response: { 200: W.WebhookReceived } } }, async (req: FastifyRequest<{ Params: { provider: string; siteId: string } }>) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        const signature = req.headers['stripe-signature'];
        await checkout.providerWebhook(req.params.siteId, req.params.provider, raw, Array.isArray(signature) ? signature[0] : signature);
        return { received: true };
      });
    });
  };
}
