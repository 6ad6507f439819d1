// Exact money: integer minor units as bigint, decimal strings on the wire, never a float.

/** Why a decimal string was refused; the rule names match the wire's validation rules. */
export type MoneyErrorRule = 'FORMAT' | 'DECIMAL_MAX_SCALE' | 'NEGATIVE' | 'CURRENCY';

export class MoneyError extends Error {
  readonly rule: MoneyErrorRule;

  constructor(rule: MoneyErrorRule, message: string) {
    super(message);
    this.name = 'MoneyError';
    this.rule = rule;
  }
}

/** An amount of money on the wire. */
export interface WireMoney {
  amount: string;
  convertedAmount: string;
  formattedAmount: string;
  formattedConvertedAmount: string;
}

const CURRENCY_CODE = /^[A-Za-z]{3}$/;
const exponents = new Map<string, number>();
const displayFormats = new Map<string, Intl.NumberFormat>();
const formattedStrings = new Map<string, string>();
const FORMATTED_STRINGS_KEPT = 10_000;

/** The currency's ISO code in upper case; throws MoneyError(CURRENCY) for anything else. */
export function normalizeCurrency(currency: string): string {
  if (typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) {
    throw new MoneyError('CURRENCY', `"${String(currency)}" is not a three-letter ISO 4217 currency code`);
  }
  return currency.toUpperCase();
}

/** Digits after the decimal point: 0 for JPY, 2 for USD, 3 for BHD and KWD. */
export function currencyExponent(currency: string): number {
  const code = normalizeCurrency(currency);
  let exponent = exponents.get(code);
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2;
    exponents.set(code, exponent);
  }
  return exponent;
}

const PLAIN_DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;
const LONGEST_INPUT = 64;

export interface ParseAmountOptions {
  /** Round extra decimals half-even instead of refusing them. */
  round?: boolean;
  /** Accept amounts below zero (refunds, adjustments). */
  allowNegative?: boolean;
}

/**
 * "10.5" in USD → 1050n. Accepts only plain decimals: no exponent, sign "+", spaces, or bare ".5".
 * Trailing zeros beyond the currency's digits are exact and accepted ("10.000" USD); other extra
 * digits are refused unless `round` is set.
 */
export function parseAmount(value: string, currency: string, options: ParseAmountOptions = {}): bigint {
  const exponent = currencyExponent(currency);
  if (typeof value !== 'string') {
    throw new MoneyError('FORMAT', `an amount must be a decimal string, got ${typeof value}`);
  }
  const match = value.length <= LONGEST_INPUT ? PLAIN_DECIMAL.exec(value) : null;
  if (!match) {
    throw new MoneyError('FORMAT', `"${value.slice(0, LONGEST_INPUT)}" is not a decimal amount like "10.50"`);
  }
  const [, minus, whole, fraction = ''] = match;
  let units: bigint;
  if (fraction.length <= exponent || /^0*$/.test(fraction.slice(exponent))) {
    units = BigInt(whole + fraction.slice(0, exponent).padEnd(exponent, '0'));
  } else if (options.round) {
    units = divideHalfEven(BigInt(whole + fraction), 10n ** BigInt(fraction.length - exponent));
  } else {
    const places = `${exponent} decimal place${exponent === 1 ? '' : 's'}`;
    throw new MoneyError('DECIMAL_MAX_SCALE', `"${value}" has more than ${places} for ${normalizeCurrency(currency)}`);
  }
  if (minus && units !== 0n) {
    if (!options.allowNegative) throw new MoneyError('NEGATIVE', `"${value}" must not be negative`);
    units = -units;
  }
  return units;
}

/** 1050n in USD → "10.50"; 1000n in JPY → "1000"; 1500n in BHD → "1.500". */
export function formatAmount(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** 1050n in USD → "$10.50" (en-US). Intl formats the decimal string itself, so no float is involved. */
export function formattedAmount(minor: bigint, currency: string, locale = 'en-US'): string {
  const code = normalizeCurrency(currency);
  const key = `${locale}|${code}`;
  // Prices repeat (the same unit prices and totals on every cart page): remember the strings.
  const shownKey = `${key}|${minor}`;
  const shown = formattedStrings.get(shownKey);
  if (shown !== undefined) return shown;
  let format = displayFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: code });
    displayFormats.set(key, format);
  }
  const text = format.format(formatAmount(minor, code) as `${number}`);
  if (formattedStrings.size >= FORMATTED_STRINGS_KEPT) formattedStrings.clear();
  formattedStrings.set(shownKey, text);
  return text;
}

