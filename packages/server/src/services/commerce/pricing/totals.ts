// priceCart: lines, catalog prices, coupon, merchant discounts, shipping rules and tax rates in;
// totals, applied discounts, shipping options, tax and violations out. Pure: no I/O, no clock.
// Each concern is its own module (discounts.ts, shipping.ts, tax.ts); this one checks the lines
// and adds them up.
import { multiply, normalizeCurrency } from '../../../platform/money.js';
import { applyDiscounts } from './discounts.js';
import { feeTotals, priceFees } from './fees.js';
import { sum, type AvailabilityStatus, type PricedCart, type PricingInput, type PricingLine, type ShippingResult, type Violation, type WorkLine } from './model.js';
import { priceShipping } from './shipping.js';
import { priceTax } from './tax.js';
import { priceTip } from './tips.js';

export function priceCart(input: PricingInput): PricedCart {
  const currency = normalizeCurrency(input.currency);
  const violations: Violation[] = [];
  const lines = input.lines.map((line) => checkLine(line, violations));
  const counted = lines.filter((line) => line.inTotals);
  const subtotal = sum(counted.map((line) => line.lineSubtotal));

  const { appliedDiscounts, coupon } = applyDiscounts(input, counted, subtotal, currency, violations);
  const discountTotal = sum(counted.map((line) => line.discount));

  const shippingBeforeTax = priceShipping(input, counted, violations);
  const linesTax = priceTax(input, lines, shippingBeforeTax);
  const shipping: ShippingResult = { ...shippingBeforeTax, tax: linesTax.shipping.tax };
  // Additional fees (fees.ts) are taxed at the same rate; their tax joins the order's tax.
  const additionalFees = priceFees(input.additionalFees ?? [], lines, linesTax);
  const fees = feeTotals(additionalFees, linesTax.pricesIncludeTax);
  const tax = fees.tax > 0n ? { ...linesTax, total: linesTax.total + fees.tax, taxableAmount: linesTax.taxableAmount + sum(additionalFees.filter((f) => f.tax > 0n).map((f) => f.price)) } : linesTax;

  // A tip (tips.ts) is untaxed: it adds to the total only.
  const tip = priceTip(input.tip, lines, currency);

  const includesTax = tax.pricesIncludeTax;
  const total = subtotal - discountTotal + shipping.cost + (includesTax ? 0n : linesTax.total) + fees.addedToTotal + (tip?.amount ?? 0n);
  const lineTax = new Map(tax.lines.map((line) => [line.lineItemId, line.tax]));
  return {
    currency,
    lines: lines.map((line) => {
      const taxableAmount = line.inTotals ? line.lineSubtotal - line.discount : 0n;
      const lineTaxAmount = lineTax.get(line.input.id) ?? 0n;
      return {
        id: line.input.id,
        quantity: line.input.quantity,
        itemType: line.input.itemType,
        availability: {
          status: line.status,
          ...(line.quantityAvailable !== undefined && { quantityAvailable: line.quantityAvailable }),
        },
        inTotals: line.inTotals,
        price: line.input.price,
        fullPrice: line.input.fullPrice ?? line.input.price,
        lineSubtotal: line.lineSubtotal,
        discount: line.discount,
        taxableAmount,
        tax: lineTaxAmount,
        totalBeforeTax: includesTax ? taxableAmount - lineTaxAmount : taxableAmount,
        totalAfterTax: includesTax ? taxableAmount : taxableAmount + lineTaxAmount,
      };
    }),
    totals: { subtotal, discount: discountTotal, shipping: shipping.cost, tax: tax.total, total },
    ...(additionalFees.length > 0 && { additionalFees, additionalFeesBeforeTax: fees.beforeTax }),
    ...(tip && { tip }),
    appliedDiscounts,
    ...(coupon && { coupon }),
    shipping,
    tax,
    violations,
  };
}

function checkLine(line: PricingLine, violations: Violation[]): WorkLine {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
    throw new RangeError(`line ${line.id}: quantity must be a whole number ≥ 0, got ${line.quantity}`);
  }
  if (line.price < 0n || (line.fullPrice ?? 0n) < 0n) {
    throw new RangeError(`line ${line.id}: prices must not be negative`);
  }
  const stock = line.stock ?? { found: true, inStock: true };
  const tracked = stock.quantityAvailable ?? undefined;
  const target = { lineItem: { id: line.id } };
  let status: AvailabilityStatus = 'AVAILABLE';
  if (!stock.found) {
    status = 'NOT_FOUND';
    violations.push({
      code: 'LINE_ITEM_NOT_FOUND',
      severity: 'ERROR',
      target,
      description: 'This item is no longer available.',
      suggestedFix: 'REMOVE_LINE_ITEM',
    });
  } else if (!stock.inStock || (tracked !== undefined && tracked <= 0)) {
    status = 'NOT_AVAILABLE';
    violations.push({
      code: 'LINE_ITEM_OUT_OF_STOCK',
      severity: 'ERROR',
      target,
      description: 'This item is out of stock.',
      suggestedFix: 'REMOVE_LINE_ITEM',
    });
  } else if (tracked !== undefined && tracked < line.quantity) {
    status = 'PARTIALLY_AVAILABLE';
    violations.push({
      code: 'LINE_ITEM_PARTIALLY_AVAILABLE',
      severity: 'ERROR',
      target,
      description: `Only ${tracked} left in stock. Lower the quantity to continue.`,
    });
  }
  const inTotals = status === 'AVAILABLE' || status === 'PARTIALLY_AVAILABLE';
  return {
    input: line,
    status,
    ...(tracked !== undefined && stock.found && { quantityAvailable: Math.max(tracked, 0) }),
    inTotals,
    lineSubtotal: multiply(line.price, line.quantity),
    discount: 0n,
  };
}
