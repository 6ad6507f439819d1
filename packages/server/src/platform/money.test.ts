import { describe, expect, it } from 'vitest';
import {
  allocateProportionally,
  compareDecimal,
  currencyExponent,
  divideHalfEven,
  formatAmount,
  formatDecimal,
  formattedAmount,
  includedTaxOf,
  MoneyError,
  type MoneyErrorRule,
  multiply,
  parseAmount,
  parseDecimal,
  percentOf,
  toWireMoney,
} from './money.js';

function ruleOf(run: () => unknown): MoneyErrorRule | 'NO ERROR' | string {
  try {
    run();
    return 'NO ERROR';
  } catch (error) {
    return error instanceof MoneyError ? error.rule : `not a MoneyError: ${String(error)}`;
  }
}

describe('currencyExponent', () => {
  it.each([
    ['JPY', 0],
    ['CLP', 0],
    ['USD', 2],
    ['EUR', 2],
    ['usd', 2],
    ['BHD', 3],
    ['KWD', 3],
  ])('%s has %i decimal places', (currency, digits) => {
    expect(currencyExponent(currency), `${currency} decimal places`).toBe(digits);
  });

  it.each(['', 'US', 'USDX', '12A', 'U$D'])('refuses the currency code %j', (currency) => {
    expect(ruleOf(() => currencyExponent(currency))).toBe('CURRENCY');
  });
});

describe('parseAmount', () => {
  it.each([
    ['0', 'USD', 0n],
    ['0.01', 'USD', 1n],
    ['10', 'USD', 1000n],
    ['10.5', 'USD', 1050n],
    ['10.50', 'USD', 1050n],
    ['10.000', 'USD', 1000n], // trailing zeros are exact, so they are accepted
    ['007.10', 'USD', 710n],
    ['1000', 'JPY', 1000n],
    ['1000.0', 'JPY', 1000n],
    ['1.5', 'BHD', 1500n],
    ['1.234', 'BHD', 1234n],
    ['0.001', 'KWD', 1n],
    ['99999999999999999999.99', 'USD', 9999999999999999999999n],
  ])('reads %j in %s as %s minor units', (value, currency, minor) => {
    expect(parseAmount(value, currency), `parseAmount(${JSON.stringify(value)}, ${currency})`).toBe(minor);
  });

  it.each([
    ['0.5', 'JPY', 'DECIMAL_MAX_SCALE'],
    ['10.001', 'USD', 'DECIMAL_MAX_SCALE'],
    ['1.2345', 'BHD', 'DECIMAL_MAX_SCALE'],
    ['-1', 'USD', 'NEGATIVE'],
    ['-0.01', 'USD', 'NEGATIVE'],
    ['1e3', 'USD', 'FORMAT'],
    ['1E3', 'USD', 'FORMAT'],
    [' 1', 'USD', 'FORMAT'],
    ['1 ', 'USD', 'FORMAT'],
    ['', 'USD', 'FORMAT'],
    ['NaN', 'USD', 'FORMAT'],
    ['Infinity', 'USD', 'FORMAT'],
    ['.5', 'USD', 'FORMAT'],
    ['5.', 'USD', 'FORMAT'],
    ['+1', 'USD', 'FORMAT'],
    ['--1', 'USD', 'FORMAT'],
    ['1,000.00', 'USD', 'FORMAT'],
    ['0x10', 'USD', 'FORMAT'],
    ['1.2.3', 'USD', 'FORMAT'],
    ['١٢', 'USD', 'FORMAT'],
    ['1'.repeat(65), 'USD', 'FORMAT'],
    ['10', 'DOLLARS', 'CURRENCY'],
  ])('refuses %j in %s with %s', (value, currency, rule) => {
    expect(ruleOf(() => parseAmount(value, currency)), `parseAmount(${JSON.stringify(value)}, ${currency})`).toBe(rule);
  });

  it('refuses a JSON number where a decimal string belongs', () => {
    expect(ruleOf(() => parseAmount(10.5 as unknown as string, 'USD'))).toBe('FORMAT');
  });

  it('names the currency and its digits in the error', () => {
    expect(() => parseAmount('0.5', 'JPY')).toThrow('"0.5" has more than 0 decimal places for JPY');
  });

  it.each([
    ['-1.25', 'USD', -125n],
    ['-0', 'USD', 0n],
    ['-1000', 'JPY', -1000n],
  ])('reads %j in %s as %s when negatives are allowed', (value, currency, minor) => {
    expect(parseAmount(value, currency, { allowNegative: true })).toBe(minor);
  });

  it.each([
    ['0.5', 'JPY', 0n],
    ['1.5', 'JPY', 2n],
    ['2.5', 'JPY', 2n],
    ['3.5', 'JPY', 4n],
    ['0.51', 'JPY', 1n],
    ['0.49', 'JPY', 0n],
    ['10.005', 'USD', 1000n],
    ['10.015', 'USD', 1002n],
    ['10.0051', 'USD', 1001n],
    ['10.025', 'USD', 1002n],
    ['1.2345', 'BHD', 1234n],
    ['1.2355', 'BHD', 1236n],
    ['1.23450001', 'BHD', 1235n],
    ['-2.5', 'JPY', -2n],
    ['-3.5', 'JPY', -4n],
  ])('rounds %j in %s half-even to %s when asked', (value, currency, minor) => {
    expect(parseAmount(value, currency, { round: true, allowNegative: true }), `round ${value} ${currency}`).toBe(minor);
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, 'USD', '0.00'],
    [1n, 'USD', '0.01'],
    [1000n, 'USD', '10.00'],
    [1050n, 'USD', '10.50'],
    [-5n, 'USD', '-0.05'],
    [-1050n, 'USD', '-10.50'],
    [0n, 'JPY', '0'],
    [1000n, 'JPY', '1000'],
    [1500n, 'BHD', '1.500'],
    [1n, 'BHD', '0.001'],
    [17n, 'KWD', '0.017'],
    [12345678901234567890123n, 'USD', '123456789012345678901.23'],
  ])('writes %s minor units of %s as %j', (minor, currency, text) => {
    expect(formatAmount(minor, currency)).toBe(text);
  });

  it.each([
    ['0', 'USD'],
    ['10.50', 'USD'],
    ['1000', 'JPY'],
    ['1.500', 'BHD'],
    ['0.001', 'KWD'],
    ['123456789012345678901.23', 'USD'],
  ])('round-trips %j in %s', (text, currency) => {
    expect(formatAmount(parseAmount(text, currency), currency)).toBe(text === '0' ? '0.00' : text);
  });
});

