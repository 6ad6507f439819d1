/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { base64UrlEncode, toQueryString } from './query-string.js';

const decode = (value: string): unknown => JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));

describe('base64url', () => {
  it('encodes UTF-8 without padding, with - and _ in place of + and /', () => {
    const text = '{"q":"ü~?>>"}';
    const encoded = base64UrlEncode(text);
    expect(encoded).not.toMatch(/[=+/]/);
    expect(Buffer.from(encoded, 'base64url').toString('utf8')).toBe(text);
    expect(base64UrlEncode('??>')).toBe('Pz8-');
    expect(base64UrlEncode('???')).toBe('Pz8_');
  });

  it('handles payloads larger than one fromCharCode chunk', () => {
    const text = 'é'.repeat(70_000);
    expect(Buffer.from(base64UrlEncode(text), 'base64url').toString('utf8')).toBe(text);
  });
});

describe('toQueryString', () => {
  it('writes scalars as key=value, nested objects with dotted keys and arrays as repeated keys', () => {
    const query = toQueryString({ id: 'co 1', paging: { limit: 10, offset: 0 }, fieldsets: ['FULL', 'PUBLIC'] });
    expect(query).toBe('id=co%201&paging.limit=10&paging.offset=0&fieldsets=FULL&fieldsets=PUBLIC');
  });

  it('skips null and undefined and drops arrays of objects', () => {
    expect(toQueryString({ a: null, b: undefined, c: [{ x: 1 }], d: true })).toBe('d=true');
  });

  it('writes dates as ISO strings', () => {
    expect(toQueryString({ at: new Date('2024-05-01T10:00:00.000Z') })).toBe('at=2024-05-01T10%3A00%3A00.000Z');
  });

  it('sends a complex payload with a nested object as one .r parameter', () => {
    const payload = { dataCollectionId: 'Products', query: { filter: { title: 'A' } } };
    const query = toQueryString(payload, true);
    expect(query.startsWith('.r=')).toBe(true);
    expect(decode(query.slice(3))).toEqual(payload);
  });

  it('sends a complex payload with an array of objects as one .r parameter', () => {
    const payload = { sorting: [{ fieldName: 'createdDate', order: 'DESC' }] };
    expect(decode(toQueryString(payload, true).slice(3))).toEqual(payload);
  });

  it('keeps a complex payload of scalars and scalar arrays in plain form', () => {
    expect(toQueryString({ id: 'm-1', fieldsets: ['FULL'] }, true)).toBe('id=m-1&fieldsets=FULL');
  });
});
