// The answers of /bodega/v1/webhooks: they write the wire, document it (openapi.json) and are the
// SDK's types (npm run gen:sdk-types).
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

export const WebhookFormat = oneOf(['WIX', 'STANDARD'] as const, { title: 'WebhookFormat' });
export const DeliveryStatus = oneOf(['PENDING', 'SENDING', 'DELIVERED', 'FAILED'] as const, { title: 'DeliveryStatus' });

export const WebhookSubscription = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  format: WebhookFormat,
  status: oneOf(['ACTIVE', 'PAUSED'] as const),
  pausedReason: Type.Optional(Type.String()),
  failuresInRow: Type.Integer(),
  createdDate: Timestamp,
  updatedDate: Timestamp,
}, { title: 'WebhookSubscription' });

export const WebhookDelivery = Type.Object({
  id: Type.String(),
  subscriptionId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  entityId: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  nextAttemptDate: Type.Optional(Timestamp),
  lastError: Type.Optional(Type.String()),
  replayOf: Type.Optional(Type.String()),
  createdDate: Timestamp,
  finishedDate: Type.Optional(Timestamp),
  attemptLog: Type.Array(Type.Object({
    attempt: Type.Integer(),
    startedDate: Timestamp,
    durationMs: Type.Integer(),
    statusCode: Type.Optional(Type.Integer()),
    error: Type.Optional(Type.String()),
    responseExcerpt: Type.Optional(Type.String()),
  })),
}, { title: 'WebhookDelivery' });

export const OneSubscription = Type.Object({ subscription: WebhookSubscription });
export const CreatedSubscription = Type.Object({
  subscription: WebhookSubscription,
  secret: Type.String({ description: 'Signs STANDARD deliveries; shown this once.' }),
});
export const SubscriptionList = Type.Object({ subscriptions: Type.Array(WebhookSubscription) });
export const DeliveryList = Type.Object({ deliveries: Type.Array(WebhookDelivery) });
export const OneDelivery = Type.Object({ delivery: WebhookDelivery });
export const TestSent = Type.Object({ deliveryId: Type.String() });
export const PublicKey = Type.Object({ publicKey: Type.String({ description: 'PEM' }), algorithm: Type.String() });
export const Empty = Type.Object({});
