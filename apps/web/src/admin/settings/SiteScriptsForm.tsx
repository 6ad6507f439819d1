import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SiteScript } from '@bodega/sdk';
import { SelectField } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin, usePermissions } from '../context.js';
import { useResult } from '../ui.js';

const schema = z.object({
  scripts: z.array(z.object({
    position: z.enum(['HEAD', 'BODY_START', 'BODY_END']),
    html: z.string().trim().min(1, 'Paste the script tag, or remove this script').max(15_000, 'At most 15,000 characters'),
  })).max(20, 'At most 20 scripts'),
});
type Form = z.infer<typeof schema>;

const KEY = ['admin', 'site-scripts'];

/**
 * Site scripts: HTML that headless sites built with `@wix/astro` add to every page (analytics, chat).
 * A script runs on every page, so only the owner changes them; others see them read-only.
 */
export function SiteScriptsSection() {
  const { api } = useAdmin();
  const scripts = useQuery({ queryKey: KEY, queryFn: async () => (await api.settings.listSiteScripts()).siteScripts });
  if (scripts.isPending) return <Loading label="Loading the site scripts…" />;
  if (scripts.isError) return <ErrorState error={scripts.error} retry={() => void scripts.refetch()} />;
  return <SiteScriptsForm scripts={scripts.data} />;
}

function SiteScriptsForm({ scripts }: { scripts: SiteScript[] }) {
  const { api } = useAdmin();
  const { owner } = usePermissions();
  const queryClient = useQueryClient();
  const result = useResult();
  const { register, control, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { scripts } });
  const rows = useFieldArray({ control, name: 'scripts' });
  const saving = useMutation({
    mutationFn: (form: Form) => api.settings.replaceSiteScripts(form.scripts),
    onSuccess: async () => { result.ok('Site scripts saved.'); await queryClient.invalidateQueries({ queryKey: KEY }); },
    onError: (error) => result.fail(error),
  });
  return (
    <form className="panel settings-form" noValidate aria-labelledby="site-scripts-heading" onSubmit={(e) => { result.clear(); void handleSubmit((f) => saving.mutate(f))(e); }}>
      <h2 id="site-scripts-heading">Site scripts</h2>
      <p className="hint">HTML added to every page of a headless site built with the Wix Astro integration, such as an analytics or chat tag.{owner ? '' : ' Only the owner can change them.'}</p>
      {result.view}
      {rows.fields.length === 0 && <p className="muted">No site scripts.</p>}
      {rows.fields.map((row, i) => (
        <fieldset key={row.id} className="site-script" disabled={!owner}>
          <legend>Script {i + 1}</legend>
          <SelectField label="Where on the page" {...register(`scripts.${i}.position`)}>
            <option value="HEAD">In the head</option>
            <option value="BODY_START">At the start of the body</option>
            <option value="BODY_END">At the end of the body</option>
          </SelectField>
          <div className="field">
            <label htmlFor={`script-html-${i}`}>HTML</label>
            <textarea id={`script-html-${i}`} rows={4} spellCheck={false} {...register(`scripts.${i}.html`)}
              aria-invalid={errors.scripts?.[i]?.html ? true : undefined} aria-describedby={errors.scripts?.[i]?.html ? `script-html-${i}-error` : undefined} />
            {errors.scripts?.[i]?.html && <p className="error" id={`script-html-${i}-error`}>{errors.scripts[i]?.html?.message}</p>}
          </div>
          {owner && <button type="button" className="button secondary" onClick={() => rows.remove(i)}>Remove script {i + 1}</button>}
        </fieldset>
      ))}
      {errors.scripts?.message && <p className="error">{errors.scripts.message}</p>}
      {owner && (
        <div className="actions">
          <button type="button" className="button secondary" onClick={() => rows.append({ position: 'HEAD', html: '' })} disabled={rows.fields.length >= 20}>Add a script</button>
          <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save site scripts'}</button>
        </div>
      )}
    </form>
  );
}
