import { prepared, type Queryable } from './db.js';
import { newId } from './ids.js';

export interface OutboxEvent {
  siteId: string;
  /** e.g. `cart.created`, `order.paid`, `member.blocked`. */
  type: string;
  entityType: string;
  entityId: string;
  payload: unknown;
}

const OUTBOX_COLUMNS = 'site_id, event_id, type, entity_type, entity_id, payload';

/** A new event's id (what recordEvent gives each row). */
export function newEventId(): string {
  return newId();
}

/**
 * The outbox insert as one step of a larger statement, for a write that must stay one statement
 * (add-to-cart): each field is an SQL expression over `from`, e.g. a CTE's RETURNING rows, so the
 * event commits exactly with the change. Use it inside `WITH event AS (…)`.
 */
export function outboxInsertFrom(row: { siteId: string; eventId: string; type: string; entityType: string; entityId: string; payload: string }, from: string): string {
  return `INSERT INTO outbox_events (${OUTBOX_COLUMNS})
    SELECT ${row.siteId}, ${row.eventId}, ${row.type}, ${row.entityType}, ${row.entityId}, ${row.payload} FROM ${from}`;
}

const RECORD_EVENT = prepared(`INSERT INTO outbox_events (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`);

/**
 * Records an event in the outbox inside the caller's transaction, so it exists exactly when the
 * change it describes committed. Delivery (webhooks, mail) claims rows later.
 */
export async function recordEvent(tx: Queryable, event: OutboxEvent): Promise<string> {
  const eventId = newId();
  await tx.query(
    RECORD_EVENT,
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
    `INSERT INTO outbox_events (${OUTBOX_COLUMNS})
     SELECT ${OUTBOX_COLUMNS}
     FROM jsonb_to_recordset($1::jsonb) AS e(site_id text, event_id text, type text, entity_type text, entity_id text, payload jsonb)`,
    [JSON.stringify(rows)],
  );
}
