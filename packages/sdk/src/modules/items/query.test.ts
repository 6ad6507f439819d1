import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../auth/api-key.js';
import { createClient } from '../../client.js';
import { BodegaError } from '../../core/errors.js';
import { decodeR, startReceiver, type Receiver, type Recorded } from '../../test-support/receiver.js';
import { items } from './index.js';
import { MAX_GET_QUERY_URL } from './request.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver(() => ({ body: { dataItems: [], pagingMetadata: {} } }));
});
afterEach(() => receiver.close());

const data = () => createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url }).items;
const QUERY = '/_api/cloud-data/v2/items/query';

/** The query a request carried, whether sent as GET `.r` or as a POST body. */
const sent = (request: Recorded): Record<string, unknown> =>
  (request.method === 'GET' ? decodeR(request) : request.body) as Record<string, unknown>;
const filterOf = (request: Recorded): unknown => (sent(request).query as { filter: unknown }).filter;

describe('query encoding', () => {
  it('encodes the captured builder example exactly and sends it as GET .r', async () => {
    await data()
      .query('Products')
      .eq('title', 'A')
      .gt('price', 5)
      .hasSome('tags', ['x', 'y'])
      .contains('title', 'A')
      .ascending('title')
      .descending('_createdDate')
      .limit(10)
      .skip(20)
      .fields('title', 'price')
      .include('ref')
      .find();
    const [request] = receiver.requests;
    expect(request.method).toBe('GET');
    expect(request.path).toBe(QUERY);
    expect([...request.query.keys()]).toEqual(['.r']);
    expect(request.query.get('.r')).not.toMatch(/[=+/]/);
    expect(decodeR(request)).toEqual({
      dataCollectionId: 'Products',
      query: {
        fields: ['title', 'price'],
        paging: { limit: 10, offset: 20 },
        filter: { $and: [{ title: 'A' }, { price: { $gt: 5 } }, { tags: { $hasSome: ['x', 'y'] } }, { title: { $contains: 'A' } }] },
        sort: [
          { fieldName: 'title', order: 'ASC' },
          { fieldName: '_createdDate', order: 'DESC' },
        ],
      },
      includeReferences: [{ field: 'ref' }],
    });
  });

  it('sends empty first-page parts and omits paging when there is no limit or skip', async () => {
    await data().query('Products').find();
    expect(decodeR(receiver.requests[0])).toEqual({
      dataCollectionId: 'Products',
      query: { fields: [], filter: {}, sort: [] },
      includeReferences: [],
    });
  });

  it('uses GET while <path>?.r=<b64> is at most 2048 characters, POST beyond', async () => {
    // Grow a value until the GET URL passes 2048 characters; the last GET must be ≤ 2048.
    let value = 'x'.repeat(1350);
    let lastGet = 0;
    for (;;) {
      receiver.requests.length = 0;
      await data().query('Products').eq('title', value).find();
      const [request] = receiver.requests;
      if (request.method === 'POST') break;
      lastGet = request.url.length;
      value += 'x';
    }
    expect(value.length).toBeGreaterThan(1351);
    expect(lastGet).toBeLessThanOrEqual(MAX_GET_QUERY_URL);
    expect(lastGet).toBeGreaterThan(MAX_GET_QUERY_URL - 4);
    const [post] = receiver.requests;
    expect(post.path).toBe(QUERY);
    expect(post.query.has('.r')).toBe(false);
    expect((post.body as { query: { filter: unknown } }).query.filter).toEqual({ title: value });
  });

  it('writes not() in array form inside $and, with an empty filter when it comes first', async () => {
    const q = data().query('Products');
    await q.eq('a', 1).not(q.eq('b', 2)).find();
    await q.not(q.eq('b', 2)).find();
    expect(filterOf(receiver.requests[0])).toEqual({ $and: [{ a: 1 }, { $not: [{ b: 2 }] }] });
    expect(filterOf(receiver.requests[1])).toEqual({ $and: [{}, { $not: [{ b: 2 }] }] });
  });

  it('encodes every operator', async () => {
    const when = new Date('2024-05-01T10:00:00.000Z');
    const q = data().query('Products');
    await q
      .ne('a', 1)
      .ge('b', 2)
      .lt('c', 3)
      .le('d', when)
      .between('e', 1, 9)
      .startsWith('f', 'x')
      .endsWith('g', 'y')
      .hasAll('h', 'p', 'q')
      .in('i', [1, 2])
      .exists('j')
      .isEmpty('k')
      .isNotEmpty('l')
      .or(q.eq('m', true))
      .find();
    expect(filterOf(receiver.requests[0])).toEqual({
      $or: [
        {
          $and: [
            { a: { $ne: 1 } },
            { b: { $gte: 2 } },
            { c: { $lt: 3 } },
            { d: { $lte: { $date: '2024-05-01T10:00:00.000Z' } } },
            { e: { $gte: 1, $lt: 9 } },
            { f: { $startsWith: 'x' } },
            { g: { $endsWith: 'y' } },
            { h: { $hasAll: ['p', 'q'] } },
            { i: { $in: [1, 2] } },
            { j: { $exists: true } },
            { k: null },
            { l: { $ne: null } },
          ],
        },
        { m: true },
      ],
    });
  });

  it('combines with and() and standalone filters', async () => {
    const f = data().filter().gt('price', 1);
    await data().query('Products').eq('a', 1).and(f).find();
    expect(filterOf(receiver.requests[0])).toEqual({ $and: [{ a: 1 }, { price: { $gt: 1 } }] });
  });

  it('passes direct-call filters through as given and sends read options', async () => {
    await data().query(
      'Products',
      { filter: { title: { $eq: 'A' } }, sort: [{ fieldName: 'title', order: 'ASC' }], paging: { limit: 5 } },
      { consistentRead: true, showDrafts: true, language: 'de', suppressAuth: true },
    );
    expect(decodeR(receiver.requests[0])).toEqual({
      dataCollectionId: 'Products',
      query: { fields: [], paging: { limit: 5, offset: 0 }, filter: { title: { $eq: 'A' } }, sort: [{ fieldName: 'title', order: 'ASC' }] },
      includeReferences: [],
      consistentRead: true,
      language: 'de',
      publishPluginOptions: { includeDraftItems: true },
    });
  });

  it('returns item data with $date values as Dates', async () => {
    receiver.reply(() => ({
      body: {
        dataItems: [{ id: 'i1', dataCollectionId: 'Products', data: { _id: 'i1', title: 'A', _createdDate: { $date: '2024-05-01T10:00:00.000Z' } } }],
        pagingMetadata: { count: 1, offset: 20, total: 1, tooManyToCount: false, hasNext: false },
      },
    }));
    const page = await data().query('Products').find();
    expect(page.items).toEqual([{ _id: 'i1', title: 'A', _createdDate: new Date('2024-05-01T10:00:00.000Z') }]);
    expect(page.totalCount).toBe(1);
    expect(page.length).toBe(1);
  });
});

