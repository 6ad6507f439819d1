import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommerceSettings, PickupOption, ShippingRegion, ShippingRule, TaxRate } from '@bodega/sdk';
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

type Errors = Record<string, string>;
type Tax = NonNullable<CommerceSettings['tax']>;

/**
 * A rule as the form edits it. `any`: the option is offered on every order. The wire has no such
 * condition, so it is sent as "item count at least 0", and such a rule reads as "every order" here;
 * the flag (not the numbers) decides, so typing 0 into an amount does not hide the field.
 */
type DraftRule = ShippingRule & { any: boolean };
type DraftRegion = Omit<ShippingRegion, 'rules'> & { rules: DraftRule[] };
type Trigger = NonNullable<CommerceSettings['inventoryUpdateTrigger']>;
/** The whole form: one save sends it all, as the settings call takes it. */
interface Draft { trigger: Trigger; regions: DraftRegion[]; pickup: PickupOption[]; tax: Tax }

const toDraft = (regions: ShippingRegion[]): DraftRegion[] =>
  regions.map((r) => ({ ...r, rules: r.rules.map((rule) => ({ ...rule, any: rule.operator === 'GTE' && isZeroAmount(rule.threshold) })) }));
const fromDraft = (regions: DraftRegion[]): ShippingRegion[] =>
  regions.map((r) => ({
    ...r,
    rules: r.rules.map(({ any, ...rule }) => (any ? { ...rule, type: 'BY_TOTAL_QUANTITY' as const, operator: 'GTE' as const, threshold: '0' } : rule)),
  }));

/** Everything wrong with the draft, by field path (the same paths the server names). */
function check(regions: DraftRegion[], pickup: PickupOption[], tax: Tax): Errors {
  const errors: Errors = {};
  const need = (path: string, value: string | undefined, message: string) => { if (!value?.trim()) errors[path] = message; };
  regions.forEach((r, i) => {
    const at = `shippingRegions[${i}]`;
    need(`${at}.name`, r.name, 'Name the region');
    if (!/^([A-Z]{2}|\*)$/.test(r.country)) errors[`${at}.country`] = 'A two-letter country code such as US, or * for everywhere else';
    if ((r.subdivision ?? '').length > 10) errors[`${at}.subdivision`] = 'At most 10 characters, such as US-CA';
    if (r.rules.length === 0) errors[`${at}.rules`] = 'Add at least one rule, or remove the region';
    r.rules.forEach((rule, j) => {
      const p = `${at}.rules[${j}]`;
      need(`${p}.title`, rule.title, 'Give the option a name shoppers see');
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(rule.code)) errors[`${p}.code`] = 'Letters, digits, - or _ (rules with the same code are tiers of one option)';
      if (!MONEY.test(rule.rate)) errors[`${p}.rate`] = MONEY_HINT;
      if (rule.any) return;
      const threshold = rule.type === 'BY_TOTAL_PRICE' ? MONEY : rule.type === 'BY_TOTAL_QUANTITY' ? /^\d{1,9}$/ : DECIMAL;
      if (!threshold.test(rule.threshold)) errors[`${p}.threshold`] = rule.type === 'BY_TOTAL_QUANTITY' ? 'A whole number of items' : rule.type === 'BY_TOTAL_PRICE' ? MONEY_HINT : 'A weight such as 2 or 0.5';
    });
  });
  pickup.forEach((o, i) => {
    const at = `pickupOptions[${i}]`;
    need(`${at}.title`, o.title, 'Name the pickup place');
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(o.code)) errors[`${at}.code`] = 'Letters, digits, - or _';
    if (!MONEY.test(o.cost)) errors[`${at}.cost`] = MONEY_HINT;
  });
  tax.rates.forEach((r, i) => {
    const at = `tax.rates[${i}]`;
    if (!/^[A-Z]{2}$/.test(r.country)) errors[`${at}.country`] = 'A two-letter country code such as US';
    if ((r.subdivision ?? '').length > 10) errors[`${at}.subdivision`] = 'At most 10 characters, such as US-CA';
    if (!DECIMAL.test(r.rate) || Number(r.rate) > 100) errors[`${at}.rate`] = 'A percent such as 7.25';
  });
  return errors;
}

