// The answers of the merchant's order tools: timeline activities (addActivity, addActivities,
// updateActivity, deleteActivity) and draft orders (@wix/ecom draftOrders). An order and a draft
// order are written whole as their wire functions make them (the order's own schema is the
// orders routes'); the envelope around them is fixed here.
import { Type } from 'typebox';
import { oneOf } from '../../platform/wire-schema.js';

/** An order as toWireOrder writes it. */
const WireOrder = Type.Object({ id: Type.String() }, { additionalProperties: true });

export const ActivityAdded = Type.Object({ order: WireOrder, activityId: Type.String() });
export const ActivitiesAdded = Type.Object({ order: WireOrder, activityIds: Type.Array(Type.String()) });
export const OrderAnswer = Type.Object({ order: WireOrder });

export const EditingStatus = oneOf(['DRAFT', 'COMMITTED'] as const, { title: 'DraftOrderEditingStatus' });

/** A draft order as toWireDraftOrder writes it (lines, buyer, shipping and totals are the checkout's shapes). */
const WireDraftOrder = Type.Object({
  id: Type.String(),
  status: EditingStatus,
  currency: Type.String(),
}, { additionalProperties: true });

export const CalculatedDraftOrderAnswer = Type.Object({
  calculatedDraftOrder: Type.Object({
    draftOrder: WireDraftOrder,
    shippingOptions: Type.Array(Type.Object({}, { additionalProperties: true })),
    calculationErrors: Type.Optional(Type.Object({}, { additionalProperties: true })),
  }),
});
export const CommittedAnswer = Type.Object({ committedDraftOrder: WireDraftOrder, orderAfterCommit: WireOrder });
export const CreatedOrderAnswer = Type.Object({ committedDraftOrder: WireDraftOrder, createdOrder: WireOrder });
export const DraftOrdersPage = Type.Object({
  draftOrders: Type.Array(WireDraftOrder),
  pagingMetadata: Type.Object({ count: Type.Integer(), cursors: Type.Object({ next: Type.Optional(Type.String()) }), hasNext: Type.Boolean() }),
});
export const Empty = Type.Object({});
export const Draftability = Type.Object({ orderId: Type.String(), orderDraftable: Type.Boolean(), nonDraftableReasons: Type.Array(Type.String()) });