describe('paging helpers', () => {
  const pageOf = (offset: number, total: number, extra: Record<string, unknown> = {}) => ({
    body: {
      dataItems: [{ data: { _id: `i${offset}` } }],
      pagingMetadata: { offset, total, hasNext: offset + 50 < total, ...extra },
    },
  });

  it('pages by offset with the default page size of 50', async () => {
    receiver.reply((request) => {
      const paging = (sent(request).query as { paging?: { offset?: number } }).paging;
      return pageOf(paging?.offset ?? 0, 120);
    });
    const first = await data().query('Products').find();
    expect(first.pageSize).toBe(50);
    expect(first.currentPage).toBe(0);
    expect(first.totalPages).toBe(3);
    expect(first.hasNext()).toBe(true);
    expect(first.hasPrev()).toBe(false);
    const second = await first.next();
    expect((sent(receiver.requests[1]).query as { paging: unknown }).paging).toEqual({ limit: 50, offset: 50 });
    expect(second.items).toEqual([{ _id: 'i50' }]);
    expect(second.currentPage).toBe(1);
    expect(second.hasPrev()).toBe(true);
    const back = await second.prev();
    expect((sent(receiver.requests[2]).query as { paging: unknown }).paging).toEqual({ limit: 50, offset: 0 });
    expect(back.items).toEqual([{ _id: 'i0' }]);
  });

  it('next() sends only the cursor when the server gave one', async () => {
    receiver.reply(() => ({
      body: { dataItems: [], pagingMetadata: { hasNext: true, cursors: { next: 'CUR-2', prev: 'CUR-0' } } },
    }));
    const first = await data().query('Products').eq('a', 1).ascending('a').limit(10).fields('a').find();
    expect(first.hasPrev()).toBe(true);
    await first.next();
    expect(sent(receiver.requests[1])).toEqual({
      dataCollectionId: 'Products',
      query: { fields: ['a'], cursorPaging: { limit: 10, cursor: 'CUR-2' } },
    });
    await first.prev();
    expect((sent(receiver.requests[2]).query as { cursorPaging: unknown }).cursorPaging).toEqual({ limit: 10, cursor: 'CUR-0' });
  });

  it('WDE0165 and WDE0159 when there is no next or previous page', async () => {
    receiver.reply(() => pageOf(0, 1));
    const page = await data().query('Products').find();
    expect(page.hasNext()).toBe(false);
    const next = await page.next().catch((e: unknown) => e);
    expect(next).toBeInstanceOf(BodegaError);
    expect((next as BodegaError).message).toBe('WDE0165: Invalid query on [Products]. There is no next page.');
    expect((next as BodegaError).details.applicationError?.code).toBe('WDE0165');
    const prev = await page.prev().catch((e: unknown) => e);
    expect((prev as BodegaError).details.applicationError?.code).toBe('WDE0159');
    expect(receiver.requests).toHaveLength(1);
  });

  it('WDE0037 when a previous offset page would start before zero', async () => {
    receiver.reply(() => pageOf(10, 100));
    const page = await data().query('Products').skip(10).find();
    expect(page.hasPrev()).toBe(true);
    await expect(page.prev()).rejects.toMatchObject({ code: 'WDE0037' });
  });
});

