import { useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { BodegaError, COMMERCE_SETTINGS_LIMITS as L, type CommerceSettings } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { useResult } from '../ui.js';
import { FEE_LABELS, feesTipsSchema, fromFeesTipsDraft, toFeesTipsDraft, type FeesTipsDraft } from './fees-tips-draft.js';
import { useSaveCommerceSettings } from './queries.js';

/** The server's field path (`additionalFees[0].amount`) as this form's (`fees.0.value`). */
function formPath(field: string): FieldPath<FeesTipsDraft> {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^additionalFees\.(\d+)\.(amount|percent)$/, 'fees.$1.value').replace(/^additionalFees/, 'fees') as FieldPath<FeesTipsDraft>;
}

/**
 * Settings › Shipping and tax › Fees and tips: the additional fees (handling, insurance) and the
 * tips the checkout offers. Its own form and save, sending only `additionalFees` and `tips`.
 */
export function FeesTipsForm({ settings }: { settings: CommerceSettings }) {
  const result = useResult();
  const { control, register, handleSubmit, reset, setError, formState: { errors, isDirty } } = useForm<FeesTipsDraft>({
    defaultValues: toFeesTipsDraft(settings), resolver: zodResolver(feesTipsSchema),
  });
  const fees = useFieldArray({ control, name: 'fees' });
  const presets = useFieldArray({ control, name: 'tips.presets' });
  const watchedFees = useWatch({ control, name: 'fees' });
  const [enabled, tipType] = useWatch({ control, name: ['tips.enabled', 'tips.tipType'] });
  const saving = useSaveCommerceSettings();
  const save = (draft: FeesTipsDraft) => saving.mutate(fromFeesTipsDraft(draft), {
    onSuccess: () => {
      reset(draft);
      result.ok('Fees and tips saved.');
    },
    onError: (error) => {
      if (error instanceof BodegaError) {
        for (const v of error.details.validationError?.fieldViolations ?? []) setError(formPath(v.field), { type: 'server', message: v.description });
      }
      result.fail(error);
    },
  });
  const free = (['HANDLING_FEE', 'INSURANCE'] as const).find((kind) => !watchedFees.some((f) => f.kind === kind));
  const percent = tipType !== 'AMOUNT';

  return (
    <form className="commerce-form fees-tips-form" noValidate aria-labelledby="fees-tips-heading" onSubmit={(e) => { result.clear(); void handleSubmit(save)(e); }}>
      <h2 id="fees-tips-heading" className="visually-hidden">Fees and tips</h2>
      {result.view}
      <section className="panel" aria-labelledby="fees-heading">
        <h2 id="fees-heading">Additional fees</h2>
        <p className="muted">Added to every order with something to ship: a fixed amount, or a percent of the items after discounts. A taxed fee pays the order's tax rate.</p>
        {fees.fields.length === 0 && <p className="muted">No additional fees.</p>}
        {fees.fields.map((field, i) => {
          const fee = watchedFees[i] ?? field;
          const title = fee.name.trim() || FEE_LABELS[fee.kind];
          return (
            <fieldset key={field.id} className="rule">
              <legend>{title}</legend>
              <div className="rule-grid">
                <SelectField label="Kind" {...register(`fees.${i}.kind`)} error={errors.fees?.[i]?.kind?.message}>
                  <option value="HANDLING_FEE">Handling fee</option>
                  <option value="INSURANCE">Insurance</option>
                </SelectField>
                <Field label="Name shoppers see" maxLength={L.title} {...register(`fees.${i}.name`)} error={errors.fees?.[i]?.name?.message} />
                <SelectField label="Charged as" {...register(`fees.${i}.basis`)}>
                  <option value="AMOUNT">a fixed amount</option>
                  <option value="PERCENT">a percent of the items</option>
                </SelectField>
                <Field label={fee.basis === 'PERCENT' ? 'Percent (%)' : 'Amount'} inputMode="decimal" {...register(`fees.${i}.value`, { setValueAs: (v: string) => v.trim() })} error={errors.fees?.[i]?.value?.message} />
              </div>
              <label className="check"><input type="checkbox" {...register(`fees.${i}.taxable`)} /> Charge tax on this fee</label>
              <button type="button" className="link" onClick={() => fees.remove(i)}>Remove {title}</button>
            </fieldset>
          );
        })}
        {errors.fees?.root?.message && <p className="error">{errors.fees.root.message}</p>}
        {free && (
          <p><button type="button" className="button secondary small" onClick={() => fees.append({ kind: free, name: FEE_LABELS[free], basis: 'AMOUNT', value: '', taxable: false })}>Add {FEE_LABELS[free].toLowerCase()}</button></p>
        )}
      </section>

      <section className="panel" aria-labelledby="tips-heading">
        <h2 id="tips-heading">Tips</h2>
        <p className="muted">Shoppers pick one of your tips (or, if you allow it, an amount of their own) in the checkout's summary. Tips are not taxed; percents are of the items after discounts; each order keeps the split.</p>
        <label className="check"><input type="checkbox" {...register('tips.enabled')} /> Offer tips at checkout</label>
        <fieldset className="plain-group" disabled={!enabled}>
          <legend className="visually-hidden">Tip options</legend>
          <div className="rule-grid">
            <SelectField label="Tips are" {...register('tips.tipType')}>
              <option value="PERCENTAGE">percents of the items</option>
              <option value="AMOUNT">fixed amounts</option>
            </SelectField>
            <SelectField label="Suggested tip" {...register('tips.suggested')}>
              <option value="">none</option>
              {presets.fields.map((field, i) => <option key={field.id} value={String(i)}>Tip {i + 1}</option>)}
            </SelectField>
            <SelectField label="Split among staff" {...register('tips.split')}>
              <option value="EQUAL">equally</option>
              <option value="PROPORTIONAL">in proportion</option>
            </SelectField>
          </div>
          <div className="rule-grid tip-presets">
            {presets.fields.map((field, i) => (
              <div key={field.id} className="tip-preset">
                <Field label={`Tip ${i + 1}${percent ? ' (%)' : ''}`} inputMode="decimal" {...register(`tips.presets.${i}.value`, { setValueAs: (v: string) => v.trim() })} error={errors.tips?.presets?.[i]?.value?.message} />
                {presets.fields.length > 1 && <button type="button" className="link" onClick={() => presets.remove(i)}>Remove tip {i + 1}</button>}
              </div>
            ))}
          </div>
          {errors.tips?.presets?.root?.message && <p className="error">{errors.tips.presets.root.message}</p>}
          {presets.fields.length < L.tipPresets && (
            <p><button type="button" className="button secondary small" onClick={() => presets.append({ value: '' })}>Add a tip choice</button></p>
          )}
          <label className="check"><input type="checkbox" {...register('tips.allowCustomAmount')} /> Let shoppers enter another amount</label>
        </fieldset>
      </section>
      <div className="actions">
        {isDirty && <button type="button" className="button secondary" onClick={() => { result.clear(); reset(); }} disabled={saving.isPending}>Discard<span className="visually-hidden"> fee and tip changes</span></button>}
        <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save fees and tips'}</button>
      </div>
    </form>
  );
}
