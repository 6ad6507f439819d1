// Carts for the pricing tables (services/commerce/pricing/*.test.ts): lines, rules and rates in a few words.
import { formatAmount, parseAmount } from '../platform/money.js';
import { type PricedCart, type PricingInput, type PricingLine, type ShippingCondition, type ShippingRegion, type ShippingRule, type TaxSettings } from '../services/commerce/pricing/model.js';
import { priceCart } from '../services/commerce/pricing/totals.js';

export const NOW = new Date('2024-06-15T12:00:00.000Z');
export const ms = (offset: number) => new Date(NOW.getTime() + offset);
export const DAY = 86_400_000;

/** Minor units from a decimal string, so tables read like a receipt. */
export const m = (text: string, currency = 'USD') => parseAmount(text, currency);

export function line(overrides: Partial<PricingLine> = {}): PricingLine {
  return { id: 'l1', productId: 'p1', itemType: 'PHYSICAL', quantity: 1, price: m('10.00'), ...overrides };
}

export function digital(id: string, price: string, overrides: Partial<PricingLine> = {}): PricingLine {
  return line({ id, productId: `p-${id}`, itemType: 'DIGITAL', ...overrides, price: overrides.price ?? m(price) });
}

export function price(overrides: Partial<PricingInput>): PricedCart {
  return priceCart({ currency: 'USD', now: NOW, lines: [line()], ...overrides });
}

/** What the shopper sees in the summary box, as decimal strings. */
export function summary(priced: PricedCart) {
  const text = (minor: bigint) => formatAmount(minor, priced.currency);
  return {
    subtotal: text(priced.totals.subtotal),
    discount: text(priced.totals.discount),
    shipping: text(priced.totals.shipping),
    tax: text(priced.totals.tax),
    total: text(priced.totals.total),
  };
}

export const usd = (minor: bigint) => formatAmount(minor, 'USD');

export const US_TAX: TaxSettings = {
  pricesIncludeTax: false,
  taxShipping: false,
  rates: [
    { country: 'US', rate: '5', name: 'US' },
    { country: 'US', subdivision: 'US-CA', rate: '7.25', name: 'California' },
  ],
};

export function taxAt(rate: string, overrides: Partial<TaxSettings> = {}): TaxSettings {
  return { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate }], ...overrides };
}

export function rule(overrides: Partial<ShippingRule> & ShippingCondition): ShippingRule {
  return { code: 'std', title: 'Standard', rate: m('5.00'), ...overrides };
}

export const ANY_QUANTITY: ShippingCondition = { type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: 0 };

export function usRegion(rules: ShippingRule[], overrides: Partial<ShippingRegion> = {}): ShippingRegion {
  return { id: 'r-us', name: 'United States', country: 'US', rules, ...overrides };
}

export const NEW_YORK = { country: 'US', subdivision: 'US-NY' };
export const CALIFORNIA = { country: 'US', subdivision: 'US-CA' };