describe('count, distinct, search, aggregate, queryReferenced', () => {
  it('count posts the filter and returns totalCount', async () => {
    receiver.reply(() => ({ body: { totalCount: 7 } }));
    expect(await data().query('Products').eq('a', 1).count()).toBe(7);
    expect(await data().count('Products', { filter: { b: 2 } })).toBe(7);
    expect(receiver.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/_api/cloud-data/v2/items/count', { dataCollectionId: 'Products', filter: { a: 1 } }],
      ['POST', '/_api/cloud-data/v2/items/count', { dataCollectionId: 'Products', filter: { b: 2 } }],
    ]);
  });

  it('distinct posts the field and reads distinctValues with paging', async () => {
    receiver.reply(() => ({ body: { distinctValues: ['a', 'b'], pagingMetadata: { hasNext: true, cursors: { next: 'N' } } } }));
    const page = await data().query('Products').eq('x', 1).ascending('tag').distinct('tag');
    expect(page.items).toEqual(['a', 'b']);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      fieldName: 'tag',
      filter: { x: 1 },
      order: 'ASC',
      paging: { limit: 50, offset: 0 },
    });
    await page.next();
    expect(receiver.requests[1].body).toEqual({
      dataCollectionId: 'Products',
      fieldName: 'tag',
      order: 'ASC',
      cursorPaging: { limit: 50, cursor: 'N' },
    });
  });

  it('search posts expression, fuzzy and mode with filter and paging', async () => {
    await data().search('Products').expression('red shoe').fuzzy().orMode().eq('inStock', true).limit(5).run();
    expect(receiver.requests[0].path).toBe('/_api/cloud-data/v2/items/search');
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      search: {
        filter: { inStock: true },
        sort: [],
        fields: [],
        search: { expression: 'red shoe', fuzzy: true, mode: 'OR' },
        paging: { limit: 5, offset: 0 },
      },
      includeReferences: [],
    });
  });

  it('aggregate posts filter, grouping, operations and having, and unwraps a single-key _id', async () => {
    receiver.reply(() => ({
      body: { results: [{ _id: { category: 'shoes' }, priceSum: 30, count: 2 }, { _id: { a: 1, b: 2 } }], pagingMetadata: {} },
    }));
    const page = await data()
      .aggregate('Products')
      .filter(data().filter().gt('price', 0))
      .group('category')
      .sum('price')
      .avg('price', 'mean')
      .min('price')
      .max('price')
      .count()
      .having(data().filter().gt('count', 1))
      .descending('priceSum')
      .limit(10)
      .run();
    expect(receiver.requests[0].path).toBe('/_api/cloud-data/v2/items/aggregate');
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      initialFilter: { price: { $gt: 0 } },
      aggregation: {
        groupingFields: ['category'],
        operations: [
          { resultFieldName: 'priceSum', sum: { itemFieldName: 'price' } },
          { resultFieldName: 'mean', average: { itemFieldName: 'price' } },
          { resultFieldName: 'priceMin', min: { itemFieldName: 'price' } },
          { resultFieldName: 'priceMax', max: { itemFieldName: 'price' } },
          { resultFieldName: 'count', itemCount: {} },
        ],
      },
      finalFilter: { count: { $gt: 1 } },
      sort: [{ fieldName: 'priceSum', order: 'DESC' }],
      paging: { limit: 10, offset: 0 },
    });
    expect(page.items).toEqual([{ _id: 'shoes', priceSum: 30, count: 2 }, { _id: { a: 1, b: 2 } }]);
  });

  it('queryReferenced pages with limit 50 by default and sends only the cursor later', async () => {
    receiver.reply(() => ({
      body: {
        results: [{ dataItem: { data: { _id: 't1' } } }, { unresolvedReference: { referencedItemId: 'x' } }],
        pagingMetadata: { hasNext: true, cursors: { next: 'C2' } },
      },
    }));
    const page = await data().queryReferenced('Posts', { _id: 'p1' }, 'tags', { order: 'DESC', returnTotalCount: true });
    expect(page.items).toEqual([{ _id: 't1' }]);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Posts',
      referringItemId: 'p1',
      referringItemFieldName: 'tags',
      order: 'DESC',
      returnTotalCount: true,
      paging: { limit: 50, offset: 0 },
    });
    await page.next();
    expect(receiver.requests[1].body).toEqual({
      dataCollectionId: 'Posts',
      referringItemId: 'p1',
      referringItemFieldName: 'tags',
      cursorPaging: { limit: 50, cursor: 'C2' },
    });
  });
});
