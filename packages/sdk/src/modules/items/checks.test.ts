/** Every data store client check rejects before any request, with the WDE code in the details. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../auth/api-key.js';
import { createClient } from '../../client.js';
import { BodegaError } from '../../core/errors.js';
import { startReceiver, type Receiver } from '../../test-support/receiver.js';
import { items } from './index.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(() => ({ body: {} }));
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
});

const data = () => createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url }).items;

/** Some arguments are deliberately of the wrong type, as JavaScript callers may pass them. */
const wrong = <T>(value: unknown): T => value as T;

async function expectWde(action: () => Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const error = await action().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(BodegaError);
  const failure = error as BodegaError;
  expect(failure.details.applicationError?.code).toBe(code);
  expect(failure.code).toBe(code);
  expect(failure.message.startsWith(`${code}: `)).toBe(true);
  if (message) expect(failure.message).toMatch(message);
  expect(receiver.requests, 'no request may be sent').toHaveLength(0);
}

const many = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: `i${i}` }));

describe('collection names and item ids', () => {
  it('WDE0001: the collection name must be a string', async () => {
    await expectWde(() => data().get(wrong(42), 'i1'), 'WDE0001');
    await expectWde(() => data().insert(wrong(null), {}), 'WDE0001');
    await expectWde(() => data().query(wrong(1)).find(), 'WDE0001');
    await expectWde(() => data().bulkRemove(wrong({}), []), 'WDE0001');
  });

  it('WDE0002: the item id must be a string', async () => {
    await expectWde(() => data().get('Things', wrong(7)), 'WDE0002');
    await expectWde(() => data().remove('Things', wrong(undefined)), 'WDE0002');
    await expectWde(() => data().patch('Things', wrong(1)).setField('a', 1).run(), 'WDE0002');
  });

  it('WDE0003: field names must be strings', async () => {
    await expectWde(() => data().isReferenced('Things', wrong(1), 'a', 'b'), 'WDE0003');
    await expectWde(() => data().patch('Things', 'i1').setField(wrong(5), 1).run(), 'WDE0003');
  });
});

describe('items', () => {
  it('WDE0004: an item must be an object whose _id, when present, is a string', async () => {
    await expectWde(() => data().insert('Things', wrong('text')), 'WDE0004');
    await expectWde(() => data().save('Things', wrong([1])), 'WDE0004');
    await expectWde(() => data().insert('Things', { _id: wrong(5) }), 'WDE0004');
  });

  it('WDE0005: bulk items must be an array of objects with string _id', async () => {
    await expectWde(() => data().bulkInsert('Things', wrong({ a: 1 })), 'WDE0005');
    await expectWde(() => data().bulkSave('Things', wrong([{}, 'x'])), 'WDE0005');
    await expectWde(() => data().bulkUpdate('Things', [{ _id: wrong(1) }]), 'WDE0005');
  });

  it('WDE0006: at most 1000 items for bulk insert, save and update', async () => {
    await expectWde(() => data().bulkInsert('Things', many(1001)), 'WDE0006');
    await expectWde(() => data().bulkSave('Things', many(1001)), 'WDE0006');
    await expectWde(() => data().bulkUpdate('Things', many(1001)), 'WDE0006');
  });

  it('accepts exactly 1000 items', async () => {
    await data().bulkInsert('Things', many(1000));
    expect(receiver.requests).toHaveLength(1);
  });

  it('WDE0007: an updated item needs a string _id', async () => {
    await expectWde(() => data().update('Things', { title: 'x' }), 'WDE0007');
    await expectWde(() => data().bulkUpdate('Things', [{ _id: 'a' }, { title: 'b' }]), 'WDE0007');
  });

  it('WDE0068 and WDE0069: item ids must be an array of at most 1000 strings', async () => {
    await expectWde(() => data().bulkRemove('Things', wrong('i1')), 'WDE0068');
    await expectWde(() => data().bulkRemove('Things', wrong(['a', 2])), 'WDE0068');
    await expectWde(() => data().bulkRemove('Things', many(1001).map((i) => i._id)), 'WDE0069');
    await expectWde(() => data().bulkPatch('Things', many(1001).map((i) => i._id)).setField('a', 1).run(), 'WDE0069');
  });

  it('WDE0019: references are ids or items with an _id', async () => {
    await expectWde(() => data().insertReference('Things', 'tags', { title: 'no id' }, 't1'), 'WDE0019');
    await expectWde(() => data().replaceReferences('Things', 'tags', 'i1', [wrong(5)]), 'WDE0019');
  });
});

