// The wire's bulk product edits (Stores v1 BulkUpdateProducts / BulkAdjustProductProperties):
// the new value of one property for many products, each changed under its own row lock.
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { currencyExponent, divideHalfEven, formatDecimal, MoneyError, parseAmount, parseDecimal, percentOf } from '../../platform/money.js';
import type { Product } from '../catalog/service.js';

export interface BulkSet {
  price?: number;
  cost?: number;
  weight?: number;
  ribbon?: string;
  brand?: string;
}

export interface Adjustment {
  amount?: number;
  percentage?: { rate?: number; roundToInt?: boolean };
}

export interface BulkAdjust {
  price?: Adjustment;
  cost?: Adjustment;
  weight?: Adjustment;
}

export interface BulkItemResult {
  itemMetadata: { id: string; originalIndex: number; success: boolean; error?: { code: string; description: string } };
}

/** Checks the request and answers the change each product gets. */
export function setChange(set: BulkSet, currency: string): (p: Product) => void {
  const violations: FieldViolation[] = [];
  if (set.cost !== undefined) violations.push({ field: 'set.cost', rule: 'FIELD_NOT_ALLOWED', description: 'the catalog keeps no cost price' });
  if (Object.values(set).every((v) => v === undefined)) violations.push({ field: 'set', rule: 'REQUIRED_ONE_OF_FIELD', description: 'give price, weight, ribbon or brand' });
  let price: bigint | undefined;
  if (set.price !== undefined) {
    try {
      price = parseAmount(formatDecimal(parseDecimal(set.price)), currency);
      if (price < 0n) throw new MoneyError('NEGATIVE', 'a price is not negative');
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field: 'set.price', rule: 'FORMAT', description: error.message });
    }
  }
  if (set.weight !== undefined && !(set.weight >= 0)) violations.push({ field: 'set.weight', rule: 'MIN', description: 'a weight is not negative' });
  if (violations.length) throw ApiError.validation(violations);
  return (p) => {
    if (price !== undefined) p.price = price;
    if (set.weight !== undefined) p.weight = formatDecimal(parseDecimal(set.weight));
    if (set.ribbon !== undefined) p.ribbon = set.ribbon === '' ? null : set.ribbon;
    if (set.brand !== undefined) p.brand = set.brand === '' ? null : set.brand;
  };
}

function readAdjustment(a: Adjustment, field: string, violations: FieldViolation[]): { amount?: number; rate?: number; roundToInt: boolean } | undefined {
  const rate = a.percentage?.rate;
  if ((a.amount === undefined) === (rate === undefined)) {
    violations.push({ field, rule: 'REQUIRED_ONE_OF_FIELD', description: 'give amount or percentage.rate' });
    return undefined;
  }
  return { amount: a.amount, rate, roundToInt: a.percentage?.roundToInt === true };
}

export function adjustChange(adjust: BulkAdjust, currency: string): (p: Product) => void {
  const violations: FieldViolation[] = [];
  if (adjust.cost !== undefined) violations.push({ field: 'adjust.cost', rule: 'FIELD_NOT_ALLOWED', description: 'the catalog keeps no cost price' });
  if (adjust.price === undefined && adjust.weight === undefined && adjust.cost === undefined) {
    violations.push({ field: 'adjust', rule: 'REQUIRED_ONE_OF_FIELD', description: 'give price or weight' });
  }
  const price = adjust.price && readAdjustment(adjust.price, 'adjust.price', violations);
  const weight = adjust.weight && readAdjustment(adjust.weight, 'adjust.weight', violations);
  let priceAmount = 0n;
  if (price?.amount !== undefined) {
    try {
      const negative = price.amount < 0;
      priceAmount = parseAmount(formatDecimal(parseDecimal(Math.abs(price.amount))), currency) * (negative ? -1n : 1n);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field: 'adjust.price.amount', rule: 'FORMAT', description: error.message });
    }
  }
  if (violations.length) throw ApiError.validation(violations);
  const unit = 10n ** BigInt(currencyExponent(currency));
  return (p) => {
    if (price) {
      let next = price.rate !== undefined ? p.price + percentOf(p.price, formatDecimal(parseDecimal(price.rate))) : p.price + priceAmount;
      if (price.roundToInt) next = divideHalfEven(next, unit) * unit;
      if (next < 0n) throw ApiError.validation([{ field: 'adjust.price', rule: 'MIN', description: 'the price would fall below zero' }]);
      p.price = next;
    }
    if (weight) {
      const current = Number(p.weight ?? '0');
      let next = weight.rate !== undefined ? current * (1 + weight.rate / 100) : current + (weight.amount ?? 0);
      if (weight.roundToInt) next = Math.round(next);
      if (next < 0) throw ApiError.validation([{ field: 'adjust.weight', rule: 'MIN', description: 'the weight would fall below zero' }]);
      p.weight = String(Math.round(next * 1000) / 1000);
    }
  };
}
