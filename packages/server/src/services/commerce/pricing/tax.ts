// Tax: the rate of where tax is owed, on the lines and on shipping, included in prices or added. Pure.
import { formatDecimal, includedTaxOf, parseDecimal, percentOf } from '../../../platform/money.js';
import { sameSubdivision, sum, upper, type Address, type PricingInput, type ShippingResult, type TaxRate, type TaxResult, type WorkLine } from './model.js';

/** Where tax is owed: the pickup point, else the shipping address, else the billing address. */
function taxAddress(input: PricingInput, shipping: ShippingResult): Address | undefined {
  const pickupAddress = shipping.selected?.kind === 'PICKUP' ? shipping.selected.pickupAddress : undefined;
  for (const address of [pickupAddress, input.shippingAddress, input.billingAddress]) {
    if (address?.country) return address;
  }
  return undefined;
}

/** A subdivision's rate beats its country's; first wins a tie. */
function findTaxRate(rates: readonly TaxRate[], address: Address): TaxRate | undefined {
  const country = upper(address.country);
  let countryRate: TaxRate | undefined;
  for (const rate of rates) {
    if (upper(rate.country) !== country) continue;
    if (!rate.subdivision) countryRate ??= rate;
    else if (sameSubdivision(country, rate.subdivision, address.subdivision)) return rate;
  }
  return countryRate;
}

export function priceTax(input: PricingInput, lines: WorkLine[], shipping: ShippingResult): TaxResult {
  const pricesIncludeTax = input.tax?.pricesIncludeTax ?? false;
  const noTax: TaxResult = {
    status: 'NO_TAX_COLLECTED',
    rounding: 'HALF_EVEN_PER_LINE',
    pricesIncludeTax,
    taxableAmount: 0n,
    total: 0n,
    lines: [],
    shipping: { taxableAmount: 0n, tax: 0n },
  };
  if (!input.tax || input.calculateTax === false) return noTax;
  const address = taxAddress(input, shipping);
  const rate = address ? findTaxRate(input.tax.rates, address) : undefined;
  if (!rate) return noTax;
  const percent = parseDecimal(rate.rate);
  if (percent.units < 0n) throw new RangeError(`tax rate must not be negative, got ${rate.rate}`);
  // Round half-even per line: each line's tax is rounded on its own, then the lines are summed.
  const taxOf = (amount: bigint) => (pricesIncludeTax ? includedTaxOf(amount, percent) : percentOf(amount, percent));

  const taxedLines = lines
    .filter((line) => line.inTotals && line.input.taxable !== false)
    .map((line) => {
      const taxableAmount = line.lineSubtotal - line.discount;
      return { lineItemId: line.input.id, taxableAmount, tax: taxOf(taxableAmount) };
    });
  const region = input.shippingRegions?.find((candidate) => candidate.id === shipping.region?.id);
  const regionTaxesShipping = shipping.selected?.kind === 'DELIVERY' ? region?.taxShipping : undefined;
  const shippingTaxed = regionTaxesShipping ?? input.tax.taxShipping;
  const shippingTaxable = shippingTaxed ? shipping.cost : 0n;
  const shippingTax = { taxableAmount: shippingTaxable, tax: taxOf(shippingTaxable) };
  return {
    status: 'MANUAL_RATE',
    rounding: 'HALF_EVEN_PER_LINE',
    pricesIncludeTax,
    rate: {
      percent: formatDecimal(percent),
      ...(rate.name !== undefined && { name: rate.name }),
      country: upper(rate.country),
      ...(rate.subdivision !== undefined && { subdivision: rate.subdivision }),
    },
    taxableAmount: sum(taxedLines.map((line) => line.taxableAmount)) + shippingTax.taxableAmount,
    total: sum(taxedLines.map((line) => line.tax)) + shippingTax.tax,
    lines: taxedLines,
    shipping: shippingTax,
  };
}
