import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { PRODUCT_LIMITS, type Product } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Modal } from '../ui.js';
import { useBulkEdit, type BulkProgress } from './queries.js';

/** One change for many products: a price, the stock of every variant (within the server's limit), or visibility. */
export const bulkSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('price'), value: z.string().trim().regex(/^\d+(\.\d+)?$/, 'Enter a price like 12.50') }),
  z.object({
    field: z.literal('stock'),
    value: z.string().trim().regex(/^\d+$/, 'Enter a whole number')
      .refine((v) => Number(v) <= PRODUCT_LIMITS.quantity, `At most ${PRODUCT_LIMITS.quantity.toLocaleString('en-US')}`),
  }),
  z.object({ field: z.literal('visible'), value: z.enum(['visible', 'hidden'], { message: 'Choose visible or hidden' }) }),
]);
export type BulkForm = z.input<typeof bulkSchema>;

const FIELD_LABELS = { price: 'Price', stock: 'Stock', visible: 'Visibility' } as const;

/** Price, stock or visibility for the selected products, in chunks, with a progress bar. */
export function BulkEdit({ open, onOpenChange, ids, products, onDone }: { open: boolean; onOpenChange: (open: boolean) => void; ids: string[]; products: Product[]; onDone: () => void }) {
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const bulk = useBulkEdit();
  const running = bulk.isPending;
  const { register, handleSubmit, watch, setValue, formState: { errors } } = useForm<BulkForm>({ resolver: zodResolver(bulkSchema), defaultValues: { field: 'price', value: '' } });
  const field = watch('field');
  const run = handleSubmit(({ field: changed, value }) => {
    const known = new Map(products.map((p) => [p._id, p]));
    bulk.mutate({ ids, field: changed, value, known, onProgress: setProgress }, { onSuccess: ({ failed }) => { if (failed.length === 0) onDone(); } });
  });
  return (
    <Modal open={open} onOpenChange={(o) => { if (!running) onOpenChange(o); }} title={`Edit ${ids.length} products`} description="One change for every selected product.">
      <form className="form-grid" onSubmit={(e) => void run(e)} noValidate>
        <fieldset className="segmented three-way">
          <legend>Change</legend>
          {(['price', 'stock', 'visible'] as const).map((f) => (
            <label key={f}><input type="radio" value={f} {...register('field', { onChange: () => setValue('value', '') })} /> {FIELD_LABELS[f]}</label>
          ))}
        </fieldset>
        {field === 'visible' ? (
          <SelectField label="Visibility" error={errors.value?.message} {...register('value')}>
            <option value="">Choose…</option><option value="visible">Visible in the shop</option><option value="hidden">Hidden</option>
          </SelectField>
        ) : (
          <Field label={field === 'price' ? 'New price' : 'Quantity in stock (every variant)'} inputMode={field === 'price' ? 'decimal' : 'numeric'} error={errors.value?.message} {...register('value')} />
        )}
        {progress && (
          <div>
            <label htmlFor="bulk-progress">Progress</label>
            <progress id="bulk-progress" max={ids.length} value={progress.done} className="progress" />
            <p className="small" role="status">{progress.done} of {ids.length} done{progress.failed.length ? `, ${progress.failed.length} failed` : ''}.</p>
            {progress.failed.length > 0 && <ul className="small error-list">{progress.failed.map((f) => <li key={f}>{f}</li>)}</ul>}
          </div>
        )}
        <div className="actions">
          <button type="submit" className="button" disabled={running}>{running ? 'Applying…' : 'Apply'}</button>
        </div>
      </form>
    </Modal>
  );
}
