// The audit log's one writer: every staff or API-key action on money, access or settings calls
// recordAudit inside the transaction of its change, so an entry exists exactly when the change
// committed. The list, the CSV, the retention and its prune are services/audit's.
import type { Caller } from './caller.js';
import type { SiteContext } from './context.js';
import { prepared } from './db.js';
import { newEventId } from './events.js';
import { newId } from './ids.js';

/** What a service tells about one action; who, when, from where come from the context. */
export interface AuditEntry {
  /** `<object>.<verb>`, e.g. `order.refunded`, `member.role_changed`, `export.orders`. */
  action: string;
  objectType: string;
  objectId: string;
  /** The changed settings as they were and are (or what the action did, e.g. a refund's amount). */
  before?: unknown;
  after?: unknown;
}

/** A request's context (caller, request id, IP), or a site's outside a request (recorded as SYSTEM). */
export type AuditContext = SiteContext & { readonly caller?: Caller; readonly requestId?: string; readonly ip?: string };

export const AUDIT_EVENT_TYPE = 'audit.recorded';

/** The entry as the webhook event carries it: the same fields as the back-office list (services/audit). */
const EVENT_PAYLOAD = `jsonb_strip_nulls(jsonb_build_object(
  'id', e.entry_id, 'recordedDate', to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'actor', jsonb_build_object('kind', e.actor_kind, 'id', e.actor_id, 'role', e.actor_role, 'email', e.actor_email),
  'action', e.action, 'object', jsonb_build_object('type', e.object_type, 'id', e.object_id),
  'before', e.before, 'after', e.after, 'ip', e.ip, 'requestId', e.request_id))`;

// One statement: the row, the actor's e-mail read from their member row, and the outbox event
// when a subscription names \`audit.recorded\` (only then: a \`*\` or Wix-named subscription does not
// get the audit log, services/webhooks/envelope.ts \`subscribes\`).
const RECORD_AUDIT = prepared(`WITH e AS (
    INSERT INTO audit_log (site_id, entry_id, recorded_at, actor_kind, actor_id, actor_role, actor_email, action, object_type, object_id, before, after, ip, request_id)
    SELECT $1::text, $2::text, $3::timestamptz, $4::text, $5::text, $6::text,
      CASE WHEN $4::text = 'MEMBER' THEN (SELECT m.login_email FROM members m WHERE m.site_id = $1::text AND m.member_id = $5::text) END,
      $7::text, $8::text, $9::text, $10::jsonb, $11::jsonb, $12::text, $13::text
    RETURNING *
  ), event AS (
    INSERT INTO outbox_events (site_id, event_id, type, entity_type, entity_id, payload)
    SELECT e.site_id, $14::text, '${AUDIT_EVENT_TYPE}', 'audit_entry', e.entry_id, ${EVENT_PAYLOAD} FROM e
     WHERE EXISTS (SELECT 1 FROM webhook_subscriptions ws
                    WHERE ws.site_id = $1::text AND ws.event_types && ARRAY['${AUDIT_EVENT_TYPE}', 'bodega.${AUDIT_EVENT_TYPE}'])
  )
  SELECT entry_id FROM e`);

function actorOf(caller: Caller | undefined): { kind: 'MEMBER' | 'API_KEY' | 'SYSTEM'; id: string | null; role: string | null } {
  if (!caller) return { kind: 'SYSTEM', id: null, role: null };
  if (caller.kind === 'APP') return { kind: 'API_KEY', id: caller.subjectId, role: null };
  if (caller.kind === 'WIX_USER' || caller.kind === 'MEMBER') return { kind: 'MEMBER', id: caller.subjectId, role: caller.memberRole ?? 'MEMBER' };
  return { kind: 'SYSTEM', id: null, role: null };
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Appends one entry through the context's handle: inside the change's transaction it commits or
 * rolls back with the change. Returns the entry's id.
 */
export async function recordAudit(ctx: AuditContext, entry: AuditEntry): Promise<string> {
  const actor = actorOf(ctx.caller);
  const entryId = newId();
  await ctx.db.query(RECORD_AUDIT, [
    ctx.siteId, entryId, ctx.now(), actor.kind, actor.id, actor.role,
    entry.action, entry.objectType, entry.objectId, json(entry.before), json(entry.after),
    ctx.ip ?? null, ctx.requestId ?? null, newEventId(),
  ]);
  return entryId;
}

/**
 * The settings that differ between two views, as `{before, after}` with only those keys (values
 * compared as JSON); undefined when nothing changed.
 */
export function settingsChange(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  if (changed.length === 0) return undefined;
  const pick = (view: Record<string, unknown>) => Object.fromEntries(changed.map((key) => [key, view[key] ?? null]));
  return { before: pick(before), after: pick(after) };
}
