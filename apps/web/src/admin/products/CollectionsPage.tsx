import { useState } from 'react';
import { Link } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { COLLECTION_LIMITS, type StoresCollection } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { actionsColumn, ListTable } from '../ListTable.js';
import { Confirm, Modal, PageHead, useResult } from '../ui.js';
import { ALL_PRODUCTS } from './product-form.js';
import { useDeleteCollection, useSaveCollection, useStoreCollections } from './queries.js';

const collectionSchema = z.object({
  name: z.string().trim().min(1, 'Name the collection').max(COLLECTION_LIMITS.name, `At most ${COLLECTION_LIMITS.name} characters`),
  description: z.string().trim().max(COLLECTION_LIMITS.description, `At most ${COLLECTION_LIMITS.description} characters`),
  visible: z.boolean(),
});
type CollectionForm = z.infer<typeof collectionSchema>;

/** The shop's product collections: create, rename, show or hide, delete. */
export default function ProductCollectionsPage() {
  const collections = useStoreCollections();
  const result = useResult();
  const [editing, setEditing] = useState<StoresCollection | 'new' | null>(null);
  const [removing, setRemoving] = useState<StoresCollection | null>(null);
  const save = useSaveCollection();
  const remove = useDeleteCollection();
  function submit(input: CollectionForm) {
    save.mutate({ id: editing === 'new' || editing === null ? undefined : editing._id ?? '', input }, {
      onSuccess: (name) => { setEditing(null); result.ok(`Collection “${name}” saved.`); },
    });
  }
  const current = editing === 'new' ? undefined : editing ?? undefined;
  return (
    <>
      <p className="small"><Link to="/admin/products">← Products</Link></p>
      <PageHead title="Product collections"><button type="button" className="button" onClick={() => { save.reset(); setEditing('new'); }}>New collection</button></PageHead>
      {result.view}
      <ListTable query={collections} items={collections.data} caption="Product collections" loading="Loading collections…" empty="No collections yet."
        columns={[{ label: 'Collection' }, { label: 'Products', className: 'num' }, { label: 'Shown in the shop' }, actionsColumn]}
        row={(c) => (
          <tr key={c._id}>
            <td className="card-title"><Link to={`/admin/products?collection=${c._id}`}>{c.name}</Link>{c.description && <span className="block muted small">{c.description}</span>}</td>
            <td className="num" data-label="Products">{c.numberOfProducts ?? ''}</td>
            <td data-label="Shown in the shop">{c.visible === false ? 'No' : 'Yes'}</td>
            <td className="row-actions">
              {c._id !== ALL_PRODUCTS && <>
                <button type="button" className="button small secondary" onClick={() => { save.reset(); setEditing(c); }}>Edit<span className="visually-hidden"> {c.name}</span></button>
                <button type="button" className="button small secondary danger-outline" onClick={() => setRemoving(c)}>Delete<span className="visually-hidden"> {c.name}</span></button>
              </>}
            </td>
          </tr>
        )} />
      <Modal open={editing !== null} onOpenChange={(o) => { if (!o) setEditing(null); }} title={current ? `Edit ${current.name ?? ''}` : 'New collection'}>
        {editing !== null && <CollectionEditor key={current?._id ?? 'new'} current={current} busy={save.isPending} error={save.error} onSave={submit} />}
      </Modal>
      <Confirm open={removing !== null} onOpenChange={(o) => { if (!o) setRemoving(null); }} title={`Delete “${removing?.name ?? ''}”?`} confirmLabel="Delete collection"
        busy={remove.isPending} error={remove.error} onConfirm={() => removing && remove.mutate(removing, { onSuccess: (_, c) => { setRemoving(null); result.ok(`Collection “${c.name}” deleted; its products stay.`); } })}>
        <p>The products in it stay in the store.</p>
      </Confirm>
    </>
  );
}

function CollectionEditor({ current, busy, error, onSave }: { current: StoresCollection | undefined; busy: boolean; error: Error | null; onSave: (input: CollectionForm) => void }) {
  const { register, handleSubmit, formState: { errors } } = useForm<CollectionForm>({
    resolver: zodResolver(collectionSchema),
    defaultValues: { name: current?.name ?? '', description: current?.description ?? '', visible: current?.visible !== false },
  });
  return (
    <form className="form-grid" noValidate onSubmit={(e) => void handleSubmit(onSave)(e)}>
      <Field label="Name" maxLength={COLLECTION_LIMITS.name} {...register('name')} error={errors.name?.message} />
      <Field label="Description" maxLength={COLLECTION_LIMITS.description} {...register('description')} error={errors.description?.message} />
      <label className="check"><input type="checkbox" {...register('visible')} /> Shown in the shop</label>
      {error && <p className="error" role="alert">{error.message || 'Not saved.'}</p>}
      <div className="actions"><button type="submit" className="button" disabled={busy}>{busy ? 'Saving…' : 'Save collection'}</button></div>
    </form>
  );
}
