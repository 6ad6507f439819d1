// The merchant's own entries on an order's timeline: notes (MERCHANT_COMMENT) and custom
// activities an app writes (CUSTOM_ACTIVITY), added, changed and removed under the order's row
// lock and written to the audit log. The entries the shop writes itself (placed, paid, refunded,
// tracking number added, fulfilled, edited) are not the merchant's to change.
import { ApiError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/caller.js';
import { newId } from '../../platform/ids.js';
import type { Order, OrderActivity } from './model.js';
import type { OrdersService } from './service.js';

/** What a merchant may put on the timeline. */
export type ActivityInput =
  | { kind: 'comment'; message: string }
  | { kind: 'custom'; type: string; appId?: string; additionalData: Record<string, string> };

export const MAX_ACTIVITIES = 500;

function entry(input: ActivityInput, id: string, at: Date): OrderActivity {
  return input.kind === 'comment'
    ? { id, type: 'MERCHANT_COMMENT', createdDate: at, message: input.message }
    : { id, type: 'CUSTOM_ACTIVITY', createdDate: at, custom: { type: input.type, ...(input.appId ? { appId: input.appId } : {}), additionalData: input.additionalData } };
}

function editable(order: Order, activityId: string): OrderActivity {
  const found = order.activities.find((a) => a.id === activityId);
  if (!found) throw ApiError.notFound('ACTIVITY_NOT_FOUND', `Order ${order.id} has no activity ${activityId}`, { orderId: order.id, activityId });
  if (found.type !== 'MERCHANT_COMMENT' && found.type !== 'CUSTOM_ACTIVITY') {
    throw new ApiError(400, 'ACTIVITY_NOT_EDITABLE', `A ${found.type} activity is written by the shop and cannot be changed or removed`, { activityId, type: found.type });
  }
  return found;
}

export class OrderActivities {
  constructor(private readonly orders: OrdersService) {}

  /** Appends the entries in the given order; answers the order and the new entries' ids. */
  async add(ctx: RequestContext, orderId: string, inputs: readonly ActivityInput[]): Promise<{ order: Order; activityIds: string[] }> {
    const ids = inputs.map(() => newId());
    const order = await this.orders.mutate(ctx, orderId, (current) => {
      if (current.activities.length + inputs.length > MAX_ACTIVITIES) {
        throw new ApiError(400, 'TOO_MANY_ACTIVITIES', `An order keeps at most ${MAX_ACTIVITIES} activities`, { limit: MAX_ACTIVITIES });
      }
      const at = ctx.now();
      const added = inputs.map((input, i) => entry(input, ids[i], at));
      return { order: { ...current, activities: [...current.activities, ...added], updatedDate: at }, events: ['order.updated'] };
    }, { action: 'order.activity_added', details: () => ({ activityIds: ids, kinds: inputs.map((i) => (i.kind === 'comment' ? 'MERCHANT_COMMENT' : `CUSTOM_ACTIVITY:${i.type}`)) }) });
    return { order, activityIds: ids };
  }

  /** Replaces a note's text or a custom activity's content (its kind stays what it was). */
  async update(ctx: RequestContext, orderId: string, activityId: string, input: ActivityInput): Promise<Order> {
    return this.orders.mutate(ctx, orderId, (current) => {
      const found = editable(current, activityId);
      const wanted = input.kind === 'comment' ? 'MERCHANT_COMMENT' : 'CUSTOM_ACTIVITY';
      if (found.type !== wanted) throw new ApiError(400, 'ACTIVITY_TYPE_MISMATCH', `Activity ${activityId} is a ${found.type}; it stays one`, { activityId, type: found.type });
      const replaced = entry(input, found.id, found.createdDate);
      return { order: { ...current, activities: current.activities.map((a) => (a.id === activityId ? replaced : a)), updatedDate: ctx.now() }, events: ['order.updated'] };
    }, { action: 'order.activity_updated', details: () => ({ activityId }) });
  }

  async remove(ctx: RequestContext, orderId: string, activityId: string): Promise<Order> {
    return this.orders.mutate(ctx, orderId, (current) => {
      editable(current, activityId);
      return { order: { ...current, activities: current.activities.filter((a) => a.id !== activityId), updatedDate: ctx.now() }, events: ['order.updated'] };
    }, { action: 'order.activity_deleted', details: () => ({ activityId }) });
  }
}
