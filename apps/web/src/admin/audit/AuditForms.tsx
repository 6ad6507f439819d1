import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { AUDIT_LIMITS, type AuditFilters } from '@bodega/sdk';
import { Field } from '../../ui/Field.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useResult } from '../ui.js';
import { AUDIT_ACTIONS } from './entries.js';
import { useAuditSettings, useSaveRetention } from './queries.js';

const day = z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, 'A date');
const filterSchema = z.object({
  action: z.string(),
  actor: z.string().trim().max(AUDIT_LIMITS.actor, `At most ${AUDIT_LIMITS.actor} characters`),
  objectId: z.string().trim().max(AUDIT_LIMITS.text, `At most ${AUDIT_LIMITS.text} characters`),
  from: day,
  to: day,
}).refine((f) => !f.from || !f.to || f.from <= f.to, { path: ['to'], message: 'On or after the first day' });
type FilterForm = z.infer<typeof filterSchema>;
const NO_FILTERS: FilterForm = { action: '', actor: '', objectId: '', from: '', to: '' };

/** The day after `date` (YYYY-MM-DD), at midnight UTC: the server's `to` is exclusive, the form's last day inclusive. */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

function toFilters(form: FilterForm): AuditFilters {
  return {
    ...(form.action && { action: form.action }),
    ...(form.actor && { actor: form.actor }),
    ...(form.objectId && { objectId: form.objectId }),
    ...(form.from && { from: form.from }),
    ...(form.to && { to: dayAfter(form.to) }),
  };
}

export function AuditFilterForm({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const { register, handleSubmit, reset, formState: { errors } } = useForm<FilterForm>({ resolver: zodResolver(filterSchema), defaultValues: NO_FILTERS });
  return (
    <form className="filters-bar audit-filters" aria-label="Filter the audit log" noValidate onSubmit={(e) => void handleSubmit((f) => onApply(toFilters(f)))(e)}>
      <div className="filter">
        <label htmlFor="audit-action">Action</label>
        <select id="audit-action" {...register('action')}>
          <option value="">Any</option>
          {AUDIT_ACTIONS.map((a) => <option key={a.value} value={a.value}>{a.label}</option>)}
        </select>
      </div>
      <Field label="Who (e-mail or id)" className="filter" {...register('actor')} />
      <Field label="Object id" className="filter" {...register('objectId')} />
      <Field label="From (UTC)" type="date" className="filter" {...register('from')} error={errors.from?.message} />
      <Field label="To (UTC)" type="date" className="filter" {...register('to')} error={errors.to?.message} />
      <div className="actions">
        <button type="submit" className="button small">Filter</button>
        <button type="button" className="button secondary small" onClick={() => { reset(NO_FILTERS); onApply({}); }}>Clear</button>
      </div>
    </form>
  );
}

const retentionSchema = z.object({
  retentionDays: z.coerce.number({ message: 'A number of days' }).int('Whole days').min(1, 'At least 1 day').max(AUDIT_LIMITS.retentionDays, `At most ${AUDIT_LIMITS.retentionDays} days`),
});
type RetentionInput = z.input<typeof retentionSchema>;
type RetentionForm = z.output<typeof retentionSchema>;

/** How long entries are kept; older ones are deleted by the server each hour. */
export function RetentionForm() {
  const settings = useAuditSettings();
  if (settings.isPending) return <Loading label="Loading the retention…" />;
  if (settings.isError) return <ErrorState error={settings.error} retry={() => void settings.refetch()} />;
  return <RetentionFields days={settings.data.retentionDays} />;
}

function RetentionFields({ days }: { days: number }) {
  const save = useSaveRetention();
  const result = useResult();
  const { register, handleSubmit, formState: { errors } } = useForm<RetentionInput, unknown, RetentionForm>({ resolver: zodResolver(retentionSchema), defaultValues: { retentionDays: days } });
  return (
    <form className="panel settings-form retention-form" noValidate onSubmit={(e) => {
      result.clear();
      void handleSubmit((f) => save.mutate(f.retentionDays, { onSuccess: () => result.ok(`Entries are kept ${f.retentionDays} days.`), onError: (error) => result.fail(error) }))(e);
    }}>
      <h2>Retention</h2>
      {result.view}
      <Field label="Keep entries for (days)" type="number" inputMode="numeric" min={1} max={AUDIT_LIMITS.retentionDays} {...register('retentionDays')} error={errors.retentionDays?.message}
        hint="Older entries are deleted; nobody can change or delete an entry before that." />
      <div className="actions"><button type="submit" className="button" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save retention'}</button></div>
    </form>
  );
}