describe('options', () => {
  it('WDE0018: only the known boolean flags', async () => {
    await expectWde(() => data().get('Things', 'i1', wrong({ suppressHooks: 'yes' })), 'WDE0018');
    await expectWde(() => data().get('Things', 'i1', wrong({ unknownFlag: true })), 'WDE0018');
    await expectWde(() => data().insert('Things', {}, wrong('fast')), 'WDE0018');
    await expectWde(() => data().save('Things', {}, wrong({ overrideExisting: true })), 'WDE0018');
    await expectWde(() => data().query('Things').find(wrong({ appOptions: {} })), 'WDE0018');
  });

  it('WDE0018: language must be a non-empty string', async () => {
    await expectWde(() => data().get('Things', 'i1', { language: '' }), 'WDE0018');
    await expectWde(() => data().get('Things', 'i1', wrong({ language: 3 })), 'WDE0018');
  });

  it('accepts every known flag, a language and overrideExisting for bulk insert', async () => {
    await data().get('Things', 'i1', { suppressAuth: true, suppressHooks: false, showDrafts: true, consistentRead: true, language: 'de' });
    await data().bulkInsert('Things', [{}], { overrideExisting: true });
    expect(receiver.requests).toHaveLength(2);
  });
});

describe('paging arguments', () => {
  it.each([
    ['a string', 'ten', 'WDE0032'],
    ['a fraction', 2.5, 'WDE0035'],
    ['zero', 0, 'WDE0033'],
    ['negative', -1, 'WDE0033'],
    ['over 1000', 1001, 'WDE0036'],
  ])('limit %s fails with %s', async (_label, limit, code) => {
    await expectWde(() => data().query('Things').limit(wrong(limit)).find(), String(code));
  });

  it.each([
    ['a string', 'x', 'WDE0032'],
    ['a fraction', 1.5, 'WDE0035'],
    ['negative', -1, 'WDE0034'],
  ])('skip %s fails with %s', async (_label, skip, code) => {
    await expectWde(() => data().query('Things').skip(wrong(skip)).find(), String(code));
  });

  it('WDE0094: a cursor must be a non-empty string', async () => {
    await expectWde(() => data().query('Things', { cursorPaging: { cursor: '' } }), 'WDE0094');
    await expectWde(() => data().query('Things', { cursorPaging: { cursor: wrong(5) } }), 'WDE0094');
  });

  it('WDE0080: skip is not supported with a cursor', async () => {
    await expectWde(() => data().query('Things', { paging: { offset: 10 }, cursorPaging: { cursor: 'c' } }), 'WDE0080');
  });

  it('checks direct and queryReferenced paging too', async () => {
    await expectWde(() => data().query('Things', { paging: { limit: 0 } }), 'WDE0033');
    await expectWde(() => data().queryReferenced('Things', 'i1', 'tags', { skip: -2 }), 'WDE0034');
  });
});

