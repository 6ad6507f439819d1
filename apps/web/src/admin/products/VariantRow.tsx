import type { UseFormReturn } from 'react-hook-form';
import { rowName, type ProductForm, type VariantRow as Row } from './product-form.js';

const CELLS: { field: keyof Row; label: string; inputMode?: 'decimal' | 'numeric' }[] = [
  { field: 'price', label: 'Price', inputMode: 'decimal' },
  { field: 'sku', label: 'SKU' },
  { field: 'weight', label: 'Weight', inputMode: 'decimal' },
  { field: 'stock', label: 'Stock', inputMode: 'numeric' },
];

/** One variant of the product form's table: its price, SKU, weight and stock, checked by the form's schema. */
export function VariantRow({ form, choices, trackInventory }: { form: UseFormReturn<ProductForm>; choices: Record<string, string>; trackInventory: boolean }) {
  const { register, watch, formState: { errors } } = form;
  const name = rowName(choices);
  const label = Object.values(choices).join(' / ');
  const rowErrors = errors.variants?.[name];
  return (
    <tr>
      <th scope="row">{label}</th>
      {CELLS.map(({ field, label: cell, inputMode }) => {
        const error = rowErrors?.[field]?.message;
        const errorId = `variant-${name}-${field}-error`;
        return (
          <td key={field} data-label={cell}>
            <input aria-label={`${cell} of ${label}`} inputMode={inputMode} placeholder={field === 'price' ? watch('price') : undefined}
              disabled={field === 'stock' && !trackInventory} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}
              {...register(`variants.${name}.${field}`)} />
            {error && <p id={errorId} className="error">{error}</p>}
          </td>
        );
      })}
    </tr>
  );
}
