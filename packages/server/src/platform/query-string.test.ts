import { describe, expect, it } from 'vitest';
import { decodeQueryString, QUERY_ERROR } from './query-string.js';

const dotR = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('decodeQueryString', () => {
  it.each([
    ['scalars', 'id=c1&dataCollectionId=Products', { id: 'c1', dataCollectionId: 'Products' }],
    ['dotted keys become nested objects', 'paging.limit=10&paging.offset=0', { paging: { limit: '10', offset: '0' } }],
    ['repeated keys become arrays', 'fieldsets=FULL&fieldsets=PUBLIC', { fieldsets: ['FULL', 'PUBLIC'] }],
    ['a single value stays a scalar (the route schema coerces it)', 'fieldsets=FULL', { fieldsets: 'FULL' }],
    ['percent-encoding is decoded', 'q=a%20b%26c', { q: 'a b&c' }],
    ['an empty string gives an empty object', '', {}],
  ])('decodes %s', (_name, text, expected) => {
    expect(decodeQueryString(text)).toEqual(expected);
  });

  it('decodes an unpadded base64url .r parameter holding UTF-8 JSON', () => {
    const payload = { query: { filter: { title: 'Café ☕' }, paging: { limit: 10 } }, fieldsets: ['FULL'] };
    const encoded = dotR(payload);
    expect(encoded).not.toMatch(/[=+/]/);
    expect(decodeQueryString(`.r=${encoded}`)).toEqual(payload);
  });

  it('merges repeated path parameters beside .r, the decoded payload winning', () => {
    expect(decodeQueryString(`id=p1&.r=${dotR({ id: 'p1', includeMerchantSpecificData: true })}`)).toEqual({
      id: 'p1',
      includeMerchantSpecificData: true,
    });
  });

  it.each([
    ['garbage in .r', '.r=%%%'],
    ['.r that is not JSON', `.r=${Buffer.from('not json').toString('base64url')}`],
    ['.r holding an array', `.r=${dotR([1, 2])}`],
    ['two .r parameters', `.r=${dotR({})}&.r=${dotR({})}`],
    ['a scalar colliding with an object', 'a=1&a.b=2'],
    ['an empty path segment', 'a..b=1'],
    ['a prototype key', '__proto__.polluted=1'],
  ])('flags %s as an error instead of throwing', (_name, text) => {
    const decoded = decodeQueryString(text);
    expect(decoded[QUERY_ERROR]).toEqual(expect.any(String));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops prototype keys inside .r JSON', () => {
    const decoded = decodeQueryString(`.r=${Buffer.from('{"__proto__":{"polluted":1},"a":1}').toString('base64url')}`);
    expect(decoded).toEqual({ a: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
