import { useState, type FormEvent } from 'react';
import type { DataCollection, DataIndex } from '@bodega/sdk';
import { actionsColumn, ListTable } from '../ListTable.js';
import { Confirm, useResult } from '../ui.js';
import { useCreateIndex, useDataIndexes, useDropIndex, useUpdateDataCollection } from './queries.js';
import { OPERATION_LABELS, OPERATIONS, permissionsOf, ROLES, roleLabel, type Permissions, type Role } from './permissions.js';

/** Who may read, add, change and delete the collection's items. */
export function PermissionsPanel({ collection }: { collection: DataCollection }) {
  const result = useResult();
  const saved = permissionsOf(collection.permissions);
  const [permissions, setPermissions] = useState<Permissions>(saved);
  const changed = OPERATIONS.some((op) => permissions[op] !== saved[op]);
  const save = useUpdateDataCollection();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    result.clear();
    save.mutate({ ...collection, permissions: { ...permissions } }, { onSuccess: () => result.ok('Permissions saved.'), onError: (error) => result.fail(error) });
  }
  return (
    <section className="panel" aria-labelledby="permissions-heading">
      <h2 id="permissions-heading">Permissions</h2>
      <p className="muted">Who may do what with the items, in the shop and through the API. “The item’s author” is the member who added it. The back office and API keys may always do everything.</p>
      {result.view}
      <form className="stack" onSubmit={submit}>
        <div className="two">
          {OPERATIONS.map((op) => (
            <div className="field" key={op}>
              <label htmlFor={`perm-${op}`}>{OPERATION_LABELS[op]}</label>
              <select id={`perm-${op}`} value={permissions[op]} onChange={(e) => setPermissions({ ...permissions, [op]: e.target.value as Role })}>
                {ROLES.map((role) => <option key={role} value={role}>{roleLabel(role, op)}</option>)}
              </select>
            </div>
          ))}
        </div>
        <div className="actions">
          <button type="submit" className="button small" disabled={!changed || save.isPending}>{save.isPending ? 'Saving…' : 'Save permissions'}</button>
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

interface IndexField { path: string; order: 'ASC' | 'DESC' }
const MAX_INDEX_FIELDS = 3;

/** The collection's indexes: list with their status, create, drop. */
export function IndexesPanel({ collectionId, fieldKeys }: { collectionId: string; fieldKeys: string[] }) {
  const result = useResult();
  // An index another tab or program is building is read again until it is ready.
  const indexes = useDataIndexes(collectionId);
  const paths = [...fieldKeys, '_createdDate', '_updatedDate', '_owner'];
  const [name, setName] = useState('');
  const [fields, setFields] = useState<IndexField[]>([{ path: paths[0] ?? '', order: 'ASC' }]);
  const [unique, setUnique] = useState(false);
  const [dropping, setDropping] = useState<DataIndex | null>(null);
  const create = useCreateIndex(collectionId);
  const drop = useDropIndex(collectionId);
  const set = (i: number, change: Partial<IndexField>) => setFields((list) => list.map((f, j) => (j === i ? { ...f, ...change } : f)));
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    result.clear();
    create.mutate({ name: name.trim(), fields, unique }, {
      onSuccess: (index) => {
        if (index.status === 'FAILED') result.fail(new Error(`Index “${index.name}” could not be built: ${index.failure?.description ?? 'unknown error'}`));
        else result.ok(`Index “${index.name}” created.`);
        setName('');
        setFields([{ path: paths[0] ?? '', order: 'ASC' }]);
        setUnique(false);
      },
      onError: (error) => result.fail(error),
    });
  }
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
      <form className="stack index-form" onSubmit={submit} aria-labelledby="new-index-heading">
        <h3 id="new-index-heading">New index</h3>
        <div className="field">
          <label htmlFor="index-name">Name</label>
          <input id="index-name" required maxLength={128} pattern="[A-Za-z0-9_][A-Za-z0-9_ \-]*" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="index-name-hint" />
          <p id="index-name-hint" className="hint">Letters, digits, spaces, - and _.</p>
        </div>
        {fields.map((f, i) => (
          <div className="inline index-field" key={i}>
            <div className="field">
              <label htmlFor={`index-path-${i}`}>Field {i + 1}</label>
              <select id={`index-path-${i}`} value={f.path} onChange={(e) => set(i, { path: e.target.value })}>
                {paths.map((p) => <option key={p} value={p}>{p}</option>)}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`index-order-${i}`}>Order</label>
              <select id={`index-order-${i}`} value={f.order} onChange={(e) => set(i, { order: e.target.value === 'DESC' ? 'DESC' : 'ASC' })}>
                <option value="ASC">Ascending</option><option value="DESC">Descending</option>
              </select>
            </div>
            {fields.length > 1 && <button type="button" className="link" onClick={() => setFields((list) => list.filter((_, j) => j !== i))}>Remove<span className="visually-hidden"> field {i + 1}</span></button>}
          </div>
        ))}
        <label className="check"><input type="checkbox" checked={unique} disabled={fields.length > 1} onChange={(e) => setUnique(e.target.checked)} /> Unique (one field only)</label>
        <div className="actions">
          {fields.length < MAX_INDEX_FIELDS && <button type="button" className="button secondary small" onClick={() => { setUnique(false); setFields((list) => [...list, { path: paths.find((p) => !list.some((f) => f.path === p)) ?? paths[0] ?? '', order: 'ASC' }]); }}>Add a field</button>}
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
