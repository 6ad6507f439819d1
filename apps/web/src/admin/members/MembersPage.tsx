import { Fragment, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Member } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin, usePermissions } from '../context.js';
import { Confirm, dateTime, Modal, PageHead, Pager, saveFile, shortDate, Status, useResult } from '../ui.js';

const LIMIT = 25;
type Action = 'approve' | 'block' | 'mute' | 'unmute';

const nameOf = (m: Member) => [m.contact?.firstName, m.contact?.lastName].filter(Boolean).join(' ') || m.profile?.nickname || m.loginEmail || 'Member';

export default function MembersPage() {
  const { api, me } = useAdmin();
  const { changeRoles } = usePermissions();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const search = q ? { search: { expression: q } } : {};
  const pending = useQuery({
    queryKey: ['admin', 'members', 'pending', q],
    queryFn: () => api.members.queryMembers({ filter: { status: 'PENDING' }, paging: { limit: 50 } }, { fieldsets: ['FULL'], ...search }),
  });
  const members = useQuery({
    queryKey: ['admin', 'members', 'all', q, offset],
    placeholderData: keepPreviousData,
    queryFn: () => api.members.queryMembers({ paging: { limit: LIMIT, offset } }, { fieldsets: ['FULL'], ...search }),
  });
  const result = useResult();
  const [toDelete, setToDelete] = useState<Member | null>(null);
  const [profile, setProfile] = useState<Member | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'members'] });
  const act = useMutation({
    mutationFn: async ({ member, action }: { member: Member; action: Action | 'delete' | `role:${'MEMBER' | 'CONTRIBUTOR' | 'OWNER'}` }) => {
      const id = member._id ?? '';
      const m = api.members;
      if (action === 'approve') await m.approveMember(id);
      else if (action === 'block') await m.blockMember(id);
      else if (action === 'mute') await m.muteMember(id);
      else if (action === 'unmute') await m.unmuteMember(id);
      else if (action === 'delete') await m.deleteMember(id);
      else await m.changeMemberRole(id, action.slice(5) as 'MEMBER' | 'CONTRIBUTOR' | 'OWNER');
      const done: Record<string, string> = { approve: 'is approved and can sign in', block: 'is blocked', mute: 'is muted', unmute: 'can post again', delete: 'is deleted' };
      return `${nameOf(member)} ${done[action] ?? `is now ${action.slice(5).toLowerCase()}`}.`;
    },
    onSuccess: async (text) => { setToDelete(null); result.ok(text); await refresh(); },
    onError: (error) => result.fail(error),
  });
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try { saveFile('members.csv', await (await api.backOffice.exportCsv('members')).blob()); result.ok('members.csv is downloaded.'); } catch (error) { result.fail(error); } finally { setExporting(false); }
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
        {m.status === 'PENDING' && <button type="button" className="button small" onClick={() => { result.clear(); act.mutate({ member: m, action: 'approve' }); }}>Approve<span className="visually-hidden"> {nameOf(m)}</span></button>}
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="button secondary small" aria-label={`Actions for ${nameOf(m)}`}>More ▾</DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
              {m.status !== 'APPROVED' && m.status !== 'PENDING' && <DropdownMenu.Item className="menu-item" onSelect={() => act.mutate({ member: m, action: 'approve' })}>Approve</DropdownMenu.Item>}
              {m.status !== 'BLOCKED' && m._id !== me.memberId && <DropdownMenu.Item className="menu-item" onSelect={() => act.mutate({ member: m, action: 'block' })}>Block</DropdownMenu.Item>}
              {m.activityStatus === 'MUTED'
                ? <DropdownMenu.Item className="menu-item" onSelect={() => act.mutate({ member: m, action: 'unmute' })}>Unmute</DropdownMenu.Item>
                : <DropdownMenu.Item className="menu-item" onSelect={() => act.mutate({ member: m, action: 'mute' })}>Mute</DropdownMenu.Item>}
              {changeRoles && m._id !== me.memberId && (
                <>
                  <DropdownMenu.Separator className="menu-separator" />
                  <DropdownMenu.Label className="menu-label">Role</DropdownMenu.Label>
                  {(['MEMBER', 'CONTRIBUTOR', 'OWNER'] as const).filter((r) => r !== (m.role ?? 'MEMBER')).map((r) => (
                    <DropdownMenu.Item key={r} className="menu-item" onSelect={() => act.mutate({ member: m, action: `role:${r}` })}>Make {r === 'MEMBER' ? 'a member' : r === 'CONTRIBUTOR' ? 'a contributor' : 'an owner'}</DropdownMenu.Item>
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
        <button type="button" className="button secondary" disabled={exporting} onClick={() => void exportCsv()}>{exporting ? 'Exporting…' : 'Export CSV'}</button>
      </PageHead>
      {result.view}
      <form className="filters-bar" role="search" aria-label="Search members" onSubmit={(e: FormEvent<HTMLFormElement>) => { e.preventDefault(); set({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim() }); }}>
        <div className="search-form">
          <label htmlFor="member-q">Name or e-mail</label>
          <div className="inline"><input id="member-q" name="q" type="search" defaultValue={q} key={q} /><button type="submit" className="button small">Search</button></div>
        </div>
      </form>
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
            <dt>E-mail</dt><dd>{profile.loginEmail}{profile.loginEmailVerified ? ' (verified)' : ''}</dd>
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
        busy={act.isPending} onConfirm={() => toDelete && act.mutate({ member: toDelete, action: 'delete' })}>
        <p>Their account and profile go away; their orders stay.</p>
      </Confirm>
    </>
  );
}
