import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { applyFieldModifications, jsonEqual, readFieldModifications } from './field-modifications.js';
import type { JsonObject } from './wire-values.js';

const item: JsonObject = { _id: 'i1', title: 'A', count: 2, tags: ['x', 'y', 'x'], address: { city: 'Paris' } };

function patched(modifications: unknown[]): JsonObject {
  return applyFieldModifications(item, readFieldModifications(modifications));
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('applyFieldModifications', () => {
  it.each<[string, unknown[], JsonObject]>([
    ['sets a field', [{ action: 'SET_FIELD', fieldPath: 'title', setFieldOptions: { value: 'B' } }], { ...item, title: 'B' }],
    ['sets a new nested field, creating its object', [{ action: 'SET_FIELD', fieldPath: 'meta.rank', setFieldOptions: { value: 1 } }], { ...item, meta: { rank: 1 } }],
    ['sets inside an existing object', [{ action: 'SET_FIELD', fieldPath: 'address.zip', setFieldOptions: { value: '75001' } }], { ...item, address: { city: 'Paris', zip: '75001' } }],
    ['sets null', [{ action: 'SET_FIELD', fieldPath: 'title', setFieldOptions: { value: null } }], { ...item, title: null }],
    ['increments a number', [{ action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: 3 } }], { ...item, count: 5 }],
    ['decrements by a negative number', [{ action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: -0.5 } }], { ...item, count: 1.5 }],
    ['increments a missing field from zero', [{ action: 'INCREMENT_FIELD', fieldPath: 'views', incrementFieldOptions: { value: 1 } }], { ...item, views: 1 }],
    ['appends to an array', [{ action: 'APPEND_TO_ARRAY', fieldPath: 'tags', appendToArrayOptions: { value: 'z' } }], { ...item, tags: ['x', 'y', 'x', 'z'] }],
    ['appends an object as one element', [{ action: 'APPEND_TO_ARRAY', fieldPath: 'tags', appendToArrayOptions: { value: { a: 1 } } }], { ...item, tags: ['x', 'y', 'x', { a: 1 }] }],
    ['appends to a missing array', [{ action: 'APPEND_TO_ARRAY', fieldPath: 'list', appendToArrayOptions: { value: 1 } }], { ...item, list: [1] }],
    ['removes every equal element', [{ action: 'REMOVE_FROM_ARRAY', fieldPath: 'tags', removeFromArrayOptions: { value: 'x' } }], { ...item, tags: ['y'] }],
    ['removes from a missing array as a no-op', [{ action: 'REMOVE_FROM_ARRAY', fieldPath: 'list', removeFromArrayOptions: { value: 1 } }], item],
    ['removes a field', [{ action: 'REMOVE_FIELD', fieldPath: 'title' }], { _id: 'i1', count: 2, tags: ['x', 'y', 'x'], address: { city: 'Paris' } }],
    ['removes a nested field', [{ action: 'REMOVE_FIELD', fieldPath: 'address.city' }], { ...item, address: {} }],
    ['removes a missing field as a no-op', [{ action: 'REMOVE_FIELD', fieldPath: 'nothing.here' }], item],
    [
      'applies several in order',
      [
        { action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: 1 } },
        { action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: 1 } },
        { action: 'REMOVE_FIELD', fieldPath: 'tags' },
      ],
      { _id: 'i1', title: 'A', count: 4, address: { city: 'Paris' } },
    ],
  ])('%s', (_name, modifications, expected) => {
    expect(patched(modifications)).toEqual(expected);
  });

  it('canonicalises dates it sets and removes equal dates written differently', () => {
    const withDates: JsonObject = { _id: 'i', days: [{ $date: '2024-05-01T10:00:00.000Z' }] };
    const set = applyFieldModifications(withDates, readFieldModifications([{ action: 'SET_FIELD', fieldPath: 'when', setFieldOptions: { value: { $date: '2024-05-01T12:00:00+02:00' } } }]));
    expect(set.when).toEqual({ $date: '2024-05-01T10:00:00.000Z' });
    const removed = applyFieldModifications(withDates, readFieldModifications([{ action: 'REMOVE_FROM_ARRAY', fieldPath: 'days', removeFromArrayOptions: { value: { $date: '2024-05-01T12:00:00+02:00' } } }]));
    expect(removed.days).toEqual([]);
  });

  it('leaves the stored item unchanged', () => {
    patched([{ action: 'SET_FIELD', fieldPath: 'address.city', setFieldOptions: { value: 'Lyon' } }]);
    expect(item.address).toEqual({ city: 'Paris' });
  });

  it.each<[string, unknown]>([
    ['a non-number increment', [{ action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: '1' } }]],
    ['an increment of a string field', [{ action: 'INCREMENT_FIELD', fieldPath: 'title', incrementFieldOptions: { value: 1 } }]],
    ['an append to a non-array', [{ action: 'APPEND_TO_ARRAY', fieldPath: 'title', appendToArrayOptions: { value: 1 } }]],
    ['a path through a string', [{ action: 'SET_FIELD', fieldPath: 'title.x', setFieldOptions: { value: 1 } }]],
    ['a system field', [{ action: 'SET_FIELD', fieldPath: '_id', setFieldOptions: { value: 'other' } }]],
    ['the owner', [{ action: 'REMOVE_FIELD', fieldPath: '_owner' }]],
    ['an unknown action', [{ action: 'MULTIPLY', fieldPath: 'count' }]],
    ['a missing value', [{ action: 'SET_FIELD', fieldPath: 'count' }]],
    ['an injection in the path', [{ action: 'SET_FIELD', fieldPath: "a'); DROP TABLE x; --", setFieldOptions: { value: 1 } }]],
    ['no modifications', []],
    ['not an array', { action: 'SET_FIELD' }],
  ])('refuses %s with WDE0908', (_name, modifications) => {
    expect(codeOf(() => applyFieldModifications(item, readFieldModifications(modifications as unknown[])))).toBe('WDE0908');
  });
});

describe('jsonEqual', () => {
  it('compares deeply, ignoring key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });
});
