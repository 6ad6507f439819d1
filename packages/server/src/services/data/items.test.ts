import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { readItemInput, stampNew, stampReplacement, toWireItem, uniqueRuns } from './items.js';

const newId = () => 'generated';
const now = new Date('2024-05-01T10:00:00.000Z');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('readItemInput', () => {
  it('takes the id from data._id, else from dataItem.id, else makes one', () => {
    expect(readItemInput({ id: 'outer', data: { _id: 'inner' } }, 'c', { requireId: false, newId }).id).toBe('inner');
    expect(readItemInput({ id: 'outer', data: {} }, 'c', { requireId: false, newId }).id).toBe('outer');
    expect(readItemInput({ data: { a: 1 } }, 'c', { requireId: false, newId })).toEqual({ id: 'generated', data: { a: 1 } });
  });

  it.each<[string, unknown, boolean, string]>([
    ['an update without an id', { data: { a: 1 } }, true, 'WDE0007'],
    ['an update with a numeric id', { data: { _id: 5 } }, true, 'WDE0007'],
    ['an insert with a numeric id', { data: { _id: 5 } }, false, 'WDE0002'],
    ['an insert with an empty id', { data: { _id: '' } }, false, 'WDE0002'],
    ['an id of 513 characters', { data: { _id: 'x'.repeat(513) } }, false, 'WDE0002'],
    ['data that is not an object', { data: [1] }, false, 'WDE0004'],
    ['no data', {}, false, 'WDE0004'],
  ])('refuses %s', (_name, wire, requireId, code) => {
    expect(codeOf(() => readItemInput(wire, 'c', { requireId, newId }))).toBe(code);
  });
});

describe('stamping', () => {
  it('gives a new item its system fields and canonical dates', () => {
    const data = stampNew({ id: 'i1', data: { title: 'A', _createdDate: 'ignored', when: { $date: '2024-05-01T12:00:00+02:00' } } }, now, 'm1');
    expect(data).toEqual({
      _id: 'i1',
      title: 'A',
      when: { $date: '2024-05-01T10:00:00.000Z' },
      _createdDate: { $date: '2024-05-01T10:00:00.000Z' },
      _updatedDate: { $date: '2024-05-01T10:00:00.000Z' },
      _owner: 'm1',
    });
  });

  it('keeps the stored creation date and owner on a replacement', () => {
    const created = { $date: '2020-01-01T00:00:00.000Z' };
    const data = stampReplacement({ id: 'i1', data: { title: 'B', _owner: 'thief', _createdDate: { $date: '2030-01-01T00:00:00.000Z' } } }, { createdDate: created, owner: 'm1' }, now);
    expect(data).toEqual({ _id: 'i1', title: 'B', _owner: 'm1', _createdDate: created, _updatedDate: { $date: '2024-05-01T10:00:00.000Z' } });
  });

  it('wraps an item in the wire envelope', () => {
    expect(toWireItem('Products', { _id: 'i1', a: 1 })).toEqual({ id: 'i1', dataCollectionId: 'Products', data: { _id: 'i1', a: 1 } });
  });
});

describe('uniqueRuns', () => {
  it.each<[string[], string[][]]>([
    [[], []],
    [['a', 'b', 'c'], [['a', 'b', 'c']]],
    [['a', 'b', 'a', 'c', 'a'], [['a', 'b'], ['a', 'c'], ['a']]],
  ])('splits %j into %j', (ids, runs) => {
    expect(uniqueRuns(ids, (id) => id)).toEqual(runs);
  });
});
