import { useState } from 'react';
import { Link, useParams } from '../../router/Router.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { DataCollection, DataItem } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { Confirm, Modal, PageHead, Pager, useResult } from '../ui.js';
import { IndexesPanel, PermissionsPanel } from './CollectionSettings.js';
import { ITEMS_PAGE_SIZE as LIMIT, useDataCollection, useDataItems, useRemoveItem, useSaveItem, useUpdateDataCollection } from './queries.js';

interface FieldDef { key: string; displayName?: string; type: string }
const TYPES = ['TEXT', 'NUMBER', 'BOOLEAN', 'DATETIME', 'URL', 'RICH_TEXT', 'IMAGE', 'ARRAY', 'OBJECT'];

const fieldsOf = (c: DataCollection | undefined): FieldDef[] =>
  (c?.fields ?? []).map((f) => ({ key: String(f.key ?? ''), displayName: typeof f.displayName === 'string' ? f.displayName : undefined, type: String(f.type ?? 'TEXT') }))
    .filter((f) => f.key && !f.key.startsWith('_'));

function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function parse(type: string, text: string): unknown {
  if (text === '') return undefined;
  if (type === 'NUMBER') return Number(text);
  if (type === 'BOOLEAN') return text === 'true';
  if (type === 'ARRAY' || type === 'OBJECT') return JSON.parse(text) as unknown;
  return text;
}

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
      <Schema collection={collection.data} />
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

function ItemEditor({ id, fields, item, onClose }: { id: string; fields: FieldDef[]; item?: DataItem; onClose: (saved?: string) => void }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.key, show(item?.[f.key])])));
  const save = useSaveItem(id);
  function submit() {
    const data: DataItem = { ...(item ?? {}) };
    for (const f of fields) data[f.key] = parse(f.type, values[f.key] ?? '');
    save.mutate({ item: data, existing: item !== undefined }, { onSuccess: () => onClose(item ? 'Item saved.' : 'Item added.') });
  }
  return (
    <Modal open onOpenChange={(o) => { if (!o) onClose(); }} title={item ? 'Edit item' : 'New item'}>
      <form className="form-grid" onSubmit={(e) => { e.preventDefault(); submit(); }}>
        {fields.map((f) => (
          <div key={f.key} className="field">
            <label htmlFor={`item-${f.key}`}>{f.displayName || f.key} <span className="muted small">({f.type.toLowerCase()})</span></label>
            {f.type === 'BOOLEAN'
              ? <select id={`item-${f.key}`} value={values[f.key] ?? ''} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}><option value="">—</option><option value="true">Yes</option><option value="false">No</option></select>
              : <input id={`item-${f.key}`} inputMode={f.type === 'NUMBER' ? 'decimal' : undefined} value={values[f.key] ?? ''} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })} />}
          </div>
        ))}
        {save.isError && <p className="error" role="alert">{save.error instanceof Error ? save.error.message : 'Not saved.'}</p>}
        <div className="actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button></div>
      </form>
    </Modal>
  );
}

function Schema({ collection }: { collection: DataCollection }) {
  const result = useResult();
  const [fields, setFields] = useState<FieldDef[]>(() => fieldsOf(collection));
  const update = useUpdateDataCollection();
  function saveFields() {
    const system = (collection.fields ?? []).filter((f) => String(f.key ?? '').startsWith('_'));
    update.mutate({ ...collection, fields: [...system, ...fields.filter((f) => f.key).map((f) => ({ key: f.key, displayName: f.displayName || f.key, type: f.type }))] }, {
      onSuccess: () => result.ok('Fields saved.'),
      onError: (error) => result.fail(error),
    });
  }
  const set = (i: number, change: Partial<FieldDef>) => setFields((l) => l.map((f, j) => (j === i ? { ...f, ...change } : f)));
  return (
    <section className="panel" aria-labelledby="schema-heading">
      <h2 id="schema-heading">Fields</h2>
      {result.view}
      <div className="table-wrap">
        <table className="table cards">
          <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
          <tbody>
            {fields.map((f, i) => (
              <tr key={i}>
                <td data-label="Key"><input aria-label={`Key of field ${i + 1}`} value={f.key} onChange={(e) => set(i, { key: e.target.value })} /></td>
                <td data-label="Name"><input aria-label={`Name of field ${i + 1}`} value={f.displayName ?? ''} onChange={(e) => set(i, { displayName: e.target.value })} /></td>
                <td data-label="Type"><select aria-label={`Type of field ${i + 1}`} className="select" value={f.type} onChange={(e) => set(i, { type: e.target.value })}>{TYPES.map((t) => <option key={t} value={t}>{t.toLowerCase()}</option>)}</select></td>
                <td className="row-actions"><button type="button" className="link" onClick={() => setFields((l) => l.filter((_, j) => j !== i))}>Remove<span className="visually-hidden"> field {f.key}</span></button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="actions">
        <button type="button" className="button secondary small" onClick={() => setFields((l) => [...l, { key: '', displayName: '', type: 'TEXT' }])}>Add a field</button>
        <button type="button" className="button small" disabled={update.isPending} onClick={() => { result.clear(); saveFields(); }}>{update.isPending ? 'Saving…' : 'Save fields'}</button>
      </div>
    </section>
  );
}
