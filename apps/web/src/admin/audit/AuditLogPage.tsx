import { useState } from 'react';
import type { AuditEntry, AuditFilters } from '@bodega/sdk';
import { Notice } from '../../ui/Notice.js';
import { ListTable } from '../ListTable.js';
import { usePermissions } from '../context.js';
import { CursorPager, dateTime, PageHead, saveFile, useResult } from '../ui.js';
import { SettingsNav } from '../settings/SettingsNav.js';
import { AuditFilterForm, RetentionForm } from './AuditForms.js';
import { actionLabel, changeLines } from './entries.js';
import { useAuditExport, useAuditLog } from './queries.js';
import './audit.css';

export default function AuditLogPage() {
  const { owner } = usePermissions();
  if (!owner) {
    return (
      <>
        <PageHead title="Audit log" />
        <SettingsNav />
        <Notice kind="info">Only the store’s owner reads the audit log.</Notice>
      </>
    );
  }
  return <AuditLog />;
}

function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  if (actor.kind === 'SYSTEM') return <>The server</>;
  if (actor.kind === 'API_KEY') return <>API key<span className="block muted small"><code>{actor.id}</code></span></>;
  return <>{actor.email ?? actor.id}{actor.role && <span className="block muted small">{actor.role.toLowerCase()}</span>}</>;
}

function AuditLog() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const [cursors, setCursors] = useState<string[]>([]);
  const log = useAuditLog(filters, cursors.at(-1));
  const exporting = useAuditExport();
  const result = useResult();
  const apply = (next: AuditFilters) => { setFilters(next); setCursors([]); };
  const download = () => {
    result.clear();
    exporting.mutate(filters, {
      onSuccess: (blob) => { saveFile(`audit-log-${new Date().toISOString().slice(0, 10)}.csv`, blob); result.ok('audit-log.csv is downloaded.'); },
      onError: (error) => result.fail(error),
    });
  };
  return (
    <>
      <PageHead title="Audit log" lead="Who changed money, access or settings, and every export: newest first, kept as long as you choose below." />
      <SettingsNav />
      {result.view}
      <AuditFilterForm onApply={apply} />
      <div className="audit-toolbar">
        <button type="button" className="button secondary small" onClick={download} disabled={exporting.isPending}>{exporting.isPending ? 'Exporting…' : 'Export as CSV'}</button>
      </div>
      <div className="audit-log">
      <ListTable query={log} items={log.data?.entries} caption="Audit log" loading="Loading the audit log…"
        empty={Object.keys(filters).length ? 'Nothing matches these filters.' : 'Nothing on record yet.'}
        columns={[{ label: 'When' }, { label: 'Who' }, { label: 'Action' }, { label: 'Object' }, { label: 'Change' }, { label: 'From' }]}
        row={(e) => (
          <tr key={e.id}>
            <td className="card-title">{dateTime(e.recordedDate)}</td>
            <td data-label="Who"><div><Actor actor={e.actor} /></div></td>
            <td data-label="Action">{actionLabel(e.action)}</td>
            <td data-label="Object"><div>{e.object.type.replace(/_/g, ' ')}<span className="block muted small"><code>{e.object.id}</code></span></div></td>
            <td data-label="Change"><ul className="audit-change">{changeLines(e.before, e.after).map((line) => <li key={line}>{line}</li>)}</ul></td>
            <td data-label="From" className="audit-ip">{e.ip ?? '—'}</td>
          </tr>
        )} />
      </div>
      {log.data && <CursorPager cursors={cursors} nextCursor={log.data.nextCursor} onCursors={setCursors} label="Audit log" />}
      <RetentionForm />
    </>
  );
}
