import { describe, it, expect } from 'vitest';
import { canonicalDate, canonicaliseDates, isWireDate, projectFields } from './wire-values.js';

describe('canonicalDate', () => {
  it.each([
    ['an ISO instant with an offset', '2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.000Z'],
    ['an ISO instant without milliseconds', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000Z'],
    ['a date-only string (UTC midnight)', '2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['an already canonical string', '1999-12-31T23:59:59.999Z', '1999-12-31T23:59:59.999Z'],
    ['text that names no date', 'next tuesday', undefined],
    ['an empty string', '', undefined],
    ['blank text', '   ', undefined],
    ['a number', 1714557600000, undefined],
    ['null', null, undefined],
    ['a year past 9999, which would sort wrongly as text', '+010000-01-01T00:00:00.000Z', undefined],
  ])('canonicalises %s', (_name, input, expected) => {
    expect(canonicalDate(input)).toBe(expected);
  });

  it('gives text that sorts in time order', () => {
    const inputs = ['2024-05-01T10:00:00+09:00', '2024-05-01', '2023-12-31T23:59:59.5Z', '2024-04-30T23:00:00-02:00'];
    const canonical = inputs.map((input) => canonicalDate(input) ?? 'invalid');
    const byText = [...canonical].sort();
    const byTime = [...canonical].sort((a, b) => Date.parse(a) - Date.parse(b));
    expect(byText).toEqual(byTime);
  });
});

describe('isWireDate', () => {
  it.each([
    [{ $date: '2024-05-01' }, true],
    [{ $date: 'x', other: 1 }, false],
    [{}, false],
    [['$date'], false],
    ['2024-05-01', false],
    [null, false],
  ])('%j is a wire date: %s', (value, expected) => {
    expect(isWireDate(value)).toBe(expected);
  });
});

describe('canonicaliseDates', () => {
  it('canonicalises dates at any depth and leaves everything else as given', () => {
    const item = {
      _id: 'i1',
      when: { $date: '2024-05-01T12:00:00+02:00' },
      list: [{ $date: '2024-05-01' }, 'text', 3],
      nested: { deeper: { at: { $date: '2024-05-01T10:00:00Z' } } },
      invalid: { $date: 'not a date' },
      notADate: { $date: '2024-05-01', note: 'two keys' },
      empty: null,
    };
    expect(canonicaliseDates(item)).toEqual({
      _id: 'i1',
      when: { $date: '2024-05-01T10:00:00.000Z' },
      list: [{ $date: '2024-05-01T00:00:00.000Z' }, 'text', 3],
      nested: { deeper: { at: { $date: '2024-05-01T10:00:00.000Z' } } },
      invalid: { $date: 'not a date' },
      notADate: { $date: '2024-05-01', note: 'two keys' },
      empty: null,
    });
  });

  it('does not change its input', () => {
    const item = { when: { $date: '2024-05-01' } };
    canonicaliseDates(item);
    expect(item).toEqual({ when: { $date: '2024-05-01' } });
  });

  it('keeps a "__proto__" key as a field rather than a prototype', () => {
    const item = JSON.parse('{"__proto__": {"polluted": true}}');
    const copy = canonicaliseDates(item);
    expect(Object.keys(copy ?? {})).toEqual(['__proto__']);
    expect(Reflect.get({}, 'polluted')).toBeUndefined();
  });
});

describe('projectFields', () => {
  const item = { _id: 'i1', title: 'Apple', price: 3, dims: { w: 7, h: 2 }, tags: ['red'] };

  it('keeps _id and the named fields only', () => {
    expect(projectFields(item, ['title', 'tags'])).toEqual({ _id: 'i1', title: 'Apple', tags: ['red'] });
  });

  it('keeps the nesting of dotted paths and merges siblings', () => {
    expect(projectFields(item, ['dims.w', 'dims.h'])).toEqual({ _id: 'i1', dims: { w: 7, h: 2 } });
    expect(projectFields(item, ['dims.w'])).toEqual({ _id: 'i1', dims: { w: 7 } });
  });

  it('leaves missing fields missing rather than null', () => {
    expect(projectFields(item, ['missing', 'dims.missing', 'title.length'])).toEqual({ _id: 'i1' });
  });

  it('returns the item itself when no fields are asked for', () => {
    expect(projectFields(item, [])).toBe(item);
  });

  it('copies a "__proto__" field as data', () => {
    const hostile = JSON.parse('{"_id": "x", "__proto__": {"polluted": true}}');
    const projected = projectFields(hostile, ['__proto__']);
    expect(Object.getOwnPropertyDescriptor(projected, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(projected)).toBe(Object.prototype);
  });
});
