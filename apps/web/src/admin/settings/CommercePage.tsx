import { useEffect } from 'react';
import { get, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type FieldPath, type UseFormRegister, type UseFormSetValue } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { BodegaError, type CommerceSettings } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { PageHead, useResult } from '../ui.js';
import { draftSchema, fromDraft, toDraft, type Draft, type DraftAddress, type DraftRule } from './commerce-draft.js';
import { useCommerceSettings, useSaveCommerceSettings } from './queries.js';
import { SettingsNav } from './SettingsNav.js';
import { FeesTipsForm } from './FeesTipsForm.js';

export default function CommercePage() {
  const settings = useCommerceSettings();
  return (
    <>
      <PageHead title="Shipping and tax" lead="Where you ship and what it costs, pickup, tax rates and when stock is taken." />
      <SettingsNav />
      {settings.isPending && <Loading label="Loading the settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <Commerce settings={settings.data} />}
      {settings.data && <FeesTipsForm settings={settings.data} />}
    </>
  );
}

/** The server's field path (`shippingRegions[0].country`) as the form's (`shippingRegions.0.country`). */
const formPath = (field: string) => field.replace(/\[(\d+)\]/g, '.$1');

/** How many messages the errors hold (each field says its own). */
function countErrors(errors: unknown): number {
  if (!errors || typeof errors !== 'object') return 0;
  if (typeof (errors as { message?: unknown }).message === 'string') return 1;
  return Object.entries(errors).reduce((n, [key, value]) => (key === 'ref' ? n : n + countErrors(value)), 0);
}

const newCode = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const newRule = (): DraftRule => ({ code: 'standard', title: 'Standard delivery', rate: '', deliveryTime: '', condition: 'ANY', operator: 'GTE', threshold: '0' });
const NO_ADDRESS: DraftAddress = { addressLine: '', city: '', postalCode: '', subdivision: '', country: '' };
/** Country and subdivision codes are capitals; what is typed is kept so. */
const upper = { setValueAs: (value: string) => value.toUpperCase() };

interface Parts {
  control: Control<Draft>;
  register: UseFormRegister<Draft>;
  setValue: UseFormSetValue<Draft>;
  errors: FieldErrors<Draft>;
}
/** The field's message; a list's own (no rules in a region) may sit under `root`. */
const message = (errors: FieldErrors<Draft>, path: string): string | undefined => {
  const found = get(errors, path) as { message?: string; root?: { message?: string } } | undefined;
  return found?.message ?? found?.root?.message;
};

function Commerce({ settings }: { settings: CommerceSettings }) {
  const result = useResult();
  const { control, register, handleSubmit, reset, setValue, setError, formState: { errors, isDirty } } = useForm<Draft>({
    defaultValues: toDraft(settings), resolver: zodResolver(draftSchema), shouldFocusError: false,
  });
  const regions = useFieldArray({ control, name: 'shippingRegions' });
  const pickup = useFieldArray({ control, name: 'pickupOptions' });
  const rates = useFieldArray({ control, name: 'tax.rates' });
  const weightUnit = useWatch({ control, name: 'weightUnit' });
  useEffect(() => {
    if (!isDirty) return undefined;
    // Closing or reloading the tab with unsaved changes asks first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);
  const saving = useSaveCommerceSettings();
  const save = (draft: Draft) => saving.mutate(fromDraft(draft), {
    onSuccess: () => {
      reset(draft); // what was saved is the new "unchanged"
      result.ok('Shipping, pickup, tax and inventory settings saved.');
    },
    onError: (error) => {
      // A field the server refuses says so beside it, as the form's own checks do.
      if (error instanceof BodegaError) {
        for (const v of error.details.validationError?.fieldViolations ?? []) setError(formPath(v.field) as FieldPath<Draft>, { type: 'server', message: v.description });
      }
      result.fail(error);
    },
  });
  const focusFirstError = () => {
    // Once the messages are drawn, take the merchant to the first field to fix, centred so the
    // save bar at the bottom of the window never covers it.
    requestAnimationFrame(() => {
      const field = document.querySelector<HTMLElement>('.commerce-form [aria-invalid="true"]');
      field?.focus({ preventScroll: true });
      field?.scrollIntoView({ block: 'center' });
    });
  };
  const submit = handleSubmit(save, focusFirstError);
  const parts: Parts = { control, register, setValue, errors };
  const problems = countErrors(errors);
  return (
    <form className="commerce-form" noValidate onSubmit={(e) => { result.clear(); void submit(e); }}>
      {result.view}
      {problems > 0 && <Notice kind="error">{problems === 1 ? 'One field needs a change' : `${problems} fields need a change`} before saving; each says what is wrong.</Notice>}
      <section className="panel" aria-labelledby="inventory-heading">
        <h2 id="inventory-heading">Inventory</h2>
        <SelectField label="Take items out of stock when" className="settings-form" {...register('trigger')}>
          <option value="ON_ORDER_PLACED">the order is placed</option>
          <option value="ON_ORDER_PAID">the order is paid</option>
        </SelectField>
      </section>

      <section className="panel" aria-labelledby="shipping-heading">
        <h2 id="shipping-heading">Shipping regions</h2>
        <p className="muted">A buyer's address picks the region: a state or region first, then its country, then <code>*</code>. Each rule is an option with its price; rules with the same code are tiers of one option, and the cheapest tier that matches the order is offered.</p>
        <SelectField label="Weight unit" className="settings-form" {...register('weightUnit')}>
          <option value="KG">kilograms (kg)</option>
          <option value="LB">pounds (lb)</option>
        </SelectField>
        {regions.fields.length === 0 && <p className="muted">No shipping regions: buyers can only pick up.</p>}
        {regions.fields.map((field, i) => (
          <RegionFields key={field.id} index={i} parts={parts} weightUnit={weightUnit} onRemove={() => regions.remove(i)} />
        ))}
        <p>
          <button type="button" className="button secondary small" onClick={() => regions.append({ regionId: newCode('region'), name: '', country: '', subdivision: '', taxShipping: 'STORE', rules: [newRule()] })}>Add a region</button>
        </p>
      </section>

      <section className="panel" aria-labelledby="pickup-heading">
        <h2 id="pickup-heading">Pickup</h2>
        {pickup.fields.length === 0 && <p className="muted">No pickup: every order is shipped.</p>}
        {pickup.fields.map((field, i) => <PickupFields key={field.id} index={i} parts={parts} onRemove={() => pickup.remove(i)} />)}
        <p>
          <button type="button" className="button secondary small" onClick={() => pickup.append({ code: newCode('pickup'), title: '', cost: '0', instructions: '', address: NO_ADDRESS, otherAddress: {} })}>Add a pickup place</button>
        </p>
      </section>

      <section className="panel" aria-labelledby="tax-heading">
        <h2 id="tax-heading">Tax</h2>
        <label className="check"><input type="checkbox" {...register('tax.pricesIncludeTax')} /> Prices already include tax</label>
        <label className="check"><input type="checkbox" {...register('tax.taxShipping')} /> <span>Charge tax on shipping <span className="muted">(where a region does not say otherwise)</span></span></label>
        {rates.fields.length === 0 && <p className="muted">No tax rates: no tax is charged.</p>}
        {rates.fields.map((field, i) => <RateFields key={field.id} index={i} parts={parts} onRemove={() => rates.remove(i)} />)}
        <p><button type="button" className="button secondary small" onClick={() => rates.append({ country: '', subdivision: '', rate: '', name: '' })}>Add a rate</button></p>
      </section>
      {/* Stays in view at the bottom of the window, so Save is never a long scroll away. */}
      <div className={`save-bar${isDirty ? ' save-bar-dirty' : ''}`} role="region" aria-label="Save changes">
        <p className="save-bar-status" aria-live="polite" data-testid="save-status">{isDirty ? 'You have unsaved changes.' : 'No unsaved changes.'}</p>
        <div className="actions">
          {isDirty && <button type="button" className="button secondary" onClick={() => { result.clear(); reset(); }} disabled={saving.isPending}>Discard<span className="visually-hidden"> changes</span></button>}
          <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save shipping and tax'}</button>
        </div>
      </div>
    </form>
  );
}

function RegionFields({ index: i, parts: { control, register, setValue, errors }, weightUnit, onRemove }: { index: number; parts: Parts; weightUnit: Draft['weightUnit']; onRemove: () => void }) {
  const at = `shippingRegions.${i}` as const;
  const rules = useFieldArray({ control, name: `${at}.rules` });
  const name = useWatch({ control, name: `${at}.name` });
  const watched = useWatch({ control, name: `${at}.rules` });
  const unit = weightUnit === 'LB' ? 'lb' : 'kg';
  return (
    <fieldset className="region">
      <legend>{name || `Region ${i + 1}`}</legend>
      <div className="rule-grid region-head">
        <Field label="Region name" {...register(`${at}.name`)} error={message(errors, `${at}.name`)} />
        <Field label="Country" className="upper" maxLength={2} autoCapitalize="characters" hint="Two letters, or * for everywhere else" {...register(`${at}.country`, upper)} error={message(errors, `${at}.country`)} />
        <Field label="State or region" className="upper" hint="Optional, such as US-CA" {...register(`${at}.subdivision`, upper)} error={message(errors, `${at}.subdivision`)} />
        <SelectField label="Tax on shipping here" {...register(`${at}.taxShipping`)}>
          <option value="STORE">as set under Tax</option>
          <option value="YES">charged</option>
          <option value="NO">not charged</option>
        </SelectField>
      </div>
      {message(errors, `${at}.rules`) && <p className="error">{message(errors, `${at}.rules`)}</p>}
      {rules.fields.map((field, j) => {
        const p = `${at}.rules.${j}` as const;
        const rule = watched[j] ?? field;
        return (
          <fieldset key={field.id} className="rule">
            <legend>Rule {j + 1}{rule.title ? `: ${rule.title}` : ''}</legend>
            <div className="rule-grid">
              <Field label="Option name" {...register(`${p}.title`)} error={message(errors, `${p}.title`)} />
              <Field label="Code" {...register(`${p}.code`)} error={message(errors, `${p}.code`)} />
              <Field label="Price" inputMode="decimal" {...register(`${p}.rate`, { setValueAs: (v: string) => v.trim() })} error={message(errors, `${p}.rate`)} />
              <Field label="Delivery time (optional)" placeholder="e.g. 3–5 business days" {...register(`${p}.deliveryTime`)} />
              {/* Another condition asks for its own threshold: what was typed for the last one does not carry over. */}
              <SelectField label="Offered for" {...register(`${p}.condition`, { onChange: () => setValue(`${p}.threshold`, '', { shouldDirty: true }) })}>
                <option value="ANY">every order</option><option value="BY_TOTAL_PRICE">an order total</option><option value="BY_TOTAL_WEIGHT">a total weight</option><option value="BY_TOTAL_QUANTITY">an item count</option>
              </SelectField>
              {rule.condition !== 'ANY' && (
                <>
                  <SelectField label="that is" {...register(`${p}.operator`)}>
                    <option value="LT">less than</option><option value="LTE">at most</option><option value="EQ">exactly</option><option value="GTE">at least</option><option value="GT">more than</option>
                  </SelectField>
                  <Field
                    label={rule.condition === 'BY_TOTAL_PRICE' ? 'Amount' : rule.condition === 'BY_TOTAL_WEIGHT' ? `Weight (${unit})` : 'Items'} inputMode="decimal"
                    {...register(`${p}.threshold`, { setValueAs: (v: string) => v.trim() })} error={message(errors, `${p}.threshold`)}
                  />
                </>
              )}
            </div>
            <button type="button" className="link" onClick={() => rules.remove(j)}>Remove rule {j + 1}<span className="visually-hidden"> of {name}</span></button>
          </fieldset>
        );
      })}
      <div className="actions">
        <button type="button" className="button secondary small" onClick={() => rules.append(newRule())}>Add a rule<span className="visually-hidden"> to {name}</span></button>
        <button type="button" className="button secondary small danger-outline" onClick={onRemove}>Remove region<span className="visually-hidden"> {name}</span></button>
      </div>
    </fieldset>
  );
}

function PickupFields({ index: i, parts: { control, register, errors }, onRemove }: { index: number; parts: Parts; onRemove: () => void }) {
  const at = `pickupOptions.${i}` as const;
  const title = useWatch({ control, name: `${at}.title` });
  const place = title || `Pickup place ${i + 1}`;
  return (
    <fieldset className="rule">
      <legend>{place}</legend>
      <div className="rule-grid">
        <Field label="Name" className="span-2" {...register(`${at}.title`)} error={message(errors, `${at}.title`)} />
        <Field label="Code" {...register(`${at}.code`)} error={message(errors, `${at}.code`)} />
        <Field label="Price" inputMode="decimal" {...register(`${at}.cost`, { setValueAs: (v: string) => v.trim() })} error={message(errors, `${at}.cost`)} />
        <Field label="Instructions (optional)" className="wide" {...register(`${at}.instructions`)} />
      </div>
      <fieldset className="address">
        <legend>Address<span className="visually-hidden"> of {place}</span> (optional)</legend>
        <div className="rule-grid">
          <Field label="Street and number" className="span-2" autoComplete="off" {...register(`${at}.address.addressLine`)} />
          <Field label="City" autoComplete="off" {...register(`${at}.address.city`)} />
          <Field label="Postal code" autoComplete="off" {...register(`${at}.address.postalCode`)} />
          <Field label="State or region" className="upper" placeholder="e.g. US-NY" {...register(`${at}.address.subdivision`, upper)} error={message(errors, `${at}.address.subdivision`)} />
          <Field label="Country" className="upper" maxLength={2} autoCapitalize="characters" placeholder="e.g. US" {...register(`${at}.address.country`, upper)} error={message(errors, `${at}.address.country`)} />
        </div>
      </fieldset>
      <button type="button" className="link" onClick={onRemove}>Remove pickup place {i + 1}</button>
    </fieldset>
  );
}

function RateFields({ index: i, parts: { control, register, errors }, onRemove }: { index: number; parts: Parts; onRemove: () => void }) {
  const at = `tax.rates.${i}` as const;
  const name = useWatch({ control, name: `${at}.name` });
  return (
    <fieldset className="rule">
      <legend>{name || `Rate ${i + 1}`}</legend>
      <div className="rule-grid">
        <Field label="Country" className="upper" maxLength={2} autoCapitalize="characters" {...register(`${at}.country`, upper)} error={message(errors, `${at}.country`)} />
        <Field label="Region (optional)" className="upper" placeholder="e.g. US-CA" {...register(`${at}.subdivision`, upper)} error={message(errors, `${at}.subdivision`)} />
        <Field label="Rate (%)" inputMode="decimal" {...register(`${at}.rate`, { setValueAs: (v: string) => v.trim() })} error={message(errors, `${at}.rate`)} />
        <Field label="Name (optional)" {...register(`${at}.name`)} />
      </div>
      <button type="button" className="link" onClick={onRemove}>Remove rate {i + 1}</button>
    </fieldset>
  );
}
