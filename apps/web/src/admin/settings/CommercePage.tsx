import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommerceSettings, TaxRate } from '@bodega/sdk';
import { countryName } from '../../shop/countries.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { useAdmin } from '../context.js';
import { PageHead, useMoney, useResult } from '../ui.js';
import { SettingsNav } from './SettingsNav.js';

const RULE: Record<string, string> = { BY_TOTAL_PRICE: 'order total', BY_TOTAL_WEIGHT: 'total weight', BY_TOTAL_QUANTITY: 'item count' };
const OP: Record<string, string> = { EQ: '=', GT: '>', GTE: '≥', LT: '<', LTE: '≤' };

export default function CommercePage() {
  const { api } = useAdmin();
  const settings = useQuery({ queryKey: ['admin', 'commerce-settings'], queryFn: async () => (await api.settings.getCommerceSettings()).settings });
  return (
    <>
      <PageHead title="Shipping and tax" />
      <SettingsNav />
      {settings.isPending && <Loading label="Loading the settings…" />}
      {settings.isError && <ErrorState error={settings.error} retry={() => void settings.refetch()} />}
      {settings.data && <Commerce settings={settings.data} />}
    </>
  );
}

function Commerce({ settings }: { settings: CommerceSettings }) {
  const { api } = useAdmin();
  const money = useMoney();
  const queryClient = useQueryClient();
  const result = useResult();
  const [trigger, setTrigger] = useState(settings.inventoryUpdateTrigger ?? 'ON_ORDER_PLACED');
  const [rates, setRates] = useState<TaxRate[]>(settings.tax?.rates ?? []);
  const saving = useMutation({
    mutationFn: () => api.settings.updateCommerceSettings({
      inventoryUpdateTrigger: trigger,
      tax: { pricesIncludeTax: settings.tax?.pricesIncludeTax ?? false, taxShipping: settings.tax?.taxShipping ?? false, rates: rates.filter((r) => r.country && r.rate) },
    }),
    onSuccess: async () => { result.ok('Saved.'); await queryClient.invalidateQueries({ queryKey: ['admin', 'commerce-settings'] }); },
    onError: (error) => result.fail(error),
  });
  const setRate = (i: number, change: Partial<TaxRate>) => setRates((list) => list.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <>
      {result.view}
      <section className="panel" aria-labelledby="inventory-heading">
        <h2 id="inventory-heading">Inventory</h2>
        <div className="field settings-form">
          <label htmlFor="trigger">Take items out of stock when</label>
          <select id="trigger" value={trigger} onChange={(e) => setTrigger(e.target.value as typeof trigger)}>
            <option value="ON_ORDER_PLACED">the order is placed</option>
            <option value="ON_ORDER_PAID">the order is paid</option>
          </select>
        </div>
      </section>
      <section className="panel" aria-labelledby="shipping-heading">
        <h2 id="shipping-heading">Shipping regions</h2>
        {(settings.shippingRegions ?? []).length === 0 ? <p className="muted">No shipping regions: buyers can only pick up.</p> : (
          <div className="table-wrap">
            <table className="table cards">
              <thead><tr><th scope="col">Region</th><th scope="col">Where</th><th scope="col">Rules</th></tr></thead>
              <tbody>
                {(settings.shippingRegions ?? []).map((r) => (
                  <tr key={r.id}>
                    <td className="card-title">{r.name}</td>
                    <td data-label="Where">{r.country === '*' ? 'Everywhere else' : `${countryName(r.country)}${r.subdivision ? `, ${r.subdivision}` : ''}`}</td>
                    <td className="card-stack" data-label="Rules">{r.rules.map((rule) => <span key={rule.code} className="block">{rule.title}: {money(rule.rate)} when {RULE[rule.type] ?? rule.type} {OP[rule.operator] ?? rule.operator} {rule.type === 'BY_TOTAL_PRICE' ? money(rule.threshold) : rule.threshold}{rule.deliveryTime ? ` · ${rule.deliveryTime}` : ''}</span>)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <h3>Pickup</h3>
        {(settings.pickupOptions ?? []).length === 0 ? <p className="muted">No pickup.</p> : (
          <ul className="plain-list" role="list">{(settings.pickupOptions ?? []).map((p) => <li key={p.code}><span>{p.title}</span><span>{money(p.cost)}</span></li>)}</ul>
        )}
      </section>
      <section className="panel" aria-labelledby="tax-heading">
        <h2 id="tax-heading">Tax rates</h2>
        <div className="table-wrap">
          <table className="table cards">
            <thead><tr><th scope="col">Country</th><th scope="col">State or region</th><th scope="col">Rate (%)</th><th scope="col">Name</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
            <tbody>
              {rates.map((r, i) => (
                <tr key={i}>
                  <td data-label="Country"><input aria-label={`Country of rate ${i + 1}`} value={r.country} onChange={(e) => setRate(i, { country: e.target.value.toUpperCase() })} /></td>
                  <td data-label="State or region"><input aria-label={`Region of rate ${i + 1}`} value={r.subdivision ?? ''} onChange={(e) => setRate(i, { subdivision: e.target.value || undefined })} /></td>
                  <td data-label="Rate (%)"><input aria-label={`Rate ${i + 1}`} inputMode="decimal" value={r.rate} onChange={(e) => setRate(i, { rate: e.target.value })} /></td>
                  <td data-label="Name"><input aria-label={`Name of rate ${i + 1}`} value={r.name ?? ''} onChange={(e) => setRate(i, { name: e.target.value || undefined })} /></td>
                  <td className="row-actions"><button type="button" className="link" onClick={() => setRates((l) => l.filter((_, j) => j !== i))}>Remove<span className="visually-hidden"> rate {i + 1}</span></button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p><button type="button" className="button secondary small" onClick={() => setRates((l) => [...l, { country: '', rate: '' }])}>Add a rate</button></p>
      </section>
      <div className="actions"><button type="button" className="button" disabled={saving.isPending} onClick={() => { result.clear(); saving.mutate(); }}>{saving.isPending ? 'Saving…' : 'Save inventory and tax'}</button></div>
    </>
  );
}
