// The audit log as CSV, a batch at a time. Cells come from callers (an e-mail, a setting's value),
// so a cell a spreadsheet would take for a formula is written with a leading `'` (OWASP's rule).
import { stringify } from 'csv-stringify/sync';
import { neutraliseCell } from '../../platform/csv-cells.js';
import type { AuditRow } from './store.js';

export const AUDIT_CSV_COLUMNS = [
  'recordedDate', 'action', 'objectType', 'objectId', 'actorKind', 'actorId', 'actorRole', 'actorEmail', 'ip', 'requestId', 'before', 'after', 'id',
] as const;


const jsonCell = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

function row(r: AuditRow): string[] {
  return [
    r.recorded_at.toISOString(), r.action, r.object_type, r.object_id, r.actor_kind, r.actor_id ?? '', r.actor_role ?? '', r.actor_email ?? '',
    r.ip ?? '', r.request_id ?? '', jsonCell(r.before), jsonCell(r.after), r.entry_id,
  ].map(neutraliseCell);
}

export async function* auditCsv(batches: AsyncIterable<AuditRow[]>): AsyncGenerator<string> {
  yield stringify([[...AUDIT_CSV_COLUMNS]]);
  for await (const batch of batches) yield stringify(batch.map(row));
}
