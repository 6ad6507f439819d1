import { Fragment, useState } from 'react';
import { useSearchParams } from '../../router/Router.js';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Member } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin, usePermissions } from '../context.js';
import { useCsvExport } from '../queries.js';
import { SearchForm } from '../SearchForm.js';
import { Confirm, dateTime, Modal, PageHead, Pager, saveFile, shortDate, Status, useResult } from '../ui.js';
import { MEMBERS_PAGE_SIZE as LIMIT, useMemberAction, useMembers, usePendingMembers, type MemberAction } from './queries.js';

const DONE: Record<string, string> = { approve: 'is approved and can sign in', block: 'is blocked', mute: 'is muted', unmute: 'can post again', delete: 'is deleted' };

const nameOf = (m: Member) => [m.contact?.firstName, m.contact?.lastName].filter(Boolean).join(' ') || m.profile?.nickname || m.loginEmail || 'Member';

export default function MembersPage() {
  const { me } = useAdmin();
  const { changeRoles } = usePermissions();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const pending = usePendingMembers(q);
  const members = useMembers(q, offset);
  const result = useResult();
  const [toDelete, setToDelete] = useState<Member | null>(null);
  const [profile, setProfile] = useState<Member | null>(null);
  const actions = useMemberAction();
  const csv = useCsvExport();
  /** Runs the action and says what it did (or why not). */
  const run = ({ member, action }: { member: Member; action: MemberAction }) => actions.mutate({ member, action }, {
    onSuccess: () => { setToDelete(null); result.ok(`${nameOf(member)} ${DONE[action] ?? `is now ${action.slice(5).toLowerCase()}`}.`); },
    onError: (error) => result.fail(error),
  });
  function exportCsv() {
    csv.mutate({ kind: 'members' }, { onSuccess: (blob) => { saveFile('members.csv', blob); result.ok('members.csv is downloaded.'); }, onError: (error) => result.fail(error) });
  }
  function set(changes: Record<string, string>) {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) { if (v) next.set(k, v); else next.delete(k); }
    if (!('offset' in changes)) next.delete('offset');
    setParams(next, { replace: true });
  }

  const row = (m: Member) => (
    <tr key={m._id}>
      <td className="card-title"><button type="button" className="link strong member-name" onClick={() => setProfile(m)}>{nameOf(m)}</button><span className="block muted small">{m.loginEmail}</span></td>
      <td data-label="Status"><span><Status value={m.status} />{m.activityStatus === 'MUTED' && <> <Status value="MUTED" /></>}</span></td>
      <td data-label="Role">{m.role === 'OWNER' ? 'Owner' : m.role === 'CONTRIBUTOR' ? 'Contributor' : 'Member'}</td>
      <td data-label="Joined">{shortDate(m._createdDate)}</td>
      <td className="row-actions">
        {m.status === 'PENDING' && <button type="button" className="button small" onClick={() => { result.clear(); run({ member: m, action: 'approve' }); }}>Approve<span className="visually-hidden"> {nameOf(m)}</span></button>}
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="button secondary small" aria-label={`Actions for ${nameOf(m)}`}>More ▾</DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
              {m.status !== 'APPROVED' && m.status !== 'PENDING' && <DropdownMenu.Item className="menu-item" onSelect={() => run({ member: m, action: 'approve' })}>Approve</DropdownMenu.Item>}
              {m.status !== 'BLOCKED' && m._id !== me.memberId && <DropdownMenu.Item className="menu-item" onSelect={() => run({ member: m, action: 'block' })}>Block</DropdownMenu.Item>}
              {m.activityStatus === 'MUTED'
                ? <DropdownMenu.Item className="menu-item" onSelect={() => run({ member: m, action: 'unmute' })}>Unmute</DropdownMenu.Item>
                : <DropdownMenu.Item className="menu-item" onSelect={() => run({ member: m, action: 'mute' })}>Mute</DropdownMenu.Item>}
              {changeRoles && m._id !== me.memberId && (
                <>
                  <DropdownMenu.Separator className="menu-separator" />
                  <DropdownMenu.Label className="menu-label">Role</DropdownMenu.Label>
                  {(['MEMBER', 'CONTRIBUTOR', 'OWNER'] as const).filter((r) => r !== (m.role ?? 'MEMBER')).map((r) => (
                    <DropdownMenu.Item key={r} className="menu-item" onSelect={() => run({ member: m, action: `role:${r}` })}>Make {r === 'MEMBER' ? 'a member' : r === 'CONTRIBUTOR' ? 'a contributor' : 'an owner'}</DropdownMenu.Item>
                  ))}
                </>
              )}
              {m._id !== me.memberId && (m.role !== 'OWNER' || changeRoles) && (
                <>
                  <DropdownMenu.Separator className="menu-separator" />
                  <DropdownMenu.Item className="menu-item danger-item" onSelect={() => setToDelete(m)}>Delete…</DropdownMenu.Item>
                </>
              )}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </td>
    </tr>
  );
  const head = <thead><tr><th scope="col">Member</th><th scope="col">Status</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>;
  const waiting = pending.data?.members ?? [];
  return (
    <>
      <PageHead title="Members">
        <button type="button" className="button secondary" disabled={csv.isPending} onClick={exportCsv}>{csv.isPending ? 'Exporting…' : 'Export CSV'}</button>
      </PageHead>
      {result.view}
      <div className="filters-bar" role="search" aria-label="Search members">
        <SearchForm id="member-q" label="Name or e-mail" value={q} onSearch={(text) => set({ q: text })} />
      </div>
      {waiting.length > 0 && (
        <section className="panel attention" aria-labelledby="pending-heading">
          <h2 id="pending-heading">Waiting for approval ({waiting.length})</h2>
          <div className="table-wrap"><table className="table cards">{head}<tbody>{waiting.map(row)}</tbody></table></div>
        </section>
      )}
      <section aria-labelledby="all-heading">
        <h2 id="all-heading" className="section-title">All members</h2>
        {members.isPending && <Loading label="Loading members…" />}
        {members.isError && <ErrorState error={members.error} retry={() => void members.refetch()} />}
        {members.data && (
          <>
            <div className="table-wrap" aria-busy={members.isFetching}>
              <table className="table cards">{head}<tbody>{members.data.members.length === 0 ? <tr><td colSpan={5} className="muted">No members match.</td></tr> : members.data.members.map(row)}</tbody></table>
            </div>
            <Pager label="Members" offset={offset} limit={LIMIT} total={members.data.metadata?.total} count={members.data.members.length} onOffset={(o) => set({ offset: String(o) })} />
          </>
        )}
      </section>
      <Modal open={profile !== null} onOpenChange={(o) => { if (!o) setProfile(null); }} title={profile ? nameOf(profile) : 'Member'}>
        {profile && (
          <dl className="facts">
            <dt>E-mail</dt><dd>{profile.loginEmail}</dd>
            <dt>Status</dt><dd><Status value={profile.status} />{profile.activityStatus === 'MUTED' && <> <Status value="MUTED" /></>}</dd>
            <dt>Role</dt><dd>{profile.role === 'OWNER' ? 'Owner' : profile.role === 'CONTRIBUTOR' ? 'Contributor' : 'Member'}</dd>
            {profile.profile?.nickname && <><dt>Nickname</dt><dd>{profile.profile.nickname}</dd></>}
            {(profile.contact?.phones ?? []).length > 0 && <><dt>Phone</dt><dd>{profile.contact?.phones?.join(', ')}</dd></>}
            {(profile.contact?.addresses ?? []).map((a, i) => <Fragment key={i}><dt>Address {i + 1}</dt><dd>{[a.addressLine, a.city, a.postalCode, a.country].filter(Boolean).join(', ')}</dd></Fragment>)}
            <dt>Joined</dt><dd>{dateTime(profile._createdDate)}</dd>
            <dt>Last sign-in</dt><dd>{profile.lastLoginDate ? dateTime(profile.lastLoginDate) : 'Never'}</dd>
          </dl>
        )}
      </Modal>
      <Confirm open={toDelete !== null} onOpenChange={(open) => { if (!open) setToDelete(null); }} title={`Delete ${toDelete ? nameOf(toDelete) : ''}?`} confirmLabel="Delete member"
        busy={actions.isPending} onConfirm={() => toDelete && run({ member: toDelete, action: 'delete' })}>
        <p>Their account and profile go away; their orders stay.</p>
      </Confirm>
    </>
  );
}
