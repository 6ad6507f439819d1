import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StoresCollection } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { useAdmin } from '../context.js';
import { actionsColumn, ListTable } from '../ListTable.js';
import { Confirm, Modal, PageHead, useResult } from '../ui.js';
import { useStoreCollections } from './queries.js';

const ALL_PRODUCTS = '00000000-000000-000000-000000000001';

/** The shop's product collections: create, rename, show or hide, delete. */
export default function ProductCollectionsPage() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  const collections = useStoreCollections();
  const result = useResult();
  const [editing, setEditing] = useState<StoresCollection | 'new' | null>(null);
  const [removing, setRemoving] = useState<StoresCollection | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'store-collections'] });
  const save = useMutation({
    mutationFn: async (input: { name: string; description: string; visible: boolean }) => {
      if (editing === 'new' || editing === null) await api.products.createCollection(input);
      else await api.products.updateCollection(editing._id ?? '', input);
      return input.name;
    },
    onSuccess: async (name) => { setEditing(null); result.ok(`Collection “${name}” saved.`); await refresh(); },
  });
  const remove = useMutation({
    mutationFn: (c: StoresCollection) => api.products.deleteCollection(c._id ?? ''),
    onSuccess: async (_, c) => { setRemoving(null); result.ok(`Collection “${c.name}” deleted; its products stay.`); await refresh(); },
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({ name: String(form.get('name') ?? '').trim(), description: String(form.get('description') ?? '').trim(), visible: form.get('visible') === 'on' });
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
        <form className="form-grid" onSubmit={submit} key={current?._id ?? 'new'}>
          <Field label="Name" name="name" required maxLength={50} defaultValue={current?.name} />
          <Field label="Description" name="description" maxLength={600} defaultValue={current?.description} />
          <label className="check"><input type="checkbox" name="visible" defaultChecked={current?.visible !== false} /> Shown in the shop</label>
          {save.isError && <p className="error" role="alert">{save.error instanceof Error ? save.error.message : 'Not saved.'}</p>}
          <div className="actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save collection'}</button></div>
        </form>
      </Modal>
      <Confirm open={removing !== null} onOpenChange={(o) => { if (!o) setRemoving(null); }} title={`Delete “${removing?.name ?? ''}”?`} confirmLabel="Delete collection"
        busy={remove.isPending} error={remove.error} onConfirm={() => removing && remove.mutate(removing)}>
        <p>The products in it stay in the store.</p>
      </Confirm>
    </>
  );
}