describe('formattedAmount', () => {
  it.each([
    [1000n, 'USD', 'en-US', '$10.00'],
    [-5n, 'USD', 'en-US', '-$0.05'],
    [1000n, 'JPY', 'en-US', '¥1,000'],
    [1500n, 'BHD', 'en-US', 'BHD 1.500'],
    [17n, 'KWD', 'en-US', 'KWD 0.017'],
    [1000n, 'EUR', 'en-US', '€10.00'],
    [123450n, 'EUR', 'de-DE', '1.234,50 €'],
    [12345678901234567890123n, 'USD', 'en-US', '$123,456,789,012,345,678,901.23'],
  ])('shows %s minor units of %s in %s as %j', (minor, currency, locale, shown) => {
    // ICU separates some symbols with a no-break space; compare with plain spaces.
    expect(formattedAmount(minor, currency, locale).replace(/\u00a0/g, ' ')).toBe(shown);
  });

  it('builds the wire money object with the amount repeated as the converted amount', () => {
    expect(toWireMoney(1000n, 'USD')).toEqual({
      amount: '10.00',
      convertedAmount: '10.00',
      formattedAmount: '$10.00',
      formattedConvertedAmount: '$10.00',
    });
  });
});

describe('multiply', () => {
  it.each([
    [1999n, 3, 5997n],
    [1999n, 0, 0n],
    [99999999999n, 100_000, 9999999999900000n],
    [99999999999n, 100_000n, 9999999999900000n],
    [123456789012345678n, 100_000, 12345678901234567800000n],
  ])('%s × %s = %s exactly', (unit, quantity, product) => {
    expect(multiply(unit, quantity)).toBe(product);
  });

  it.each([1.5, -1, Number.NaN, 2 ** 60])('refuses the quantity %s', (quantity) => {
    expect(() => multiply(100n, quantity)).toThrow(RangeError);
  });
});

