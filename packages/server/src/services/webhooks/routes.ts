import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Delivery, Subscription, WebhooksService } from './service.js';
import { MAX_EVENT_TYPES } from './service.js';
import * as W from './wire-schemas.js';

const PREFIX = '/bodega/v1/webhooks';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_EVENT_TYPES });
const Format = Type.Union([Type.Literal('WIX'), Type.Literal('STANDARD')]);
const Status = Type.Union([Type.Literal('PENDING'), Type.Literal('SENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]);

const CreateBody = Type.Object({ subscription: Type.Object({ url: Url, eventTypes: EventTypes, format: Type.Optional(Format) }) });
const UpdateBody = Type.Object({ subscription: Type.Object({ url: Type.Optional(Url), eventTypes: Type.Optional(EventTypes), format: Type.Optional(Format) }) });
const SubscriptionParams = Type.Object({ id: Id });
const DeliveryParams = Type.Object({ id: Id, deliveryId: Id });
const LogQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  status: Type.Optional(Status),
});

function wireSubscription(s: Subscription) {
  return {
    id: s.id,
    url: s.url,
    eventTypes: s.eventTypes,
    format: s.format,
    status: s.status,
    ...(s.pausedReason ? { pausedReason: s.pausedReason } : {}),
    failuresInRow: s.failuresInRow,
    createdDate: s.createdDate.toISOString(),
    updatedDate: s.updatedDate.toISOString(),
  };
}

function wireDelivery(d: Delivery) {
  return {
    id: d.id,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    entityId: d.entityId,
    status: d.status,
    attempts: d.attempts,
    ...(d.nextAttemptDate ? { nextAttemptDate: d.nextAttemptDate.toISOString() } : {}),
    ...(d.lastError ? { lastError: d.lastError } : {}),
    ...(d.replayOf ? { replayOf: d.replayOf } : {}),
    createdDate: d.createdDate.toISOString(),
    ...(d.finishedDate ? { finishedDate: d.finishedDate.toISOString() } : {}),
    attemptLog: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      startedDate: a.startedDate.toISOString(),
      durationMs: a.durationMs,
      ...(a.statusCode !== null ? { statusCode: a.statusCode } : {}),
      ...(a.error ? { error: a.error } : {}),
      ...(a.responseExcerpt ? { responseExcerpt: a.responseExcerpt } : {}),
    })),
  };
}

/** Subscriptions, the delivery log and the site's public key, for API keys and the back office. */
export function webhooksRoutes(webhooks: WebhooksService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'owner' } as const;

    app.get(`${PREFIX}/public-key`, { config, schema: { response: { 200: W.PublicKey } } }, async (req) => ({ publicKey: await webhooks.publicKey(req.ctx), algorithm: 'RS256' }));

    app.post(PREFIX, { config, schema: { body: CreateBody, response: { 200: W.CreatedSubscription } } }, async (req) => {
      const { subscription, secret } = await webhooks.create(req.ctx, req.body.subscription);
      return { subscription: wireSubscription(subscription), secret };
    });

    app.get(PREFIX, { config, schema: { response: { 200: W.SubscriptionList } } }, async (req) => ({ subscriptions: (await webhooks.list(req.ctx)).map(wireSubscription) }));

    app.get(`${PREFIX}/:id`, { config, schema: { params: SubscriptionParams, response: { 200: W.OneSubscription } } }, async (req) => ({ subscription: wireSubscription(await webhooks.get(req.ctx, req.params.id)) }));

    app.patch(`${PREFIX}/:id`, { config, schema: { params: SubscriptionParams, body: UpdateBody, response: { 200: W.OneSubscription } } }, async (req) => ({
      subscription: wireSubscription(await webhooks.update(req.ctx, req.params.id, req.body.subscription)),
    }));

    app.delete(`${PREFIX}/:id`, { config, schema: { params: SubscriptionParams, response: { 200: W.Empty } } }, async (req) => {
      await webhooks.remove(req.ctx, req.params.id);
      return {};
    });

    app.post(`${PREFIX}/:id/pause`, { config, schema: { params: SubscriptionParams, response: { 200: W.OneSubscription } } }, async (req) => ({ subscription: wireSubscription(await webhooks.pause(req.ctx, req.params.id)) }));
    app.post(`${PREFIX}/:id/resume`, { config, schema: { params: SubscriptionParams, response: { 200: W.OneSubscription } } }, async (req) => ({ subscription: wireSubscription(await webhooks.resume(req.ctx, req.params.id)) }));
    app.post(`${PREFIX}/:id/test`, { config, schema: { params: SubscriptionParams, response: { 200: W.TestSent } } }, async (req) => ({ deliveryId: await webhooks.ping(req.ctx, req.params.id) }));

    app.get(`${PREFIX}/:id/deliveries`, { config, schema: { params: SubscriptionParams, querystring: LogQuery, response: { 200: W.DeliveryList } } }, async (req) => {
      const deliveries = await webhooks.deliveries(req.ctx, req.params.id, { limit: req.query.limit ?? 50, offset: req.query.offset ?? 0, status: req.query.status });
      return { deliveries: deliveries.map(wireDelivery) };
    });

    app.get(`${PREFIX}/:id/deliveries/:deliveryId`, { config, schema: { params: DeliveryParams, response: { 200: W.OneDelivery } } }, async (req) => ({
      delivery: wireDelivery(await webhooks.delivery(req.ctx, req.params.id, req.params.deliveryId)),
    }));

    app.post(`${PREFIX}/:id/deliveries/:deliveryId/replay`, { config, schema: { params: DeliveryParams, response: { 200: W.OneDelivery } } }, async (req) => ({
      delivery: wireDelivery(await webhooks.replay(req.ctx, req.params.id, req.params.deliveryId)),
    }));
  };
}
