import { useState } from 'react';
import type { MailStatus, MailSummary } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { ListTable } from '../ListTable.js';
import { usePermissions } from '../context.js';
import { CursorPager, dateTime, Modal, PageHead, Status } from '../ui.js';
import { useMail, useMails } from './queries.js';
import { SettingsNav } from './SettingsNav.js';

export default function MailPage() {
  const { owner } = usePermissions();
  const [status, setStatus] = useState<MailStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const mails = useMails(status, cursor);
  const [open, setOpen] = useState<MailSummary | null>(null);
  const mail = useMail(open?.id);
  return (
    <>
      <PageHead title="Mail outbox" lead="Every e-mail the store sends, with its state." />
      <SettingsNav />
      <div className="filters-bar">
        <div className="filter">
          <label htmlFor="mail-status">Status</label>
          <select id="mail-status" value={status} onChange={(e) => { setStatus(e.target.value as MailStatus | ''); setCursors([]); }}>
            <option value="">Any</option><option value="STORED">Stored (no mail server)</option><option value="QUEUED">Queued</option><option value="SENT">Sent</option><option value="FAILED">Failed</option>
          </select>
        </div>
      </div>
      <ListTable query={mails} items={mails.data?.mails} caption="Mail" loading="Loading mail…"
        empty={status ? 'No mail with this status.' : 'No mail yet. Sign-up, verification and password-reset e-mails appear here.'}
        columns={[{ label: 'Subject' }, { label: 'To' }, { label: 'Status' }, { label: 'Created' }]}
        row={(m) => (
          <tr key={m.id}>
            <td className="card-title">{m.ownerOnly && !owner
              ? <>{m.subject}<span className="block muted small">Sign-in mail: only the owner opens it.</span></>
              : <button type="button" className="link" onClick={() => setOpen(m)}>{m.subject}</button>}{m.error && <span className="block error">{m.error}</span>}</td>
            <td className="truncate" data-label="To">{m.to}</td><td data-label="Status"><Status value={m.status} /></td><td data-label="Created">{dateTime(m.createdDate)}</td>
          </tr>
        )} />
      {mails.data && <CursorPager cursors={cursors} nextCursor={mails.data.nextCursor} onCursors={setCursors} label="Mail" />}
      <Modal open={open !== null} onOpenChange={(o) => { if (!o) setOpen(null); }} title={open?.subject ?? 'Mail'} description={open ? `To ${open.to}` : undefined} wide>
        {mail.isPending ? <Loading label="Opening the mail…" /> : mail.isError ? <ErrorState error={mail.error} /> : <pre className="mail-body" tabIndex={0} role="region" aria-label="The mail’s text">{mail.data?.mail.text}</pre>}
      </Modal>
    </>
  );
}
