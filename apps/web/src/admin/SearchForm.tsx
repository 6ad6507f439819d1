import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

const schema = z.object({ q: z.string().trim().max(200, 'At most 200 characters') });

/**
 * A list's search box: the term lives in the page's URL (`value`), the form keeps what is typed
 * until Search (or Enter) hands it, trimmed, to `onSearch`.
 */
export function SearchForm({ id, label, value, onSearch }: { id: string; label: string; value: string; onSearch: (q: string) => void }) {
  const { register, handleSubmit, formState: { errors } } = useForm<{ q: string }>({ resolver: zodResolver(schema), values: { q: value } });
  return (
    <form className="search-form" noValidate onSubmit={(e) => void handleSubmit((f) => onSearch(f.q))(e)}>
      <label htmlFor={id}>{label}</label>
      <div className="inline">
        <input id={id} type="search" aria-invalid={errors.q ? true : undefined} aria-describedby={errors.q ? `${id}-error` : undefined} {...register('q')} />
        <button type="submit" className="button small">Search</button>
      </div>
      {errors.q && <p id={`${id}-error`} className="error">{errors.q.message}</p>}
    </form>
  );
}
