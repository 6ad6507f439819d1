import { prepared } from './db.js';
import type { DbContext } from './context.js';
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

/** Event types the worker turns into e-mails (order mails): recorded whether or not a webhook wants them. */
export const MAILED_EVENT_TYPES: readonly string[] = ['order.created', 'order.fulfillment_created', 'order.payment_failed', 'order.payment_disputed', 'order.refunded_at_provider'];

/**
 * SQL: is an event of this site and type consumed? Apart from the order e-mails, the outbox's only
 * reader is the webhook fan-out, so a row nobody subscribes to is never written. It is read in the
 * writing statement's own snapshot (no cache): a subscription committed before the change always
 * gets its event. A subscription names a Bodega type, `bodega.<type>`, `*`, or a Wix type; every
 * Wix type starts with `wix.` (envelope.ts), and any Wix name keeps the site's every event, so the
 * guard never needs the Wix mapping (it may keep an event nobody takes, never drop one). The
 * lookup is the subscriptions' primary key on site_id (at most 50 rows a site).
 */
export function outboxWanted(siteId: string, type: string): string {
  return `(${type} IN (${MAILED_EVENT_TYPES.map((t) => `'${t}'`).join(', ')}) OR EXISTS (SELECT 1 FROM webhook_subscriptions ws
      WHERE ws.site_id = ${siteId} AND (ws.event_types && ARRAY['*', ${type}, 'bodega.' || ${type}]
        OR EXISTS (SELECT 1 FROM unnest(ws.event_types) AS wt(name) WHERE wt.name LIKE 'wix.%'))))`;
}

/** A new event's id (what recordEvent gives each row). */
export function newEventId(): string {
  return newId();
}

/**
 * The outbox insert as one step of a larger statement, for a write that must stay one statement
 * (add-to-cart): each field is an SQL expression over `from`, e.g. a CTE's RETURNING rows, so the
 * event commits exactly with the change. Use it inside `WITH event AS (…)`. `from` is a FROM list
 * (no WHERE): the statement adds the outboxWanted guard, so it writes no row nobody will read.
 */
export function outboxInsertFrom(row: { siteId: string; eventId: string; type: string; entityType: string; entityId: string; payload: string }, from: string): string {
  return `INSERT INTO outbox_events (${OUTBOX_COLUMNS})
    SELECT ${row.siteId}, ${row.eventId}, ${row.type}, ${row.entityType}, ${row.entityId}, ${row.payload} FROM ${from}
    WHERE ${outboxWanted(row.siteId, row.type)}`;
}

/**
 * Records an event in the outbox inside the caller's transaction, so it exists exactly when the
 * change it describes committed. Delivery (webhooks, mail) claims rows later. An event nothing
 * consumes (outboxWanted) is not written; the id is returned either way.
 */
export async function recordEvent(ctx: DbContext, event: OutboxEvent): Promise<string> {
  const eventId = newId();
  // The same statement as a batch's: on Citus an insert of plain values takes its seq from the
  // coordinator's range and one from a row set from the worker's, so one form keeps a site's
  // events in the order they were written (add-to-cart's outboxInsertFrom is the worker's too).
  const row = { event_id: eventId, type: event.type, entity_type: event.entityType, entity_id: event.entityId, payload: event.payload ?? {} };
  await ctx.db.query(RECORD_EVENTS, [event.siteId, JSON.stringify([row])]);
  return eventId;
}

/**
 * Records several events with one statement per site (bulk writes are one site's), in the
 * caller's transaction. The site id is a parameter, not a column of the input, so the statement
 * names the one site it touches (on Citus: one shard).
 */
export async function recordEvents(ctx: DbContext, events: readonly OutboxEvent[]): Promise<void> {
  for (const siteId of new Set(events.map((event) => event.siteId))) {
    const rows = events.filter((event) => event.siteId === siteId).map((event) => ({
      event_id: newId(),
      type: event.type,
      entity_type: event.entityType,
      entity_id: event.entityId,
      payload: event.payload ?? {},
    }));
    await ctx.db.query(RECORD_EVENTS, [siteId, JSON.stringify(rows)]);
  }
}

const RECORD_EVENTS = prepared(`INSERT INTO outbox_events (${OUTBOX_COLUMNS})
  SELECT $1::text, e.event_id, e.type, e.entity_type, e.entity_id, e.payload
  FROM jsonb_to_recordset($2::jsonb) AS e(event_id text, type text, entity_type text, entity_id text, payload jsonb)
  WHERE ${outboxWanted('$1::text', 'e.type')}`);