/** The wire's money object; this server does not convert currencies, so converted equals amount. */
export function toWireMoney(minor: bigint, currency: string, locale = 'en-US'): WireMoney {
  const amount = formatAmount(minor, currency);
  const formatted = formattedAmount(minor, currency, locale);
  return { amount, convertedAmount: amount, formattedAmount: formatted, formattedConvertedAmount: formatted };
}

/** Unit price × quantity, exact at any size. */
export function multiply(unitPrice: bigint, quantity: number | bigint): bigint {
  if (typeof quantity === 'number' && !Number.isSafeInteger(quantity)) {
    throw new RangeError(`quantity must be a whole number, got ${quantity}`);
  }
  const count = BigInt(quantity);
  if (count < 0n) throw new RangeError(`quantity must not be negative, got ${count}`);
  return unitPrice * count;
}

/** numerator / denominator rounded to the nearest integer, ties to the even neighbour. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let quotient = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder > d || (twiceRemainder === d && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

/** An exact decimal for rates, percents and weights: units / 10^scale. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const NUMBER_WITH_EXPONENT = /^(-)?(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * "7.25" → {units: 725n, scale: 2}. Strings must be plain decimals; a finite number is read from
 * its shortest decimal form (String(n)), which is exact for what the number prints as.
 */
export function parseDecimal(value: string | number): Decimal {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyError('FORMAT', `${value} is not a finite number`);
    const text = String(value);
    const scientific = NUMBER_WITH_EXPONENT.exec(text);
    if (!scientific) return parseDecimal(text);
    const [, minus, whole, fraction = '', exponent] = scientific;
    const digits = BigInt(whole + fraction) * (minus ? -1n : 1n);
    const scale = fraction.length - Number(exponent);
    return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
  }
  const match = typeof value === 'string' && value.length <= LONGEST_INPUT ? PLAIN_DECIMAL.exec(value) : null;
  if (!match) throw new MoneyError('FORMAT', `"${String(value)}" is not a plain decimal like "7.25"`);
  const [, minus, whole, fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { units: minus ? -units : units, scale: fraction.length };
}

function toDecimal(value: Decimal | string | number): Decimal {
  return typeof value === 'object' ? value : parseDecimal(value);
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function multiplyDecimal(value: Decimal, factor: bigint): Decimal {
  return { units: value.units * factor, scale: value.scale };
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a: Decimal | string | number, b: Decimal | string | number): -1 | 0 | 1 {
  const x = toDecimal(a);
  const y = toDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const left = rescale(x, scale);
  const right = rescale(y, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Shortest plain form: {units: 2500n, scale: 3} → "2.5"; also divides by 10^shift ("7.25", 2 → "0.0725"). */
export function formatDecimal(value: Decimal, shift = 0): string {
  let units = value.units;
  let scale = value.scale + shift;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return scale === 0 ? sign + digits : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** percent% of amount, rounded half-even: percentOf(1000n, "7.25") → 72n (72.5 → 72). */
export function percentOf(amount: bigint, percent: Decimal | string): bigint {
  const rate = toDecimal(percent);
  return divideHalfEven(amount * rate.units, 100n * 10n ** BigInt(rate.scale));
}

/** The tax inside a tax-included amount, rounded half-even: gross × rate / (100 + rate). */
export function includedTaxOf(grossAmount: bigint, percent: Decimal | string): bigint {
  const rate = toDecimal(percent);
  const hundred = 100n * 10n ** BigInt(rate.scale);
  return divideHalfEven(grossAmount * rate.units, hundred + rate.units);
}

/**
 * Splits total across weights in proportion, summing exactly to total (largest remainder: each
 * share is rounded down, then the units left go one each to the largest remainders, earlier
 * entries first on a tie). When total ≤ Σ weights no share exceeds its own weight.
 */
export function allocateProportionally(total: bigint, weights: readonly bigint[]): bigint[] {
  if (total < 0n) throw new RangeError(`cannot allocate a negative total (${total})`);
  if (weights.some((weight) => weight < 0n)) throw new RangeError('allocation weights must not be negative');
  const sum = weights.reduce((acc, weight) => acc + weight, 0n);
  if (sum === 0n) {
    if (total === 0n) return weights.map(() => 0n);
    throw new RangeError(`cannot allocate ${total} across weights that sum to zero`);
  }
  const shares = weights.map((weight) => (total * weight) / sum);
  let left = total - shares.reduce((acc, share) => acc + share, 0n);
  const byRemainder = weights
    .map((weight, index) => ({ index, remainder: (total * weight) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of byRemainder) {
    if (left === 0n) break;
    shares[index] += 1n;
    left -= 1n;
  }
  return shares;
}
