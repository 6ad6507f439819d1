// The audit log in the back office: `/bodega/v1/audit-log` (+ `.csv`, + `/settings`), owner and API keys only.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { CsvFile } from '../../platform/wire-schema.js';
import { AUDIT_LIMITS } from '../../platform/field-limits.js';
import { MAX_RETENTION_DAYS, type AuditFilter, type AuditRow, type AuditService } from './service.js';

export const AUDIT_PATH = '/bodega/v1/audit-log';

const Text = Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.text });
const Instant = Type.String({ minLength: 10, maxLength: 40, description: 'an ISO date or date-time' });
const FilterFields = {
  action: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.action, description: 'e.g. order.refunded, member.role_changed, export.orders' })),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_LIMITS.actor, description: "a member id, an API key id or the member's e-mail" })),
  objectType: Type.Optional(Text),
  objectId: Type.Optional(Text),
  from: Type.Optional(Instant),
  to: Type.Optional({ ...Instant, description: 'entries before this instant' }),
};
const ListQuery = Type.Object({
  ...FilterFields,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
}, { additionalProperties: false });
const CsvQuery = Type.Object(FilterFields, { additionalProperties: false });

const Entry = Type.Object({
  id: Type.String(),
  recordedDate: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    kind: Type.Union([Type.Literal('MEMBER'), Type.Literal('API_KEY'), Type.Literal('SYSTEM')]),
    id: Type.Optional(Type.String({ description: 'the member id or the API key id' })),
    role: Type.Optional(Type.String({ description: "the member's role when they acted" })),
    email: Type.Optional(Type.String()),
  }),
  action: Type.String(),
  object: Type.Object({ type: Type.String(), id: Type.String() }),
  before: Type.Optional(Type.Unknown({ description: 'settings as they were (only those that changed)' })),
  after: Type.Optional(Type.Unknown({ description: 'settings as they are now, or what the action did' })),
  ip: Type.Optional(Type.String()),
  requestId: Type.Optional(Type.String()),
});
const ListAnswer = Type.Object({ entries: Type.Array(Entry), nextCursor: Type.Optional(Type.String()) });
const Settings = Type.Object({ retentionDays: Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS, description: 'entries older than this are deleted' }) });
const SettingsAnswer = Type.Object({ settings: Settings });
const SettingsBody = Type.Object({ settings: Type.Partial(Settings, { additionalProperties: false }) }, { additionalProperties: false });

export function wireEntry(r: AuditRow): Static<typeof Entry> {
  return {
    id: r.entry_id,
    recordedDate: r.recorded_at.toISOString(),
    actor: { kind: r.actor_kind, ...(r.actor_id && { id: r.actor_id }), ...(r.actor_role && { role: r.actor_role }), ...(r.actor_email && { email: r.actor_email }) },
    action: r.action,
    object: { type: r.object_type, id: r.object_id },
    ...(r.before !== null && { before: r.before }),
    ...(r.after !== null && { after: r.after }),
    ...(r.ip && { ip: r.ip }),
    ...(r.request_id && { requestId: r.request_id }),
  };
}

function instant(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw ApiError.validation([{ field, rule: 'FORMAT', description: 'an ISO date or date-time' }]);
  return date;
}

function filterOf(q: Static<typeof CsvQuery>): AuditFilter {
  return {
    ...(q.action !== undefined && { action: q.action }),
    ...(q.actor !== undefined && { actor: q.actor }),
    ...(q.objectType !== undefined && { objectType: q.objectType }),
    ...(q.objectId !== undefined && { objectId: q.objectId }),
    ...(q.from !== undefined && { from: instant('from', q.from) }),
    ...(q.to !== undefined && { to: instant('to', q.to) }),
  };
}

const tags = ['audit log'];

export function auditRoutes(audit: AuditService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'owner' } as const;

    app.get(AUDIT_PATH, {
      config, schema: { tags, summary: 'Staff and API-key actions on money, access and settings, newest first (owner and API keys only)', querystring: ListQuery, response: { 200: ListAnswer } },
    }, async (req) => {
      const page = await audit.list(req.ctx, filterOf(req.query), { limit: req.query.limit ?? 50, cursor: req.query.cursor });
      return { entries: page.entries.map(wireEntry), ...(page.nextCursor && { nextCursor: page.nextCursor }) };
    });

    app.get(`${AUDIT_PATH}.csv`, {
      config, schema: { tags, summary: 'The filtered audit log as CSV, newest first (formula-like cells start with a quote)', querystring: CsvQuery, produces: ['text/csv'], response: { 200: CsvFile } },
    }, async (req, reply) => {
      const chunks = await audit.exportCsv(req.ctx, filterOf(req.query));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${req.ctx.now().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks));
    });

    app.get(`${AUDIT_PATH}/settings`, {
      config, schema: { tags, summary: "The audit log's retention", response: { 200: SettingsAnswer } },
    }, async (req) => ({ settings: await audit.settings(req.ctx) }));

    app.patch(`${AUDIT_PATH}/settings`, {
      config, schema: { tags, summary: "Sets the audit log's retention in days (the change is itself recorded)", body: SettingsBody, response: { 200: SettingsAnswer } },
    }, async (req) => ({ settings: await audit.updateSettings(req.ctx, req.body.settings) }));
  };
}
