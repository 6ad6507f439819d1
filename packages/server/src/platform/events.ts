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

/** Records several events with one statement (bulk writes), in the caller's transaction. */
export async function recordEvents(tx: Queryable, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => ({
    site_id: event.siteId,
    event_id: newId(),
    type: event.type,
    entity_type: event.entityType,
    entity_id: event.entityId,
    payload: event.payload ?? {},
  }));
  await tx.query(
    `INSERT INTO outbox_events (site_id, event_id, type, entity_type, entity_id, payload)
     SELECT site_id, event_id, type, entity_type, entity_id, payload
     FROM jsonb_to_recordset($1::jsonb) AS e(site_id text, event_id text, type text, entity_type text, entity_id text, payload jsonb)`,
    [JSON.stringify(rows)],
  );
}
