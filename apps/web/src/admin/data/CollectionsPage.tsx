import { Link, useNavigate } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DATA_COLLECTION_ID_PATTERN, DATA_COLLECTION_LIMITS } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { ListTable } from '../ListTable.js';
import { useDataCollections } from '../queries.js';
import { PageHead, useResult } from '../ui.js';
import { roleLabel } from './permissions.js';
import { useCreateDataCollection } from './queries.js';

const { id: ID, text: NAME } = DATA_COLLECTION_LIMITS;
const newCollectionSchema = z.object({
  id: z.string().trim().max(ID, `At most ${ID} characters`).regex(new RegExp(DATA_COLLECTION_ID_PATTERN), 'Letters, digits, - and _; not starting with -'),
  name: z.string().trim().min(1, 'Give it a name people read').max(NAME, `At most ${NAME} characters`),
});
type NewCollection = z.infer<typeof newCollectionSchema>;

export default function CollectionsPage() {
  const navigate = useNavigate();
  const result = useResult();
  const collections = useDataCollections();
  const create = useCreateDataCollection();
  const { register, handleSubmit, formState: { errors } } = useForm<NewCollection>({ resolver: zodResolver(newCollectionSchema), defaultValues: { id: '', name: '' } });
  const submit = handleSubmit((input) => {
    result.clear();
    create.mutate(input, {
      onSuccess: (c) => { void navigate(`/admin/data/${encodeURIComponent(c._id ?? '')}`); },
      onError: (error) => result.fail(error),
    });
  });
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
            <td data-label="Fields">{c.fields.filter((f) => !f.systemField).length}</td>
            <td data-label="Who may read">{roleLabel(c.permissions?.read)}</td>
          </tr>
        )} />
      <form className="panel settings-form new-collection" noValidate onSubmit={(e) => void submit(e)}>
        <h2>New collection</h2>
        <div className="two">
          <Field label="ID" hint="Letters, digits, - and _; used by code" {...register('id')} error={errors.id?.message} />
          <Field label="Display name" {...register('name')} error={errors.name?.message} />
        </div>
        <div className="actions"><button type="submit" className="button" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create collection'}</button></div>
      </form>
    </>
  );
}