describe('divideHalfEven', () => {
  it.each([
    [5n, 2n, 2n],
    [7n, 2n, 4n],
    [9n, 2n, 4n],
    [11n, 2n, 6n],
    [-5n, 2n, -2n],
    [-7n, 2n, -4n],
    [5n, -2n, -2n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-2n, 3n, -1n],
    [10n, 4n, 2n],
    [14n, 4n, 4n],
    [0n, 7n, 0n],
    [100n, 1n, 100n],
  ])('%s / %s rounds to %s', (numerator, denominator, quotient) => {
    expect(divideHalfEven(numerator, denominator)).toBe(quotient);
  });

  it('refuses to divide by zero', () => {
    expect(() => divideHalfEven(1n, 0n)).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  it.each([
    // [amount, percent, result, exact value]
    [5n, '10', 0n, '0.5 → even 0'],
    [15n, '10', 2n, '1.5 → even 2'],
    [25n, '10', 2n, '2.5 → even 2'],
    [35n, '10', 4n, '3.5 → even 4'],
    [1000n, '7.25', 72n, '72.5 → even 72'],
    [1400n, '7.25', 102n, '101.5 → even 102'],
    [4n, '12.5', 0n, '0.5 → even 0'],
    [12n, '12.5', 2n, '1.5 → even 2'],
    [10000n, '100', 10000n, 'all of it'],
    [10000n, '0', 0n, 'none of it'],
    [10000n, '0.001', 0n, '0.1 → 0'],
    [333n, '33.333', 111n, '110.998… → 111'],
  ])('%s × %s% = %s (%s)', (amount, percent, result) => {
    expect(percentOf(amount, percent)).toBe(result);
  });
});

describe('includedTaxOf', () => {
  it.each([
    [12000n, '20', 2000n, '120.00 incl. 20% holds 20.00'],
    [11000n, '10', 1000n, '110.00 incl. 10% holds 10.00'],
    [10725n, '7.25', 725n, '107.25 incl. 7.25% holds 7.25'],
    [3n, '20', 0n, '0.5 → even 0'],
    [9n, '20', 2n, '1.5 → even 2'],
    [15n, '20', 2n, '2.5 → even 2'],
    [1000n, '0', 0n, 'no rate, no tax'],
  ])('tax inside %s at %s% is %s (%s)', (gross, percent, tax) => {
    expect(includedTaxOf(gross, percent)).toBe(tax);
  });
});

describe('allocateProportionally', () => {
  it.each([
    [10n, [1n, 1n, 1n], [4n, 3n, 3n]],
    [100n, [1n, 2n, 3n], [17n, 33n, 50n]],
    [7n, [3n, 3n], [4n, 3n]],
    [1n, [1n, 1n, 1n], [1n, 0n, 0n]],
    [2n, [5n, 1n, 5n], [1n, 0n, 1n]],
    [5n, [0n, 10n], [0n, 5n]],
    [0n, [5n, 5n], [0n, 0n]],
    [0n, [0n, 0n], [0n, 0n]],
    [1000n, [1000n, 1000n, 1000n], [334n, 333n, 333n]],
  ])('splits %s across [%s] as [%s]', (total, weights, shares) => {
    expect(allocateProportionally(total, weights)).toEqual(shares);
  });

  it('always sums exactly and never gives a share more than its weight', () => {
    let seed = 12345;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let round = 0; round < 500; round++) {
      const weights = Array.from({ length: 1 + next(8) }, () => BigInt(next(100_000)));
      const sum = weights.reduce((a, b) => a + b, 0n);
      const total = sum === 0n ? 0n : BigInt(next(Number(sum) + 1));
      const shares = allocateProportionally(total, weights);
      const allocated = shares.reduce((a, b) => a + b, 0n);
      expect(allocated, `Σ shares of ${total} over ${weights.join(',')}`).toBe(total);
      shares.forEach((share, i) => expect(share <= weights[i], `share ${share} > weight ${weights[i]}`).toBe(true));
    }
  });

  it.each([
    [-1n, [1n]],
    [1n, [0n, 0n]],
    [1n, [-1n, 2n]],
  ])('refuses to split %s across [%s]', (total, weights) => {
    expect(() => allocateProportionally(total, weights)).toThrow(RangeError);
  });
});

describe('exact decimals for rates and weights', () => {
  it.each([
    ['7.25', 725n, 2],
    ['0', 0n, 0],
    ['-1.5', -15n, 1],
    [0.1, 1n, 1],
    [2.5, 25n, 1],
    [1e-7, 1n, 7],
    [1.5e-7, 15n, 8],
    [1e21, 10n ** 21n, 0],
  ])('reads %j exactly', (value, units, scale) => {
    expect(parseDecimal(value)).toEqual({ units, scale });
  });

  it.each(['1e3', ' 1', '', 'abc', Number.NaN, Number.POSITIVE_INFINITY])('refuses %j', (value) => {
    expect(ruleOf(() => parseDecimal(value))).toBe('FORMAT');
  });

  it.each([
    ['1.10', '1.1', 0],
    [2.5, '2.50', 0],
    ['0.3', '0.30000001', -1],
    ['10', '9.999', 1],
    ['-1', '0', -1],
  ])('compares %j with %j as %i', (a, b, sign) => {
    expect(compareDecimal(a, b)).toBe(sign);
  });

  it.each([
    [2500n, 3, 0, '2.5'],
    [0n, 3, 0, '0'],
    [725n, 2, 2, '0.0725'],
    [10n, 0, 2, '0.1'],
    [-15n, 1, 0, '-1.5'],
    [3n, -2, 0, '300'],
  ])('writes %s at scale %i shifted by %i as %j', (units, scale, shift, text) => {
    expect(formatDecimal({ units, scale }, shift)).toBe(text);
  });
});
