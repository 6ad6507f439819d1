// Gift card codes: 15 random symbols of Crockford's base 32 (no I, L, O, U: nothing to misread)
// and one check symbol (Luhn mod 32), shown in groups of four. 75 random bits cannot be guessed;
// the check symbol catches any single mistyped symbol and most swapped neighbours before a lookup.
import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE = ALPHABET.length;
export const RANDOM_SYMBOLS = 15;
export const CODE_LENGTH = RANDOM_SYMBOLS + 1;

/** Luhn mod N: the symbol that makes the whole code check. */
export function checkSymbol(body: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    let addend = factor * ALPHABET.indexOf(body[i]);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / BASE) + (addend % BASE);
    sum += addend;
  }
  return ALPHABET[(BASE - (sum % BASE)) % BASE];
}

export function newGiftCardCode(): string {
  let body = '';
  for (let i = 0; i < RANDOM_SYMBOLS; i++) body += ALPHABET[randomInt(BASE)];
  return body + checkSymbol(body);
}

/**
 * What a shopper typed, as stored: upper case, separators and spaces dropped, and the letters
 * people confuse with digits read as Crockford does (O → 0, I and L → 1).
 */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export type CodeProblem = 'LENGTH' | 'SYMBOL' | 'CHECK';

/** Why a typed code cannot be a card's, before any lookup; undefined when it could be. */
export function codeProblem(normalized: string): CodeProblem | undefined {
  if (normalized.length !== CODE_LENGTH) return 'LENGTH';
  if ([...normalized].some((c) => !ALPHABET.includes(c))) return 'SYMBOL';
  return checkSymbol(normalized.slice(0, -1)) === normalized.at(-1) ? undefined : 'CHECK';
}

/** XXXX-XXXX-XXXX-XXXX. */
export function groupCode(normalized: string): string {
  return normalized.match(/.{1,4}/g)?.join('-') ?? normalized;
}

/** What a checkout, an order or the back-office list shows: only the last four. */
export function obfuscateCode(normalized: string): string {
  return `****-****-****-${normalized.slice(-4)}`;
}
