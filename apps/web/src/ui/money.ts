/**
 * Money in the web app: decimal strings as the server sends them, never turned into floats.
 * Formatting hands the string itself to Intl.NumberFormat, which reads it as an exact decimal
 * (ES2023; Node 20, Chromium 106+); arithmetic is on integer minor units (bigint).
 */

type Decimal = `${number}`;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isDecimal(text: string): text is Decimal {
  return DECIMAL.test(text);
}

/** A wire amount ("0", "0.00") that is nothing at all; undefined and non-decimals are not zero. */
export function isZeroAmount(amount: string | undefined): boolean {
  return amount !== undefined && /^0+(\.0+)?$/.test(amount.trim());
}

/** A wire amount above zero ("0.01"), read as a decimal string, never a float. */
export function isPositiveAmount(amount: string | undefined): boolean {
  return amount !== undefined && /^\d+(\.\d+)?$/.test(amount.trim()) && /[1-9]/.test(amount);
}

const formats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formats.set(currency, format);
  }
  return format;
}

/** Digits after the point in `currency` (2 for USD, 0 for JPY, 3 for KWD). */
export function currencyExponent(currency: string): number {
  return currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

const plainFormats = new Map<string, Intl.NumberFormat>();

/**
 * The amount as a plain decimal with exactly the currency's digits after the point, no symbol or
 * grouping: 58 → `"58.00"` in USD, `"1200"` in JPY, `"12.345"` in KWD — what schema.org offers and
 * `product:price:amount` expect. Undefined when the amount is not a finite number or a decimal.
 */
export function decimalAmount(amount: string | number | undefined, currency: string): string | undefined {
  if (amount === undefined) return undefined;
  const value = typeof amount === 'number' ? (Number.isFinite(amount) ? amount : undefined) : isDecimal(amount.trim()) ? (amount.trim() as Decimal) : undefined;
  if (value === undefined) return undefined;
  let format = plainFormats.get(currency);
  if (!format) {
    const exponent = currencyExponent(currency);
    format = new Intl.NumberFormat('en-US', { useGrouping: false, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
    plainFormats.set(currency, format);
  }
  return format.format(value);
}

/**
 * `"1234.5"` → `"$1,234.50"`. A number (some catalog wire fields are numbers) is formatted as it
 * is; anything that is not a decimal shows as a dash rather than `$NaN`.
 */
export function formatMoney(amount: string | number | undefined | null, currency: string): string {
  if (amount === undefined || amount === null) return '—';
  if (typeof amount === 'number') return Number.isFinite(amount) ? currencyFormat(currency).format(amount) : '—';
  const text = amount.trim();
  return isDecimal(text) ? currencyFormat(currency).format(text) : '—';
}

/**
 * A decimal string in minor units: `"12.5"` → 1250n for USD. Undefined when it is not a plain
 * non-negative decimal or has more digits after the point than the currency has.
 */
export function toMinor(amount: string, currency: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(amount.trim());
  if (!match) return undefined;
  const exponent = currencyExponent(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent && /[1-9]/.test(fraction.slice(exponent))) return undefined;
  return BigInt(match[1] + fraction.slice(0, exponent).padEnd(exponent, '0'));
}

/** 1250n → `"12.50"` for USD: the wire's decimal string. */
export function fromMinor(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  return exponent === 0 ? sign + digits : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * Splits a refund of `total` minor units over payments, the oldest first, each taking at most what
 * is left to refund of it. Undefined when the payments together have less left than `total`.
 */
export function splitRefund(total: bigint, payments: readonly { id: string; refundable: bigint }[]): { paymentId: string; amount: bigint }[] | undefined {
  const parts: { paymentId: string; amount: bigint }[] = [];
  let left = total;
  for (const p of payments) {
    if (left === 0n) break;
    const take = p.refundable < left ? p.refundable : left;
    if (take > 0n) parts.push({ paymentId: p.id, amount: take });
    left -= take;
  }
  return left === 0n ? parts : undefined;
}
