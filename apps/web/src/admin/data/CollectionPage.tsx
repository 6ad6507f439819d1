import { useState } from 'react';
import { Link, useParams } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { DataCollection, DataItem } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { Confirm, PageHead, Pager, useResult } from '../ui.js';
import { FieldsTable, ItemEditor } from './CollectionForms.js';
import { IndexesPanel, PermissionsPanel } from './CollectionSettings.js';
import { fieldsOf, parse, show } from './field-forms.js';
import { ITEMS_PAGE_SIZE as LIMIT, useDataCollection, useDataItems, useRemoveItem } from './queries.js';


export default function CollectionPage() {
  const { collectionId = '' } = useParams();
  const collection = useDataCollection(collectionId);
  if (collection.isPending) return <Loading label="Loading the collection…" />;
  if (collection.isError) return <><PageHead title="Collection" /><ErrorState error={collection.error} retry={() => void collection.refetch()} /></>;
  return (
    <>
      <p className="small"><Link to="/admin/data">← Data collections</Link></p>
      <PageHead title={collection.data.displayName || collectionId} lead={<>ID <code>{collectionId}</code></>} />
      <Items collection={collection.data} id={collectionId} />
      <FieldsTable collection={collection.data} />
      <PermissionsPanel collection={collection.data} />
      <IndexesPanel collectionId={collectionId} fieldKeys={fieldsOf(collection.data).map((f) => f.key)} />
    </>
  );
}

const OPERATORS = ['$eq', '$ne', '$contains', '$startsWith', '$gt', '$lt'] as const;
const filterSchema = z.object({ field: z.string(), op: z.enum(OPERATORS), value: z.string().max(1000, 'At most 1,000 characters') });
type FilterForm = z.infer<typeof filterSchema>;

function Items({ collection, id }: { collection: DataCollection; id: string }) {
  const fields = fieldsOf(collection);
  const result = useResult();
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<{ field: string; order: 'ASC' | 'DESC' }>({ field: '_createdDate', order: 'DESC' });
  const [filter, setFilter] = useState<{ field: string; op: string; value: string } | null>(null);
  const [editing, setEditing] = useState<DataItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<DataItem | null>(null);
  const wireFilter = filter ? { [filter.field]: { [filter.op]: parse(fields.find((f) => f.key === filter.field)?.type ?? 'TEXT', filter.value) } } : undefined;
  const items = useDataItems(id, { ...(wireFilter && { filter: wireFilter }), sort: [{ fieldName: sort.field, order: sort.order }], paging: { limit: LIMIT, offset } });
  const remove = useRemoveItem(id);
  const filterForm = useForm<FilterForm>({ resolver: zodResolver(filterSchema), defaultValues: { field: fields[0]?.key ?? '', op: '$eq', value: '' } });
  const applyFilter = filterForm.handleSubmit((form) => {
    setOffset(0);
    setFilter(form.value === '' ? null : form);
  });
  const sortBy = (field: string) => { setOffset(0); setSort((s) => ({ field, order: s.field === field && s.order === 'ASC' ? 'DESC' : 'ASC' })); };
  return (
    <section aria-labelledby="items-heading" className="stack">
      <div className="page-head">
        <h2 id="items-heading">Items</h2>
        <button type="button" className="button" onClick={() => setEditing('new')}>Add item</button>
      </div>
      {result.view}
      <form className="filters-bar" aria-label="Filter items" noValidate onSubmit={(e) => void applyFilter(e)}>
        <div className="filter"><label htmlFor="flt-field">Field</label><select id="flt-field" {...filterForm.register('field')}>{fields.map((f) => <option key={f.key} value={f.key}>{f.displayName || f.key}</option>)}</select></div>
        <div className="filter"><label htmlFor="flt-op">Condition</label>
          <select id="flt-op" {...filterForm.register('op')}><option value="$eq">is</option><option value="$ne">is not</option><option value="$contains">contains</option><option value="$startsWith">starts with</option><option value="$gt">greater than</option><option value="$lt">less than</option></select>
        </div>
        <div className="filter"><label htmlFor="flt-value">Value</label><input id="flt-value" {...filterForm.register('value')} /></div>
        <button type="submit" className="button small">Filter</button>
        {filter && <button type="button" className="link" onClick={() => setFilter(null)}>Clear filter</button>}
      </form>
      {items.isPending && <Loading label="Loading items…" />}
      {items.isError && <ErrorState error={items.error} retry={() => void items.refetch()} />}
      {items.data && (
        <>
          {/* One column per field: on a phone it scrolls sideways, so the keyboard must reach it too. */}
          <div className="table-wrap" aria-busy={items.isFetching} tabIndex={0} role="region" aria-label="Items">
            <table className="table">
              <caption className="visually-hidden">Items of {collection.displayName || id}</caption>
              <thead>
                <tr>
                  {fields.map((f) => (
                    <th key={f.key} scope="col" aria-sort={sort.field === f.key ? (sort.order === 'ASC' ? 'ascending' : 'descending') : undefined}>
                      <button type="button" className="link th-sort" onClick={() => sortBy(f.key)}>{f.displayName || f.key}{sort.field === f.key ? (sort.order === 'ASC' ? ' ▲' : ' ▼') : ''}</button>
                    </th>
                  ))}
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {items.data.items.length === 0 && <tr><td colSpan={fields.length + 1} className="muted">No items.</td></tr>}
                {items.data.items.map((item) => (
                  <tr key={item._id}>
                    {fields.map((f) => <td key={f.key} className="truncate">{show(item[f.key])}</td>)}
                    <td className="row-actions">
                      <button type="button" className="button small secondary" onClick={() => setEditing(item)}>Edit<span className="visually-hidden"> item {show(item[fields[0]?.key ?? '_id'])}</span></button>
                      <button type="button" className="button small secondary danger-outline" onClick={() => setRemoving(item)}>Delete<span className="visually-hidden"> item {show(item[fields[0]?.key ?? '_id'])}</span></button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Items" offset={offset} limit={LIMIT} total={items.data.totalCount} count={items.data.items.length} onOffset={setOffset} />
        </>
      )}
      {editing && <ItemEditor id={id} fields={fields} item={editing === 'new' ? undefined : editing} onClose={(saved) => { setEditing(null); if (saved) result.ok(saved); }} />}
      <Confirm open={removing !== null} onOpenChange={(o) => { if (!o) setRemoving(null); }} title="Delete this item?" confirmLabel="Delete item" busy={remove.isPending} error={remove.error} onConfirm={() => removing && remove.mutate(removing, { onSuccess: () => { setRemoving(null); result.ok('Item deleted.'); } })}>
        <p>It cannot be brought back.</p>
      </Confirm>
    </section>
  );
}
