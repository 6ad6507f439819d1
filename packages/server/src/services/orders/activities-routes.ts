// The official addActivity / addActivities / updateActivity / deleteActivity calls of
// @wix/ecom orders: the merchant's notes and custom activities on an order's timeline.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { PageBase } from '../../platform/page-base.js';
import type { ActivityInput, OrderActivities } from './activities.js';
import { toWireOrder } from './wire.js';
import * as W from './draft-orders-wire-schemas.js';

const ORDER_PREFIXES = ['/ecom/v1', '/_api/ecom-orders/v1'];
const Id = Type.String({ minLength: 1, maxLength: 100 });

const ActivityBody = Type.Object({
  merchantComment: Type.Optional(Type.Object({ message: Type.String({ minLength: 1, maxLength: 5000 }) })),
  customActivity: Type.Optional(Type.Object({
    appId: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    type: Type.String({ minLength: 1, maxLength: 100 }),
    additionalData: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1000 }), { maxProperties: 50 })),
  })),
});
type WireActivity = Static<typeof ActivityBody>;

function fromWire(activity: WireActivity, field: string): ActivityInput {
  if (activity.merchantComment && activity.customActivity) {
    throw ApiError.validation([{ field, rule: 'ONE_OF_ALIGNMENT', description: 'give merchantComment or customActivity, not both' }]);
  }
  if (activity.merchantComment) return { kind: 'comment', message: activity.merchantComment.message };
  if (activity.customActivity) {
    const c = activity.customActivity;
    return { kind: 'custom', type: c.type, ...(c.appId ? { appId: c.appId } : {}), additionalData: c.additionalData ?? {} };
  }
  throw ApiError.validation([{ field, rule: 'REQUIRED_ONE_OF_FIELD', description: 'give merchantComment or customActivity' }]);
}

export function activitiesRoutes(activities: OrderActivities, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;
    for (const prefix of ORDER_PREFIXES) {
      app.post(`${prefix}/orders/:id/activities`, {
        config,
        schema: { params: Type.Object({ id: Id }), body: Type.Object({ id: Type.Optional(Id), activity: ActivityBody }), response: { 200: W.ActivityAdded } },
      }, async (req) => {
        const { order, activityIds } = await activities.add(req.ctx, req.params.id, [fromWire(req.body.activity, 'activity')]);
        return { order: toWireOrder(order, await pageBase(req.ctx)), activityId: activityIds[0] };
      });

      app.post(`${prefix}/orders/:orderId/activities/add`, {
        config,
        schema: {
          params: Type.Object({ orderId: Id }),
          body: Type.Object({ orderId: Type.Optional(Id), orderActivities: Type.Array(ActivityBody, { minItems: 1, maxItems: 100 }) }),
          response: { 200: W.ActivitiesAdded },
        },
      }, async (req) => {
        const inputs = req.body.orderActivities.map((a, i) => fromWire(a, `orderActivities[${i}]`));
        const { order, activityIds } = await activities.add(req.ctx, req.params.orderId, inputs);
        return { order: toWireOrder(order, await pageBase(req.ctx)), activityIds };
      });

      app.patch(`${prefix}/orders/:id/activities/:activityId`, {
        config,
        schema: { params: Type.Object({ id: Id, activityId: Id }), body: Type.Object({ activity: ActivityBody }), response: { 200: W.OrderAnswer } },
      }, async (req) => {
        const order = await activities.update(req.ctx, req.params.id, req.params.activityId, fromWire(req.body.activity, 'activity'));
        return { order: toWireOrder(order, await pageBase(req.ctx)) };
      });

      app.delete(`${prefix}/orders/:id/activities/:activityId`, {
        config,
        schema: { params: Type.Object({ id: Id, activityId: Id }), response: { 200: W.OrderAnswer } },
      }, async (req) => ({ order: toWireOrder(await activities.remove(req.ctx, req.params.id, req.params.activityId), await pageBase(req.ctx)) }));
    }
  };
}
