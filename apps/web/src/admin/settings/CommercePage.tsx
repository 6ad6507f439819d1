import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, set, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type FieldPath, type Resolver, type UseFormRegister, type UseFormSetValue } from 'react-hook-form';
import { BodegaError, type CommerceSettings, type PickupOption, type ShippingRegion, type ShippingRule } from '@bodega/sdk';
import { Field, SelectField } from '../../ui/Field.js';
import { Notice } from '../../ui/Notice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { isZeroAmount } from '../../ui/money.js';
import { useAdmin } from '../context.js';
import { PageHead, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';

export default function CommercePage() {
  const { api } = useAdmin();
  const settings = useQuery({ queryKey: ['admin', 'commerce-settings'], queryFn: async () => (await api.settings.getCommerceSettings()).settings });
  return (
    <>
      <PageHead title="Shipping and tax" lead="Where you ship and what it costs, pickup, tax rates and when stock is taken." />
      <SettingsNav />
      {settings.isPending && <Loading label="Loading the settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <Commerce settings={settings.data} />}
    </>
  );
}

// Amounts are kept and sent as the decimal strings typed; they are only checked, never converted.
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const DECIMAL = /^\d{1,9}(\.\d{1,4})?$/;
const MONEY_HINT = 'A number such as 5 or 4.95';
const CODE = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The whole form as one draft (react-hook-form keeps it; its defaults are what was last loaded or
 * saved, so "dirty" and "Discard" compare with and return to that). Text the wire leaves out is ""
 * here. A rule's `condition` ANY means "every order": the wire has no such condition, so it is sent
 * as "item count at least 0", and such a rule reads back as ANY.
 */
interface DraftRule { code: string; title: string; rate: string; deliveryTime: string; condition: 'ANY' | ShippingRule['type']; operator: ShippingRule['operator']; threshold: string }
/** A region's own tax-on-shipping switch; STORE: the Tax section's setting decides. */
type TaxShipping = 'STORE' | 'YES' | 'NO';
interface DraftRegion { regionId: string; name: string; country: string; subdivision: string; taxShipping: TaxShipping; rules: DraftRule[] }
interface DraftAddress { addressLine: string; city: string; postalCode: string; subdivision: string; country: string }
/** `otherAddress`: what the wire's address holds beyond the fields edited here, kept as it is. */
interface DraftPickup { code: string; title: string; cost: string; instructions: string; address: DraftAddress; otherAddress: Record<string, unknown> }
interface DraftRate { country: string; subdivision: string; rate: string; name: string }
interface Draft {
  trigger: NonNullable<CommerceSettings['inventoryUpdateTrigger']>;
  weightUnit: NonNullable<CommerceSettings['weightUnit']>;
  shippingRegions: DraftRegion[];
  pickupOptions: DraftPickup[];
  tax: { pricesIncludeTax: boolean; taxShipping: boolean; rates: DraftRate[] };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** "" is "not given": left out of what is sent. */
const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
const ADDRESS_FIELDS = ['addressLine', 'city', 'postalCode', 'subdivision', 'country'] as const;

function toDraft(s: CommerceSettings): Draft {
  return {
    trigger: s.inventoryUpdateTrigger ?? 'ON_ORDER_PLACED',
    weightUnit: s.weightUnit ?? 'KG',
    shippingRegions: (s.shippingRegions ?? []).map((r) => ({
      regionId: r.id, name: r.name, country: r.country, subdivision: r.subdivision ?? '',
      taxShipping: r.taxShipping === undefined ? 'STORE' : r.taxShipping ? 'YES' : 'NO',
      rules: r.rules.map((rule) => ({
        code: rule.code, title: rule.title, rate: rule.rate, deliveryTime: rule.deliveryTime ?? '', operator: rule.operator, threshold: rule.threshold,
        condition: rule.operator === 'GTE' && rule.type === 'BY_TOTAL_QUANTITY' && isZeroAmount(rule.threshold) ? 'ANY' : rule.type,
      })),
    })),
    pickupOptions: (s.pickupOptions ?? []).map((o) => {
      // A formatted address would no longer match once a line is edited here.
      const { addressLine, city, postalCode, subdivision, country, formattedAddress: _formatted, ...otherAddress } = o.address ?? {};
      return {
        code: o.code, title: o.title, cost: o.cost, instructions: o.instructions ?? '', otherAddress,
        address: { addressLine: text(addressLine), city: text(city), postalCode: text(postalCode), subdivision: text(subdivision), country: text(country) },
      };
    }),
    tax: {
      pricesIncludeTax: s.tax?.pricesIncludeTax ?? false,
      taxShipping: s.tax?.taxShipping ?? false,
      rates: (s.tax?.rates ?? []).map((r) => ({ country: r.country, subdivision: r.subdivision ?? '', rate: r.rate, name: r.name ?? '' })),
    },
  };
}

/** The draft as the settings call takes it: one save sends it all. */
function fromDraft(d: Draft): CommerceSettings {
  const shippingRegions = d.shippingRegions.map((r): ShippingRegion => ({
    id: r.regionId, name: r.name.trim(), country: r.country, subdivision: optional(r.subdivision),
    ...(r.taxShipping !== 'STORE' && { taxShipping: r.taxShipping === 'YES' }),
    rules: r.rules.map(({ condition, ...rule }): ShippingRule => ({
      code: rule.code, title: rule.title.trim(), rate: rule.rate, deliveryTime: optional(rule.deliveryTime),
      ...(condition === 'ANY' ? { type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' } : { type: condition, operator: rule.operator, threshold: rule.threshold }),
    })),
  }));
  const pickupOptions = d.pickupOptions.map((o): PickupOption => {
    const address: Record<string, unknown> = { ...o.otherAddress };
    for (const key of ADDRESS_FIELDS) {
      const value = optional(o.address[key]);
      if (value !== undefined) address[key] = value;
    }
    return { code: o.code, title: o.title.trim(), cost: o.cost, instructions: optional(o.instructions), ...(Object.keys(address).length > 0 && { address }) };
  });
  const rates = d.tax.rates.map((r) => ({ country: r.country, subdivision: optional(r.subdivision), rate: r.rate, name: optional(r.name) }));
  return { inventoryUpdateTrigger: d.trigger, weightUnit: d.weightUnit, shippingRegions, pickupOptions, tax: { pricesIncludeTax: d.tax.pricesIncludeTax, taxShipping: d.tax.taxShipping, rates } };
}

/** Everything wrong with the draft, by field path (the server's paths, with `.0` for `[0]`). */
function check(d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  const need = (path: string, value: string, message: string) => { if (!value.trim()) errors[path] = message; };
  const subdivision = (path: string, value: string) => { if (value.length > 10) errors[path] = 'At most 10 characters, such as US-CA'; };
  d.shippingRegions.forEach((r, i) => {
    const at = `shippingRegions.${i}`;
    need(`${at}.name`, r.name, 'Name the region');
    if (!/^([A-Z]{2}|\*)$/.test(r.country)) errors[`${at}.country`] = 'A two-letter country code such as US, or * for everywhere else';
    subdivision(`${at}.subdivision`, r.subdivision);
    if (r.rules.length === 0) errors[`${at}.rules`] = 'Add at least one rule, or remove the region';
    r.rules.forEach((rule, j) => {
      const p = `${at}.rules.${j}`;
      need(`${p}.title`, rule.title, 'Give the option a name shoppers see');
      if (!CODE.test(rule.code)) errors[`${p}.code`] = 'Letters, digits, - or _ (rules with the same code are tiers of one option)';
      if (!MONEY.test(rule.rate)) errors[`${p}.rate`] = MONEY_HINT;
      if (rule.condition === 'ANY') return;
      const threshold = rule.condition === 'BY_TOTAL_PRICE' ? MONEY : rule.condition === 'BY_TOTAL_QUANTITY' ? /^\d{1,9}$/ : DECIMAL;
      if (!threshold.test(rule.threshold)) {
        errors[`${p}.threshold`] = rule.condition === 'BY_TOTAL_QUANTITY' ? 'A whole number of items' : rule.condition === 'BY_TOTAL_PRICE' ? MONEY_HINT : 'A weight such as 2 or 0.5';
      }
    });
  });
  d.pickupOptions.forEach((o, i) => {
    const at = `pickupOptions.${i}`;
    need(`${at}.title`, o.title, 'Name the pickup place');
    if (!CODE.test(o.code)) errors[`${at}.code`] = 'Letters, digits, - or _';
    if (!MONEY.test(o.cost)) errors[`${at}.cost`] = MONEY_HINT;
    if (o.address.country !== '' && !/^[A-Z]{2}$/.test(o.address.country)) errors[`${at}.address.country`] = 'A two-letter country code such as US';
    subdivision(`${at}.address.subdivision`, o.address.subdivision);
  });
  d.tax.rates.forEach((r, i) => {
    const at = `tax.rates.${i}`;
    if (!/^[A-Z]{2}$/.test(r.country)) errors[`${at}.country`] = 'A two-letter country code such as US';
    subdivision(`${at}.subdivision`, r.subdivision);
    if (!DECIMAL.test(r.rate) || Number(r.rate) > 100) errors[`${at}.rate`] = 'A percent such as 7.25';
  });
  return errors;
}

/** `check` as the form's resolver: its messages nested as react-hook-form keeps errors. */
const resolver: Resolver<Draft> = (values) => {
  const found = Object.entries(check(values));
  if (found.length === 0) return { values, errors: {} };
  const errors: FieldErrors<Draft> = {};
  for (const [path, message] of found) set(errors, path, { type: 'check', message });
  return { values: {}, errors };
};

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
const message = (errors: FieldErrors<Draft>, path: string): string | undefined => (get(errors, path) as { message?: string } | undefined)?.message;

function Commerce({ settings }: { settings: CommerceSettings }) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  const result = useResult();
  const { control, register, handleSubmit, reset, setValue, setError, formState: { errors, isDirty } } = useForm<Draft>({
    defaultValues: toDraft(settings), resolver, shouldFocusError: false,
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
  const saving = useMutation({
    mutationFn: (draft: Draft) => api.settings.updateCommerceSettings(fromDraft(draft)),
    onSuccess: async (_answer, draft) => {
      reset(draft); // what was saved is the new "unchanged"
      result.ok('Shipping, pickup, tax and inventory settings saved.');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'commerce-settings'] });
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
  const submit = handleSubmit((draft) => saving.mutate(draft), focusFirstError);
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
