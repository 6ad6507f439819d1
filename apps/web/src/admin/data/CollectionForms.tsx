import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { DataCollection, DataItem } from '@bodega/sdk';
import { Modal, useResult } from '../ui.js';
import { fieldsForm, fieldsOfForm, fieldsSchema, itemForm, itemOf, itemSchema, OFFERED_TYPES, type FieldDef, type FieldsForm, type ItemForm } from './field-forms.js';
import { useSaveItem, useUpdateDataCollection } from './queries.js';

/** Adds an item or edits one: a text per field, checked by the field's type. */
export function ItemEditor({ id, fields, item, onClose }: { id: string; fields: FieldDef[]; item?: DataItem; onClose: (saved?: string) => void }) {
  const save = useSaveItem(id);
  const { register, handleSubmit, formState: { errors } } = useForm<ItemForm>({ resolver: zodResolver(itemSchema(fields)), defaultValues: itemForm(fields, item) });
  const submit = handleSubmit((form) => {
    save.mutate({ item: itemOf(fields, item, form), existing: item !== undefined }, { onSuccess: () => onClose(item ? 'Item saved.' : 'Item added.') });
  });
  return (
    <Modal open onOpenChange={(o) => { if (!o) onClose(); }} title={item ? 'Edit item' : 'New item'}>
      <form className="form-grid" noValidate onSubmit={(e) => void submit(e)}>
        {fields.map((f, i) => {
          const error = errors.values?.[i]?.message;
          const input = { id: `item-${f.key}`, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `item-${f.key}-error` : undefined, ...register(`values.${i}`) };
          return (
            <div key={f.key} className="field">
              <label htmlFor={`item-${f.key}`}>{f.displayName || f.key} <span className="muted small">({f.type.toLowerCase()})</span></label>
              {f.type === 'BOOLEAN'
                ? <select {...input}><option value="">—</option><option value="true">Yes</option><option value="false">No</option></select>
                : <input inputMode={f.type === 'NUMBER' ? 'decimal' : undefined} {...input} />}
              {error && <p id={`item-${f.key}-error`} className="error">{error}</p>}
            </div>
          );
        })}
        {save.isError && <p className="error" role="alert">{save.error instanceof Error ? save.error.message : 'Not saved.'}</p>}
        <div className="actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button></div>
      </form>
    </Modal>
  );
}

/** The collection's fields: key, name and type per row, saved together. */
export function FieldsTable({ collection }: { collection: DataCollection }) {
  const result = useResult();
  const update = useUpdateDataCollection();
  const { register, control, handleSubmit, formState: { errors } } = useForm<FieldsForm>({ resolver: zodResolver(fieldsSchema), defaultValues: fieldsForm(collection) });
  const rows = useFieldArray({ control, name: 'fields' });
  const save = handleSubmit((form) => {
    result.clear();
    update.mutate({ ...collection, fields: fieldsOfForm(collection, form) }, {
      onSuccess: () => result.ok('Fields saved.'),
      onError: (error) => result.fail(error),
    });
  });
  const problem = (i: number, name: 'key' | 'displayName' | 'type') => errors.fields?.[i]?.[name]?.message;
  const described = (i: number, name: 'key' | 'displayName' | 'type') => {
    const error = problem(i, name);
    return { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `field-${i}-${name}-error` : undefined };
  };
  return (
    <section className="panel" aria-labelledby="schema-heading">
      <h2 id="schema-heading">Fields</h2>
      {result.view}
      <form noValidate onSubmit={(e) => void save(e)}>
        <div className="table-wrap">
          <table className="table cards">
            <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
            <tbody>
              {rows.fields.map((row, i) => (
                <tr key={row.id}>
                  <td data-label="Key">
                    <input aria-label={`Key of field ${i + 1}`} {...described(i, 'key')} {...register(`fields.${i}.key`)} />
                    {problem(i, 'key') && <p id={`field-${i}-key-error`} className="error">{problem(i, 'key')}</p>}
                  </td>
                  <td data-label="Name"><input aria-label={`Name of field ${i + 1}`} {...register(`fields.${i}.displayName`)} /></td>
                  <td data-label="Type">
                    <select aria-label={`Type of field ${i + 1}`} className="select" {...register(`fields.${i}.type`)}>
                      {(OFFERED_TYPES.includes(row.type) ? OFFERED_TYPES : [row.type, ...OFFERED_TYPES]).map((t) => <option key={t} value={t}>{t.toLowerCase()}</option>)}
                    </select>
                  </td>
                  <td className="row-actions"><button type="button" className="link" onClick={() => rows.remove(i)}>Remove<span className="visually-hidden"> field {row.key}</span></button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {errors.fields?.message && <p className="error" role="alert">{errors.fields.message}</p>}
        <div className="actions">
          <button type="button" className="button secondary small" onClick={() => rows.append({ key: '', displayName: '', type: 'TEXT' })}>Add a field</button>
          <button type="submit" className="button small" disabled={update.isPending}>{update.isPending ? 'Saving…' : 'Save fields'}</button>
        </div>
      </form>
    </section>
  );
}
