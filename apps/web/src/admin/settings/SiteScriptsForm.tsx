import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { SITE_SCRIPT_LIMITS, SITE_SCRIPT_POSITIONS, type SiteScript } from '@bodega/sdk';
import { SelectField } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { usePermissions } from '../context.js';
import { useResult } from '../ui.js';
import { useReplaceSiteScripts, useSiteScripts } from './queries.js';

const schema = z.object({
  scripts: z.array(z.object({
    position: z.enum(SITE_SCRIPT_POSITIONS),
    html: z.string().trim().min(1, 'Paste the script tag, or remove this script').max(SITE_SCRIPT_LIMITS.html, `At most ${SITE_SCRIPT_LIMITS.html.toLocaleString('en-US')} characters`),
  })).max(SITE_SCRIPT_LIMITS.scripts, `At most ${SITE_SCRIPT_LIMITS.scripts} scripts`),
});
type Form = z.infer<typeof schema>;

/**
 * Site scripts: HTML that headless sites built with `@wix/astro` add to every page (analytics, chat).
 * A script runs on every page, so only the owner changes them; others see them read-only.
 */
export function SiteScriptsSection() {
  const scripts = useSiteScripts();
  if (scripts.isPending) return <Loading label="Loading the site scripts…" />;
  if (scripts.isError) return <ErrorState error={scripts.error} retry={() => void scripts.refetch()} />;
  return <SiteScriptsForm scripts={scripts.data} />;
}

function SiteScriptsForm({ scripts }: { scripts: SiteScript[] }) {
  const { owner } = usePermissions();
  const result = useResult();
  const { register, control, handleSubmit, formState: { errors } } = useForm<Form>({ resolver: zodResolver(schema), defaultValues: { scripts } });
  const rows = useFieldArray({ control, name: 'scripts' });
  const saving = useReplaceSiteScripts();
  const save = (form: Form) => saving.mutate(form.scripts, { onSuccess: () => result.ok('Site scripts saved.'), onError: (error) => result.fail(error) });
  return (
    <form className="panel settings-form" noValidate aria-labelledby="site-scripts-heading" onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
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
          <button type="button" className="button secondary" onClick={() => rows.append({ position: 'HEAD', html: '' })} disabled={rows.fields.length >= SITE_SCRIPT_LIMITS.scripts}>Add a script</button>
          <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save site scripts'}</button>
        </div>
      )}
    </form>
  );
}