const newCode = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const newRule = (): DraftRule => ({ code: 'standard', title: 'Standard delivery', rate: '', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0', any: true });
const optional = (value: string) => (value.trim() === '' ? undefined : value);

function Commerce({ settings }: { settings: CommerceSettings }) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  const result = useResult();
  // What was last loaded or saved: the save bar compares the draft with it and "Discard" returns to it.
  const [saved, setSaved] = useState<Draft>(() => ({
    trigger: settings.inventoryUpdateTrigger ?? 'ON_ORDER_PLACED',
    regions: toDraft(settings.shippingRegions ?? []),
    pickup: settings.pickupOptions ?? [],
    tax: settings.tax ?? { pricesIncludeTax: false, taxShipping: false, rates: [] },
  }));
  const [trigger, setTrigger] = useState(saved.trigger);
  const [regions, setRegions] = useState<DraftRegion[]>(saved.regions);
  const [pickup, setPickup] = useState<PickupOption[]>(saved.pickup);
  const [tax, setTax] = useState<Tax>(saved.tax);
  const [errors, setErrors] = useState<Errors>({});
  const draft: Draft = { trigger, regions, pickup, tax };
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  useEffect(() => {
    if (!dirty) return undefined;
    // Closing or reloading the tab with unsaved changes asks first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const saving = useMutation({
    mutationFn: (sent: Draft) => api.settings.updateCommerceSettings({ inventoryUpdateTrigger: sent.trigger, shippingRegions: fromDraft(sent.regions), pickupOptions: sent.pickup, tax: sent.tax }),
    onSuccess: async (_answer, sent) => {
      setSaved(sent);
      result.ok('Shipping, pickup, tax and inventory settings saved.');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'commerce-settings'] });
    },
    onError: (error) => result.fail(error),
  });
  function discard() {
    result.clear();
    setErrors({});
    setTrigger(saved.trigger);
    setRegions(saved.regions);
    setPickup(saved.pickup);
    setTax(saved.tax);
  }
  function save() {
    result.clear();
    const found = check(regions, pickup, tax);
    setErrors(found);
    if (Object.keys(found).length) {
      // Take the merchant to the first field to fix once the messages are drawn.
      // Centred, so the save bar at the bottom of the window never covers it.
      requestAnimationFrame(() => {
        const field = document.querySelector<HTMLElement>('.commerce-form [aria-invalid="true"]');
        field?.focus({ preventScroll: true });
        field?.scrollIntoView({ block: 'center' });
      });
      return;
    }
    saving.mutate(draft);
  }
  const setRegion = (i: number, change: Partial<DraftRegion>) => setRegions((l) => l.map((r, k) => (k === i ? { ...r, ...change } : r)));
  const setRule = (i: number, j: number, change: Partial<DraftRule>) =>
    setRegions((l) => l.map((r, k) => (k === i ? { ...r, rules: r.rules.map((x, m) => (m === j ? { ...x, ...change } : x)) } : r)));
  /** "every order", or a condition on the total, weight or item count (then its threshold is asked for). */
  const setCondition = (i: number, j: number, value: string) =>
    setRule(i, j, value === 'ANY' ? { any: true } : { any: false, type: value as ShippingRule['type'], threshold: '' });
  const setOption = (i: number, change: Partial<PickupOption>) => setPickup((l) => l.map((o, k) => (k === i ? { ...o, ...change } : o)));
  const setRate = (i: number, change: Partial<TaxRate>) => setTax((t) => ({ ...t, rates: t.rates.map((r, k) => (k === i ? { ...r, ...change } : r)) }));
  const problems = Object.keys(errors).length;
  return (
    <form className="commerce-form" noValidate onSubmit={(e) => { e.preventDefault(); save(); }}>
      {result.view}
      {problems > 0 && <Notice kind="error">{problems === 1 ? 'One field needs a change' : `${problems} fields need a change`} before saving; each says what is wrong.</Notice>}
      <section className="panel" aria-labelledby="inventory-heading">
        <h2 id="inventory-heading">Inventory</h2>
        <SelectField label="Take items out of stock when" className="settings-form" value={trigger} onChange={(e) => setTrigger(e.target.value as Trigger)}>
          <option value="ON_ORDER_PLACED">the order is placed</option>
          <option value="ON_ORDER_PAID">the order is paid</option>
        </SelectField>
      </section>

      <section className="panel" aria-labelledby="shipping-heading">
        <h2 id="shipping-heading">Shipping regions</h2>
        <p className="muted">A buyer's address picks the region: a state or region first, then its country, then <code>*</code>. Each rule is an option with its price; rules with the same code are tiers of one option, and the cheapest tier that matches the order is offered.</p>
        {regions.length === 0 && <p className="muted">No shipping regions: buyers can only pick up.</p>}
        {regions.map((r, i) => (
          <fieldset key={r.id} className="region">
            <legend>{r.name || `Region ${i + 1}`}</legend>
            <div className="three-cols">
              <Field label="Region name" value={r.name} onChange={(e) => setRegion(i, { name: e.target.value })} error={errors[`shippingRegions[${i}].name`]} />
              <Field label="Country" value={r.country} maxLength={2} autoCapitalize="characters" hint="Two letters, or * for everywhere else" onChange={(e) => setRegion(i, { country: e.target.value.toUpperCase() })} error={errors[`shippingRegions[${i}].country`]} />
              <Field label="State or region (optional)" value={r.subdivision ?? ''} placeholder="e.g. US-CA" onChange={(e) => setRegion(i, { subdivision: optional(e.target.value.toUpperCase()) })} error={errors[`shippingRegions[${i}].subdivision`]} />
            </div>
            {errors[`shippingRegions[${i}].rules`] && <p className="error">{errors[`shippingRegions[${i}].rules`]}</p>}
            {r.rules.map((rule, j) => {
              const at = `shippingRegions[${i}].rules[${j}]`;
              return (
                <fieldset key={j} className="rule">
                  <legend>Rule {j + 1}{rule.title ? `: ${rule.title}` : ''}</legend>
                  <div className="rule-grid">
                    <Field label="Option name" value={rule.title} onChange={(e) => setRule(i, j, { title: e.target.value })} error={errors[`${at}.title`]} />
                    <Field label="Code" value={rule.code} onChange={(e) => setRule(i, j, { code: e.target.value })} error={errors[`${at}.code`]} />
                    <Field label="Price" inputMode="decimal" value={rule.rate} onChange={(e) => setRule(i, j, { rate: e.target.value.trim() })} error={errors[`${at}.rate`]} />
                    <Field label="Delivery time (optional)" value={rule.deliveryTime ?? ''} placeholder="e.g. 3–5 business days" onChange={(e) => setRule(i, j, { deliveryTime: optional(e.target.value) })} />
                    <SelectField label="Offered for" value={rule.any ? 'ANY' : rule.type} onChange={(e) => setCondition(i, j, e.target.value)}>
                      <option value="ANY">every order</option><option value="BY_TOTAL_PRICE">an order total</option><option value="BY_TOTAL_WEIGHT">a total weight</option><option value="BY_TOTAL_QUANTITY">an item count</option>
                    </SelectField>
                    {!rule.any && (
                      <>
                        <SelectField label="that is" value={rule.operator} onChange={(e) => setRule(i, j, { operator: e.target.value as ShippingRule['operator'] })}>
                          <option value="LT">less than</option><option value="LTE">at most</option><option value="EQ">exactly</option><option value="GTE">at least</option><option value="GT">more than</option>
                        </SelectField>
                        <Field label={rule.type === 'BY_TOTAL_PRICE' ? 'Amount' : rule.type === 'BY_TOTAL_WEIGHT' ? 'Weight' : 'Items'} inputMode="decimal" value={rule.threshold} onChange={(e) => setRule(i, j, { threshold: e.target.value.trim() })} error={errors[`${at}.threshold`]} />
                      </>
                    )}
                  </div>
                  <button type="button" className="link" onClick={() => setRegions((l) => l.map((x, k) => (k === i ? { ...x, rules: x.rules.filter((_, m) => m !== j) } : x)))}>Remove rule {j + 1}<span className="visually-hidden"> of {r.name}</span></button>
                </fieldset>
              );
            })}
            <div className="actions">
              <button type="button" className="button secondary small" onClick={() => setRegions((l) => l.map((x, k) => (k === i ? { ...x, rules: [...x.rules, newRule()] } : x)))}>Add a rule<span className="visually-hidden"> to {r.name}</span></button>
              <button type="button" className="button secondary small danger-outline" onClick={() => setRegions((l) => l.filter((_, k) => k !== i))}>Remove region<span className="visually-hidden"> {r.name}</span></button>
            </div>
          </fieldset>
        ))}
        <p><button type="button" className="button secondary small" onClick={() => setRegions((l) => [...l, { id: newCode('region'), name: '', country: '', rules: [newRule()] }])}>Add a region</button></p>
      </section>

      <section className="panel" aria-labelledby="pickup-heading">
        <h2 id="pickup-heading">Pickup</h2>
        {pickup.length === 0 && <p className="muted">No pickup: every order is shipped.</p>}
        {pickup.map((o, i) => (
          <fieldset key={i} className="rule">
            <legend>{o.title || `Pickup place ${i + 1}`}</legend>
            <div className="rule-grid">
              <Field label="Name" value={o.title} onChange={(e) => setOption(i, { title: e.target.value })} error={errors[`pickupOptions[${i}].title`]} />
              <Field label="Code" value={o.code} onChange={(e) => setOption(i, { code: e.target.value })} error={errors[`pickupOptions[${i}].code`]} />
              <Field label="Price" inputMode="decimal" value={o.cost} onChange={(e) => setOption(i, { cost: e.target.value.trim() })} error={errors[`pickupOptions[${i}].cost`]} />
              <Field label="Instructions (optional)" className="wide" value={o.instructions ?? ''} onChange={(e) => setOption(i, { instructions: optional(e.target.value) })} />
            </div>
            <button type="button" className="link" onClick={() => setPickup((l) => l.filter((_, k) => k !== i))}>Remove pickup place {i + 1}</button>
          </fieldset>
        ))}
        <p><button type="button" className="button secondary small" onClick={() => setPickup((l) => [...l, { code: newCode('pickup'), title: '', cost: '0' }])}>Add a pickup place</button></p>
      </section>

      <section className="panel" aria-labelledby="tax-heading">
        <h2 id="tax-heading">Tax</h2>
        <label className="check"><input type="checkbox" checked={tax.pricesIncludeTax ?? false} onChange={(e) => setTax((t) => ({ ...t, pricesIncludeTax: e.target.checked }))} /> Prices already include tax</label>
        <label className="check"><input type="checkbox" checked={tax.taxShipping ?? false} onChange={(e) => setTax((t) => ({ ...t, taxShipping: e.target.checked }))} /> Charge tax on shipping</label>
        {tax.rates.length === 0 && <p className="muted">No tax rates: no tax is charged.</p>}
        {tax.rates.map((r, i) => (
          <fieldset key={i} className="rule">
            <legend>{r.name || `Rate ${i + 1}`}</legend>
            <div className="rule-grid">
              <Field label="Country" value={r.country} maxLength={2} autoCapitalize="characters" onChange={(e) => setRate(i, { country: e.target.value.toUpperCase() })} error={errors[`tax.rates[${i}].country`]} />
              <Field label="Region (optional)" value={r.subdivision ?? ''} placeholder="e.g. US-CA" onChange={(e) => setRate(i, { subdivision: optional(e.target.value.toUpperCase()) })} error={errors[`tax.rates[${i}].subdivision`]} />
              <Field label="Rate (%)" inputMode="decimal" value={r.rate} onChange={(e) => setRate(i, { rate: e.target.value.trim() })} error={errors[`tax.rates[${i}].rate`]} />
              <Field label="Name (optional)" value={r.name ?? ''} onChange={(e) => setRate(i, { name: optional(e.target.value) })} />
            </div>
            <button type="button" className="link" onClick={() => setTax((t) => ({ ...t, rates: t.rates.filter((_, k) => k !== i) }))}>Remove rate {i + 1}</button>
          </fieldset>
        ))}
        <p><button type="button" className="button secondary small" onClick={() => setTax((t) => ({ ...t, rates: [...t.rates, { country: '', rate: '' }] }))}>Add a rate</button></p>
      </section>
      {/* Stays in view at the bottom of the window, so Save is never a long scroll away. */}
      <div className={`save-bar${dirty ? ' save-bar-dirty' : ''}`} role="region" aria-label="Save changes">
        <p className="save-bar-status" aria-live="polite" data-testid="save-status">{dirty ? 'You have unsaved changes.' : 'No unsaved changes.'}</p>
        <div className="actions">
          {dirty && <button type="button" className="button secondary" onClick={discard} disabled={saving.isPending}>Discard<span className="visually-hidden"> changes</span></button>}
          <button type="submit" className="button" disabled={saving.isPending}>{saving.isPending ? 'Saving…' : 'Save shipping and tax'}</button>
        </div>
      </div>
    </form>
  );
}
