import { useState, type FormEvent } from 'react';
import type { Address } from '@bodega/sdk';
import { COUNTRIES } from '../shop/countries.js';
import { plainError } from '../shop/errors.js';
import { Notice } from '../ui/Notice.js';
import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { CartLines, CheckoutButton, CouponForm, Totals } from './CartLines.js';
import { selectedOptionCode, shippingOptions, useCart, useCartTotals } from './queries.js';

export default function CartPage() {
  usePageTitle('Cart');
  const cart = useCart();
  const [destination, setDestination] = useState<Address>();
  const [shippingCode, setShippingCode] = useState<string>();
  const hasLines = (cart.data?.lineItems.length ?? 0) > 0;
  // Keyed on the cart's last change, so totals follow every quantity, removal and coupon.
  const totals = useCartTotals(destination, shippingCode, hasLines);
  const [country, setCountry] = useState('US');
  const [postalCode, setPostalCode] = useState('');
  const [region, setRegion] = useState('');

  if (cart.isPending) return <div className="container cart-page"><h1>Cart</h1><Loading label="Loading your cart…" page /></div>;
  if (cart.isError) return <div className="container cart-page"><h1>Cart</h1><ErrorState error={cart.error} retry={() => void cart.refetch()} /></div>;
  if (!cart.data || !hasLines) {
    return <div className="container cart-page"><h1>Cart</h1><EmptyState title="Your cart is empty" action={{ to: '/products', label: 'Start shopping' }}><p>Find something you like and it will wait for you here.</p></EmptyState></div>;
  }

  const options = shippingOptions(totals.data?.shippingInfo);
  const selected = shippingCode ?? selectedOptionCode(totals.data?.shippingInfo);
  const blocking = (totals.data?.violations ?? []).some((v) => v.severity === 'ERROR' && v.target?.lineItem);

  function estimate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setShippingCode(undefined);
    // The state matters: tax rates are set per state or region (as at checkout, "NY" becomes US-NY).
    setDestination({ country, ...(region.trim() && { subdivision: `${country}-${region.trim().toUpperCase()}` }), ...(postalCode.trim() && { postalCode: postalCode.trim() }) });
  }

  return (
    <div className="container cart-page">
      <h1>Cart</h1>
      <div className="cart-layout">
        <section aria-label="Items">
          <CartLines cart={cart.data} violations={totals.data?.violations} />
        </section>
        <aside className="summary" aria-labelledby="summary-heading">
          <h2 id="summary-heading">Order summary</h2>
          <CouponForm cart={cart.data} />
          <form className="estimate" onSubmit={estimate} aria-labelledby="estimate-heading">
            <h3 id="estimate-heading">Estimate shipping</h3>
            <div className="estimate-fields">
              <div className="field">
                <label htmlFor="estimate-country">Country</label>
                <select id="estimate-country" value={country} onChange={(e) => setCountry(e.target.value)}>
                  {COUNTRIES.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
                </select>
              </div>
              <div className="field">
                <label htmlFor="estimate-region">State (optional)</label>
                <input id="estimate-region" value={region} onChange={(e) => setRegion(e.target.value)} autoComplete="address-level1" placeholder="e.g. NY" maxLength={3} />
              </div>
              <div className="field">
                <label htmlFor="estimate-postal">Postal code</label>
                <input id="estimate-postal" value={postalCode} onChange={(e) => setPostalCode(e.target.value)} autoComplete="postal-code" />
              </div>
            </div>
            <button type="submit" className="button secondary">Estimate</button>
          </form>
          {destination && options.length > 0 && (
            <fieldset className="ship-options">
              <legend>Shipping to {COUNTRIES.find(([c]) => c === destination.country)?.[1]}</legend>
              {options.map((o) => (
                <label key={o.code} className="radio-row">
                  <input type="radio" name="estimate-option" value={o.code} checked={selected === o.code} onChange={() => setShippingCode(o.code)} />
                  <span className="radio-label">{o.title}{o.deliveryTime ? <span className="muted small"> · {o.deliveryTime}</span> : null}</span>
                  <span>{o.amount === 0 ? 'Free' : o.price}</span>
                </label>
              ))}
            </fieldset>
          )}
          {destination && totals.data && options.length === 0 && <Notice kind="info">We don’t ship to this destination yet.</Notice>}
          {totals.isError ? <Notice kind="error">{plainError(totals.error)}</Notice>
            : totals.isPending ? <Loading label="Calculating totals…" lines={2} />
              : <Totals summary={totals.data.priceSummary} shippingLater={!destination} note={destination ? 'Estimated for this destination; confirmed at checkout.' : 'Shipping and tax are calculated at checkout.'} />}
          <CheckoutButton disabled={blocking} />
          {blocking && <p className="error small">Fix the items marked above to check out.</p>}
        </aside>
      </div>
    </div>
  );
}
