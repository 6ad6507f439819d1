import type { CatalogSearchFacets } from '@bodega/sdk';
import { useShop } from '../shop/context.js';
import { formatMoney } from '../ui/money.js';
import type { SearchParams } from './queries.js';

type Toggle = (patch: Partial<SearchParams>) => void;

function Choice({ label, count, checked, onChange }: { label: string; count: number; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className={count === 0 && !checked ? 'facet-option empty' : 'facet-option'}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
      <span className="facet-count" aria-label={`${count} ${count === 1 ? 'product' : 'products'}`}>{count}</span>
    </label>
  );
}

const toggled = (list: readonly string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

/** The facets as filters: each count is what picking it would give with the other picks kept. */
export function Facets({ facets, params, update }: { facets: CatalogSearchFacets; params: SearchParams; update: Toggle }) {
  const { currency } = useShop().site;
  const money = (amount: string) => formatMoney(amount, currency);
  const prices = facets.prices.filter((p) => p.count > 0 || params.prices.includes(p._id));
  return (
    <div className="facets">
      {facets.collections.length > 0 && (
        <fieldset className="facet">
          <legend>Collection</legend>
          {facets.collections.map((c) => (
            <Choice key={c._id} label={c.name} count={c.count} checked={params.collections.includes(c._id)}
              onChange={(on) => update({ collections: toggled(params.collections, c._id, on) })} />
          ))}
        </fieldset>
      )}
      {facets.options.map((o) => (
        <fieldset className="facet" key={o.name}>
          <legend>{o.name}</legend>
          {o.values.map((v) => {
            const picked = params.options[o.name] ?? [];
            return (
              <Choice key={v.value} label={v.value} count={v.count} checked={picked.includes(v.value)}
                onChange={(on) => {
                  const values = toggled(picked, v.value, on);
                  const options = { ...params.options, [o.name]: values };
                  if (values.length === 0) delete options[o.name];
                  update({ options });
                }} />
            );
          })}
        </fieldset>
      ))}
      {prices.length > 0 && (
      <fieldset className="facet">
        <legend>Price</legend>
        {prices.map((p) => (
          <Choice key={p._id} label={p.to === null ? `${money(p.from)} and up` : `${money(p.from)} to ${money(p.to)}`} count={p.count} checked={params.prices.includes(p._id)}
            onChange={(on) => update({ prices: toggled(params.prices, p._id, on) })} />
        ))}
      </fieldset>
      )}
      <fieldset className="facet">
        <legend>Availability</legend>
        <Choice label="In stock" count={facets.inStock} checked={params.inStock} onChange={(on) => update({ inStock: on })} />
        <Choice label="On sale" count={facets.onSale} checked={params.onSale} onChange={(on) => update({ onSale: on })} />
      </fieldset>
      {facets.brands.length > 0 && (
        <fieldset className="facet">
          <legend>Brand</legend>
          {facets.brands.map((b) => (
            <Choice key={b.name} label={b.name} count={b.count} checked={params.brands.includes(b.name)}
              onChange={(on) => update({ brands: toggled(params.brands, b.name, on) })} />
          ))}
        </fieldset>
      )}
    </div>
  );
}
