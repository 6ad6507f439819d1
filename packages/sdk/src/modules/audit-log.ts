/**
 * The audit log (`/bodega/v1/audit-log`): every staff or API-key action on money, access or
 * settings, newest first. The site owner's and API keys' only; a contributor gets 403.
 */
import type { Transport } from '../core/transport.js';
import { BACK_OFFICE_PATH, backOfficeCsv, backOfficeGet } from './back-office.js';

export type AuditActorKind = 'MEMBER' | 'API_KEY' | 'SYSTEM';

export interface AuditEntry {
  id: string;
  recordedDate: string;
  /** Who acted: a member (`id` their member id, with `role` and `email`) or an API key (`id` its key id). */
  actor: { kind: AuditActorKind; id?: string; role?: string; email?: string };
  /** `<object>.<verb>`, e.g. `order.refunded`, `member.role_changed`, `export.orders`. */
  action: string;
  object: { type: string; id: string };
  /** The settings that changed, as they were. */
  before?: unknown;
  /** As they are now, or what the action did (a refund's amount). */
  after?: unknown;
  ip?: string;
  requestId?: string;
}

export interface AuditFilters {
  action?: string;
  /** A member id, an API key id or a member's e-mail. */
  actor?: string;
  objectType?: string;
  objectId?: string;
  /** ISO date or date-time, inclusive. */
  from?: string;
  /** ISO date or date-time, exclusive. */
  to?: string;
}

export interface AuditLogSettings {
  /** Entries older than this many days are deleted (1 to 3650; 365 until set). */
  retentionDays: number;
}

export function auditLog(t: Transport) {
  return {
    /** One page, newest first; pass `nextCursor` back as `cursor` for the next. */
    list: (filters: AuditFilters & { limit?: number; cursor?: string } = {}) =>
      backOfficeGet<{ entries: AuditEntry[]; nextCursor?: string }>(t, '/audit-log', filters),
    /** The filtered log as CSV (the export is itself recorded); read it with `.text()` or `.blob()`. */
    exportCsv: (filters: AuditFilters = {}) => backOfficeCsv(t, '/audit-log.csv', filters),
    settings: () => backOfficeGet<{ settings: AuditLogSettings }>(t, '/audit-log/settings'),
    updateSettings: (settings: Partial<AuditLogSettings>) =>
      t.send<{ settings: AuditLogSettings }>({ method: 'PATCH', path: `${BACK_OFFICE_PATH}/audit-log/settings`, payload: { settings: { ...settings } } }),
  };
}

export type AuditLogApi = ReturnType<typeof auditLog>;
