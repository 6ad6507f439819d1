import { useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { DATA_COLLECTION_LIMITS, DATA_INDEX_NAME_PATTERN, type DataCollection, type DataIndex } from '@bodega/sdk';
import { actionsColumn, ListTable } from '../ListTable.js';
import { Confirm, useResult } from '../ui.js';
import { useCreateIndex, useDataIndexes, useDropIndex, useUpdateDataCollection } from './queries.js';
import { OPERATION_LABELS, OPERATIONS, permissionsOf, ROLES, roleLabel, type Permissions } from './permissions.js';

/** Who may read, add, change and delete the collection's items. */
export function PermissionsPanel({ collection }: { collection: DataCollection }) {
  const result = useResult();
  const { register, handleSubmit, reset, formState: { isDirty } } = useForm<Permissions>({ resolver: zodResolver(permissionsSchema), defaultValues: permissionsOf(collection.permissions) });
  const save = useUpdateDataCollection();
  const submit = handleSubmit((permissions) => {
    result.clear();
    save.mutate({ ...collection, permissions: { ...permissions } }, {
      onSuccess: () => { reset(permissions); result.ok('Permissions saved.'); },
      onError: (error) => result.fail(error),
    });
  });
  return (
    <section className="panel" aria-labelledby="permissions-heading">
      <h2 id="permissions-heading">Permissions</h2>
      <p className="muted">Who may do what with the items, in the shop and through the API. “The item’s author” is the member who added it. The back office and API keys may always do everything.</p>
      {result.view}
      <form className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <div className="two">
          {OPERATIONS.map((op) => (
            <div className="field" key={op}>
              <label htmlFor={`perm-${op}`}>{OPERATION_LABELS[op]}</label>
              <select id={`perm-${op}`} {...register(op)}>
                {ROLES.map((role) => <option key={role} value={role}>{roleLabel(role, op)}</option>)}
              </select>
            </div>
          ))}
        </div>
        <div className="actions">
          <button type="submit" className="button small" disabled={!isDirty || save.isPending}>{save.isPending ? 'Saving…' : 'Save permissions'}</button>
        </div>
      </form>
    </section>
  );
}

const STATUS_LABELS: Record<string, { text: string; tone: string }> = {
  ACTIVE: { text: 'Ready', tone: 'ok' }, BUILDING: { text: 'Building', tone: 'warn' }, FAILED: { text: 'Failed', tone: 'bad' },
  DROPPING: { text: 'Dropping', tone: 'soft' },
};

function IndexStatus({ index }: { index: DataIndex }) {
  const s = STATUS_LABELS[index.status ?? ''] ?? { text: index.status ?? '—', tone: 'soft' };
  return (
    <span>
      <span className={`status status-${s.tone}`} data-status={index.status}>{s.text}</span>
      {index.failure?.description && <span className="block muted small">{index.failure.description}</span>}
    </span>
  );
}

const MAX_INDEX_FIELDS = DATA_COLLECTION_LIMITS.indexFields;
const INDEX_NAME = DATA_COLLECTION_LIMITS.indexName;
const role = z.enum(ROLES);
const permissionsSchema = z.object({ read: role, insert: role, update: role, remove: role });
const indexSchema = z.object({
  name: z.string().trim().min(1, 'Name the index').max(INDEX_NAME, `At most ${INDEX_NAME} characters`).regex(new RegExp(DATA_INDEX_NAME_PATTERN), 'Letters, digits, spaces, - and _; not starting with a space or -'),
  fields: z.array(z.object({ path: z.string().min(1), order: z.enum(['ASC', 'DESC']) })).min(1).max(MAX_INDEX_FIELDS),
  // A disabled box (two fields or more) reads as no value: not unique.
  unique: z.boolean().optional(),
});
type IndexForm = z.infer<typeof indexSchema>;

/** The collection's indexes: list with their status, create, drop. */
export function IndexesPanel({ collectionId, fieldKeys }: { collectionId: string; fieldKeys: string[] }) {
  const result = useResult();
  // An index another tab or program is building is read again until it is ready.
  const indexes = useDataIndexes(collectionId);
  const paths = [...fieldKeys, '_createdDate', '_updatedDate', '_owner'];
  const blank: IndexForm = { name: '', fields: [{ path: paths[0] ?? '', order: 'ASC' }], unique: false };
  const { register, control, handleSubmit, reset, setValue, formState: { errors } } = useForm<IndexForm>({ resolver: zodResolver(indexSchema), defaultValues: blank });
  const fieldRows = useFieldArray({ control, name: 'fields' });
  const fields = useWatch({ control, name: 'fields' });
  const name = useWatch({ control, name: 'name' });
  const [dropping, setDropping] = useState<DataIndex | null>(null);
  const create = useCreateIndex(collectionId);
  const drop = useDropIndex(collectionId);
  const submit = handleSubmit((index) => {
    result.clear();
    create.mutate({ ...index, unique: index.unique === true && index.fields.length === 1 }, {
      onSuccess: (made) => {
        if (made.status === 'FAILED') result.fail(new Error(`Index “${made.name}” could not be built: ${made.failure?.description ?? 'unknown error'}`));
        else result.ok(`Index “${made.name}” created.`);
        reset(blank);
      },
      onError: (error) => result.fail(error),
    });
  });
  return (
    <section className="panel" aria-labelledby="indexes-heading">
      <h2 id="indexes-heading">Indexes</h2>
      <p className="muted">An index makes filters and sorts on its fields fast on large collections. A unique index also refuses two items with the same value.</p>
      {result.view}
      <ListTable query={indexes} items={indexes.data} caption={`Indexes of ${collectionId}`} loading="Loading indexes…" empty="No indexes yet."
        columns={[{ label: 'Index' }, { label: 'Fields' }, { label: 'Unique' }, { label: 'Status' }, actionsColumn]}
        row={(index) => (
          <tr key={index.name}>
            <td className="card-title">{index.name}</td>
            <td data-label="Fields">{index.fields.map((f) => `${f.path} ${f.order === 'DESC' ? '↓' : '↑'}`).join(', ')}</td>
            <td data-label="Unique">{index.unique ? 'Yes' : 'No'}</td>
            <td data-label="Status"><IndexStatus index={index} /></td>
            <td className="row-actions">
              <button type="button" className="button small secondary danger-outline" onClick={() => setDropping(index)}>Drop<span className="visually-hidden"> index {index.name}</span></button>
            </td>
          </tr>
        )} />
      <form className="stack index-form" noValidate onSubmit={(e) => void submit(e)} aria-labelledby="new-index-heading">
        <h3 id="new-index-heading">New index</h3>
        <div className="field">
          <label htmlFor="index-name">Name</label>
          <input id="index-name" maxLength={INDEX_NAME} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? 'index-name-hint index-name-error' : 'index-name-hint'} {...register('name')} />
          <p id="index-name-hint" className="hint">Letters, digits, spaces, - and _.</p>
          {errors.name && <p id="index-name-error" className="error">{errors.name.message}</p>}
        </div>
        {fieldRows.fields.map((row, i) => (
          <div className="inline index-field" key={row.id}>
            <div className="field">
              <label htmlFor={`index-path-${i}`}>Field {i + 1}</label>
              <select id={`index-path-${i}`} {...register(`fields.${i}.path`)}>
                {paths.map((p) => <option key={p} value={p}>{p}</option>)}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`index-order-${i}`}>Order</label>
              <select id={`index-order-${i}`} {...register(`fields.${i}.order`)}>
                <option value="ASC">Ascending</option><option value="DESC">Descending</option>
              </select>
            </div>
            {fieldRows.fields.length > 1 && <button type="button" className="link" onClick={() => fieldRows.remove(i)}>Remove<span className="visually-hidden"> field {i + 1}</span></button>}
          </div>
        ))}
        <label className="check"><input type="checkbox" disabled={fieldRows.fields.length > 1} {...register('unique')} /> Unique (one field only)</label>
        <div className="actions">
          {fieldRows.fields.length < MAX_INDEX_FIELDS && <button type="button" className="button secondary small" onClick={() => { setValue('unique', false); fieldRows.append({ path: paths.find((p) => !fields.some((f) => f.path === p)) ?? paths[0] ?? '', order: 'ASC' }); }}>Add a field</button>}
          <button type="submit" className="button small" disabled={create.isPending || !name.trim()}>{create.isPending ? 'Creating…' : 'Create index'}</button>
        </div>
      </form>
      <Confirm open={dropping !== null} onOpenChange={(o) => { if (!o) setDropping(null); }} title={`Drop the index “${dropping?.name ?? ''}”?`} confirmLabel="Drop index"
        busy={drop.isPending} error={drop.error} onConfirm={() => dropping && drop.mutate(dropping, { onSuccess: (_, index) => { setDropping(null); result.ok(`Index “${index.name}” dropped.`); } })}>
        <p>The items stay; filters and sorts on its fields may get slower.</p>
      </Confirm>
    </section>
  );
}
