import { type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field } from '../../ui/Field.js';
import { useAdmin } from '../context.js';
import { ListTable } from '../ListTable.js';
import { PageHead, useResult } from '../ui.js';
import { roleLabel } from './permissions.js';

export default function CollectionsPage() {
  const { api } = useAdmin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const result = useResult();
  const collections = useQuery({ queryKey: ['admin', 'data-collections'], queryFn: () => api.dataCollections.listDataCollections({ paging: { limit: 100 } }) });
  const create = useMutation({
    mutationFn: (input: { id: string; name: string }) => api.dataCollections.createDataCollection({
      _id: input.id, displayName: input.name, fields: [{ key: 'title', displayName: 'Title', type: 'TEXT' }],
      permissions: { insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN', read: 'ANYONE' },
    }),
    onSuccess: async (c) => { await queryClient.invalidateQueries({ queryKey: ['admin', 'data-collections'] }); navigate(`/admin/data/${encodeURIComponent(c._id ?? '')}`); },
    onError: (error) => result.fail(error),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    result.clear();
    create.mutate({ id: String(form.get('id') ?? '').trim(), name: String(form.get('name') ?? '').trim() });
  }
  return (
    <>
      <PageHead title="Data collections" lead="Your own content: anything the shop’s pages or your programs read and write." />
      {result.view}
      <ListTable query={collections} items={collections.data?.collections} caption="Data collections" loading="Loading collections…" empty="No collections yet."
        columns={[{ label: 'Collection' }, { label: 'ID' }, { label: 'Fields' }, { label: 'Who may read' }]}
        row={(c) => (
          <tr key={c._id}>
            <td className="card-title"><Link to={`/admin/data/${encodeURIComponent(c._id ?? '')}`}>{c.displayName || c._id}</Link></td>
            <td data-label="ID"><code>{c._id}</code></td>
            <td data-label="Fields">{(c.fields ?? []).filter((f) => !String(f.key ?? '').startsWith('_')).length}</td>
            <td data-label="Who may read">{roleLabel(c.permissions?.read)}</td>
          </tr>
        )} />
      <form className="panel settings-form new-collection" onSubmit={submit}>
        <h2>New collection</h2>
        <div className="two">
          <Field label="ID" name="id" required pattern="[A-Za-z][A-Za-z0-9_-]*" hint="Letters, digits, - and _; used by code" />
          <Field label="Display name" name="name" required />
        </div>
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create collection'}</button></div>
      </form>
    </>
  );
}
