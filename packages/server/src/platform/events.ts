import type { Queryable } from './db.js';
import { newId } from './ids.js';

export interface OutboxEvent {
  siteId: string;
  /** e.g. `cart.created`, `order.paid`, `member.blocked`. */
  type: string;
  entityType: string;
  entityId: string;
  payload: unknown;
}

/**
 * Records an event in the outbox inside the caller's transaction, so it exists exactly when the
 * change it describes committed. Delivery (webhooks, mail) claims rows later.
 */
export async function recordEvent(tx: Queryable, event: OutboxEvent): Promise<string> {
  const eventId = newId();
  await tx.query(
    `INSERT INTO outbox_events (site_id, event_id, type, entity_type, entity_id, payload)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [event.siteId, eventId, event.type, event.entityType, event.entityId, JSON.stringify(event.payload ?? {})],
  );
  return eventId;
}
