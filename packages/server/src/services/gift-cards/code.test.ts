import { describe, expect, it } from 'vitest';
import { checkSymbol, CODE_LENGTH, codeProblem, groupCode, newGiftCardCode, normalizeCode, obfuscateCode } from './code.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('gift card codes', () => {
  it('are 16 symbols of Crockford base 32 whose check symbol checks', () => {
    const codes = new Set(Array.from({ length: 200 }, () => newGiftCardCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(codeProblem(code)).toBeUndefined();
    }
    expect(CODE_LENGTH).toBe(16);
  });

  it('catch every single mistyped symbol before a lookup', () => {
    const code = newGiftCardCode();
    for (let i = 0; i < code.length; i++) {
      for (const c of ALPHABET) {
        if (c === code[i]) continue;
        const typo = code.slice(0, i) + c + code.slice(i + 1);
        expect(codeProblem(typo), `${typo} (position ${i})`).toBe('CHECK');
      }
    }
  });

  it('catch swapped neighbours', () => {
    let caught = 0;
    let swaps = 0;
    for (let n = 0; n < 50; n++) {
      const code = newGiftCardCode();
      for (let i = 0; i < code.length - 1; i++) {
        if (code[i] === code[i + 1]) continue;
        swaps++;
        const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        if (codeProblem(swapped) === 'CHECK') caught++;
      }
    }
    // Luhn mod 32 misses only the swaps of one pair of symbols.
    expect(caught / swaps).toBeGreaterThan(0.95);
  });

  it('read what people type: groups, spaces, lower case, O for 0 and I or L for 1', () => {
    const body = '0123456789ABCDE';
    const code = body + checkSymbol(body);
    expect(normalizeCode(groupCode(code).toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l'))).toBe(code);
    expect(groupCode(code)).toMatch(/^\w{4}-\w{4}-\w{4}-\w{4}$/);
    expect(obfuscateCode(code)).toBe(`****-****-****-${code.slice(-4)}`);
    expect(codeProblem('ABC')).toBe('LENGTH');
    expect(codeProblem('U'.repeat(16))).toBe('SYMBOL');
  });
});

describe('a gift card\'s recipient', () => {
  it('reads a name, an e-mail and a delivery date from the one Recipient field', async () => {
    const { parseRecipient, formatRecipient } = await import('./recipient.js');
    expect(parseRecipient('Ada Lovelace <ada@example.com> on 2026-03-05')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', deliveryDate: '2026-03-05' });
    expect(parseRecipient('ada@example.com')).toEqual({ name: null, email: 'ada@example.com', deliveryDate: null });
    expect(parseRecipient('Ada')).toEqual({ name: 'Ada', email: null, deliveryDate: null });
    expect(parseRecipient('Ada <not an email>')).toEqual({ name: 'Ada', email: null, deliveryDate: null });
    expect(parseRecipient(undefined)).toEqual({ name: null, email: null, deliveryDate: null });
    expect(formatRecipient({ name: 'Ada', email: 'ada@example.com', deliveryDate: '2026-03-05' })).toBe('Ada <ada@example.com> on 2026-03-05');
  });
});