describe('filters', () => {
  it('WDE0044: startsWith, endsWith and contains take strings', async () => {
    await expectWde(() => data().query('Things').startsWith('title', wrong(1)).find(), 'WDE0044');
    await expectWde(() => data().query('Things').contains('title', wrong(null)).find(), 'WDE0044');
  });

  it('WDE0045: comparisons take strings, numbers or dates', async () => {
    await expectWde(() => data().query('Things').gt('price', wrong(true)).find(), 'WDE0045');
    await expectWde(() => data().query('Things').le('price', wrong({})).find(), 'WDE0045');
    await expectWde(() => data().query('Things').eq('tags', wrong({ a: 1 })).find(), 'WDE0045');
    await expectWde(() => data().query('Things').between('price', wrong([]), 2).find(), 'WDE0045');
  });

  it('WDE0046: between takes two values of the same type', async () => {
    await expectWde(() => data().query('Things').between('price', 1, 'z').find(), 'WDE0046');
  });

  it('WDE0047: hasSome, hasAll and in take strings, numbers or dates', async () => {
    await expectWde(() => data().query('Things').hasSome('tags', wrong([true])).find(), 'WDE0047');
    await expectWde(() => data().query('Things').hasAll('tags', 'a', wrong({})).find(), 'WDE0047');
  });

  it('WDE0048: the field must be a string', async () => {
    await expectWde(() => data().query('Things').eq(wrong(1), 'x').find(), 'WDE0048');
  });

  it('WDE0049 and WDE0050: and/or/not take a filter or a query of the same collection', async () => {
    await expectWde(() => data().query('Things').and(wrong({ a: 1 })).find(), 'WDE0049');
    await expectWde(() => data().query('Things').or(data().query('Other').eq('a', 1)).find(), 'WDE0050');
  });

  it('WDE0051: sort fields are strings', async () => {
    await expectWde(() => data().query('Things').ascending(wrong(1)).find(), 'WDE0051');
  });

  it('WDE0070: regular-expression filters are rejected', async () => {
    await expectWde(() => data().query('Things', { filter: { title: { $regex: '^a' } } }), 'WDE0070');
    await expectWde(() => data().count('Things', { filter: { $or: [{ $regex: 'x' }] } }), 'WDE0070');
  });

  it('direct filters are checked: WDE0016, WDE0057, WDE0058, WDE0059, WDE0060', async () => {
    await expectWde(() => data().query('Things', { filter: wrong('title = a') }), 'WDE0016');
    await expectWde(() => data().query('Things', { filter: { $and: wrong({}) } }), 'WDE0057');
    await expectWde(() => data().query('Things', { filter: { price: { $gt: wrong(true) } } }), 'WDE0058');
    await expectWde(() => data().query('Things', { filter: { title: { $startsWith: 1 } } }), 'WDE0059');
    await expectWde(() => data().query('Things', { filter: { tags: { $hasSome: [{}] } } }), 'WDE0060');
    await expectWde(() => data().asyncRemoveByFilter('Things', { tags: { $in: 'x' } }), 'WDE0057');
  });

  it('accepts string, number and date operands', async () => {
    await data()
      .query('Things')
      .eq('active', true)
      .gt('price', 1)
      .lt('title', 'm')
      .ge('at', new Date(0))
      .hasSome('tags', ['a', 2])
      .find();
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('patch and aggregation', () => {
  it('WDE0032: a patch increment must be a number', async () => {
    await expectWde(() => data().patch('Things', 'i1').incrementField('n', wrong('1')).run(), 'WDE0032');
    await expectWde(
      () => data().patch('Things', 'i1', [{ fieldPath: 'n', action: 'INCREMENT_FIELD', value: '1' }]),
      'WDE0032',
    );
    await expectWde(
      () => data().asyncPatchByFilter('Things', {}, [{ fieldPath: 'n', action: 'INCREMENT_FIELD', value: null }]),
      'WDE0032',
    );
  });

  it('WDE0011: aggregation filter and having take a data filter', async () => {
    await expectWde(() => data().aggregate('Things').filter(wrong({ a: 1 })).run(), 'WDE0011');
    await expectWde(() => data().aggregate('Things').having(wrong('x')).run(), 'WDE0011');
  });

  it('WDE0012: one filter and one having', async () => {
    const f = data().filter().eq('a', 1);
    await expectWde(() => data().aggregate('Things').filter(f).filter(f).run(), 'WDE0012');
    await expectWde(() => data().aggregate('Things').having(f).having(f).run(), 'WDE0012');
  });

  it('WDE0013: one group', async () => {
    await expectWde(() => data().aggregate('Things').group('a').group('b').run(), 'WDE0013');
  });
});
