// The compiled SQL run on a real database: the items, order and pages the wire promises.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { compileAggregate, compileCount, compileDistinct, compileQuery, compileSearch } from './query-compiler.js';
import { fieldExpr, SEARCH_VECTOR, type SqlQuery } from './query-basics.js';
import { readPage, type Page, type PagePlan, type PageRow } from './query-paging.js';
import { canonicaliseDates, isPlainObject, type JsonObject } from './wire-values.js';
import { cursorFor, must } from '../../test/data-queries.js';

// ---------------------------------------------------------------- on a real database

const SITE = 'site-1';
const COLLECTION = 'products';
const at = (iso: string) => ({ $date: iso });

const PRODUCTS: JsonObject[] = [
  { _id: 'i01', title: 'Apple', price: 3, category: 'fruit', tags: ['red', 'sweet'], active: true, released: at('2024-01-05T00:00:00Z'), dims: { w: 7 } },
  { _id: 'i02', title: 'apricot jam', price: 5.5, category: 'pantry', tags: ['orange', 'sweet'], active: false, released: at('2024-03-01'), dims: { w: 2 } },
  { _id: 'i03', title: 'Banana', price: 1, category: 'fruit', tags: 'yellow', active: true, released: at('2024-01-01T00:59:59+01:00') },
  { _id: 'i04', title: 'Blueberry 100%', price: 12, category: 'berry', tags: ['blue', 'sweet', 'small'], active: true },
  { _id: 'i05', title: 'Cherry_pie', price: '7', category: 'bakery', tags: ['red'] },
  { _id: 'i06', title: 'Date', price: null, category: 'fruit', tags: null },
  { _id: 'i07', title: 'Elderberry', category: 'berry' },
  { _id: 'i08', title: 'fig', price: 3, category: 'fruit', tags: [], released: at('2024-06-15T12:00:00.000Z') },
  { _id: 'i09', title: 'Grape', price: 4, category: 'fruit', tags: ['green', 'red'], dims: { w: 1 } },
  { _id: 'i10', title: 'Honeydew melon', price: 9.99, category: 'fruit', tags: ['green'] },
  { _id: 'i11', title: "O'Reilly's pie", price: 7, category: 'bakery', tags: ['brown'] },
  { _id: 'i12', title: 'kiwi', price: 2, category: 'fruit', tags: ['green', 'small'], active: false },
  { _id: 'i13', title: 'Lemon tart', price: 6, category: 'bakery', tags: ['yellow', 'sour'] },
  { _id: 'i14', title: 'Mango', price: 3, category: 'fruit', tags: ['orange'] },
  { _id: 'i15', title: 'Nectarine', price: 3, category: null },
  { _id: 'i16', title: 'Orange juice', price: 4.5, category: 'drinks', tags: ['orange'] },
  { _id: 'i17', title: 'PAPAYA', price: 8, category: 'fruit', released: at('2025-02-01T00:00:00.000Z') },
  { _id: 'i18', title: '100% juice', price: 4, category: 'drinks', tags: 'orange' },
  { _id: 'i19', title: 'Raspberry', price: 10, category: 'berry', tags: ['red', 'small'] },
  { _id: 'i20', price: 0, category: 'fruit' },
];
const ITEMS: JsonObject[] = PRODUCTS.map((item, index) => ({ ...item, _createdDate: at(`2024-02-${String(10 + Math.floor(index / 2))}T08:00:00.000Z`) }));

const ALL = ITEMS.map((item) => String(item._id));
const except = (...excluded: string[]) => ALL.filter((id) => !excluded.includes(id));

function idOf(item: unknown): string {
  if (!isPlainObject(item) || typeof item._id !== 'string') throw new Error(`not an item: ${JSON.stringify(item)}`);
  return item._id;
}

const idsOf = (page: Page): string[] => page.items.map(idOf);

describe('on PGlite', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(`CREATE TABLE data_items (
      site_id text, collection_id text, item_id text, data jsonb NOT NULL,
      PRIMARY KEY (site_id, collection_id, item_id))`);
    const insert = (site: string, collection: string, item: JsonObject) =>
      db.query('INSERT INTO data_items VALUES ($1, $2, $3, $4::jsonb)', [site, collection, item._id, JSON.stringify(canonicaliseDates(item))]);
    for (const item of ITEMS) await insert(SITE, COLLECTION, item);
    // Neighbours that must never show up: same collection on another site, another collection on this site.
    for (const item of ITEMS.slice(0, 5)) {
      await insert('site-2', COLLECTION, { ...item, title: 'intruder' });
      await insert(SITE, 'other', { ...item, title: 'intruder' });
    }
  });

  afterAll(async () => {
    await db.close();
  });

  async function fetchPage(plan: PagePlan): Promise<Page> {
    const { rows } = await db.query<PageRow>(plan.sql.sql, plan.sql.params);
    if (plan.countSql === undefined) return readPage(plan, rows);
    const counted = await db.query<{ total: number }>(plan.countSql.sql, plan.countSql.params);
    return readPage(plan, rows, counted.rows[0]?.total);
  }

  const query = (request: Record<string, unknown>, total = false) =>
    fetchPage(compileQuery(SITE, COLLECTION, request, { returnTotalCount: total }));

  const matching = async (filter: unknown) => idsOf(await query({ filter, paging: { limit: 1000 } }));

  describe('filters', () => {
    it.each<[string, unknown, string[]]>([
      ['equality to a string', { category: 'fruit' }, ['i01', 'i03', 'i06', 'i08', 'i09', 'i10', 'i12', 'i14', 'i17', 'i20']],
      ['equality to a number, not to its text', { price: 3 }, ['i01', 'i08', 'i14', 'i15']],
      ['equality to a string of digits', { price: '7' }, ['i05']],
      ['equality to a boolean', { active: false }, ['i02', 'i12']],
      ['$gt over numbers only', { price: { $gt: 5 } }, ['i02', 'i04', 'i10', 'i11', 'i13', 'i17', 'i19']],
      ['a range', { price: { $gte: 4, $lt: 6 } }, ['i02', 'i09', 'i16', 'i18']],
      ['$lte not matching null or missing', { price: { $lte: 1 } }, ['i03', 'i20']],
      ['$gt over strings only', { category: { $gt: 'drinks' } }, ['i01', 'i02', 'i03', 'i06', 'i08', 'i09', 'i10', 'i12', 'i14', 'i17', 'i20']],
      ['$lte over strings only, not null', { category: { $lte: 'berry' } }, ['i04', 'i05', 'i07', 'i11', 'i13', 'i19']],
      ['$lt over strings, digits first', { title: { $lt: 'B' } }, ['i01', 'i18']],
      ['$gte over numbers only, not booleans', { active: { $gte: 0 } }, []],
      ['$ne including missing and null', { price: { $ne: 3 } }, except('i01', 'i08', 'i14', 'i15')],
      ['$ne true including missing', { active: { $ne: true } }, except('i01', 'i03', 'i04')],
      ['null meaning missing or null', { price: null }, ['i06', 'i07']],
      ['$ne null', { price: { $ne: null } }, except('i06', 'i07')],
      ['$isEmpty', { tags: { $isEmpty: true } }, ['i06', 'i07', 'i15', 'i17', 'i20']],
      ['$isEmpty false', { tags: { $isEmpty: false } }, except('i06', 'i07', 'i15', 'i17', 'i20')],
      ['$exists, null counting as present', { tags: { $exists: true } }, except('i07', 'i15', 'i17', 'i20')],
      ['$exists false', { tags: { $exists: false } }, ['i07', 'i15', 'i17', 'i20']],
      ['$in over scalars', { price: { $in: [3, 7] } }, ['i01', 'i08', 'i11', 'i14', 'i15']],
      ['$hasSome over arrays and scalars', { tags: { $hasSome: ['orange', 'yellow'] } }, ['i02', 'i03', 'i13', 'i14', 'i16', 'i18']],
      ['$hasAll', { tags: { $hasAll: ['red', 'small'] } }, ['i19']],
      ['$hasAll of one value', { tags: { $hasAll: ['sweet'] } }, ['i01', 'i02', 'i04']],
      ['$hasAll of nothing', { tags: { $hasAll: [] } }, ALL],
      ['$hasSome of nothing', { tags: { $hasSome: [] } }, []],
      ['$contains, case-insensitive', { title: { $contains: 'BERRY' } }, ['i04', 'i07', 'i19']],
      ['$contains "%" literally', { title: { $contains: '%' } }, ['i04', 'i18']],
      ['$contains "_" literally', { title: { $contains: '_' } }, ['i05']],
      ['$contains a quote', { title: { $contains: "'s p" } }, ['i11']],
      ['$contains on strings only', { price: { $contains: '7' } }, ['i05']],
      ['$startsWith', { title: { $startsWith: 'AP' } }, ['i01', 'i02']],
      ['$endsWith', { title: { $endsWith: 'PIE' } }, ['i05', 'i11']],
      ['dates after a date-only bound', { released: { $gt: at('2024-01-01') } }, ['i01', 'i02', 'i08', 'i17']],
      ['dates before a bound with an offset', { released: { $lt: at('2024-01-01T01:00:00+01:00') } }, ['i03']],
      ['a date equal across notations', { released: at('2024-03-01T01:00:00+01:00') }, ['i02']],
      ['dates between', { released: { $gte: at('2024-01-01T00:00:00Z'), $lt: at('2024-06-15T12:00:00Z') } }, ['i01', 'i02']],
      ['a dotted path', { 'dims.w': { $gt: 1 } }, ['i01', 'i02']],
      ['$and', { $and: [{ category: 'fruit' }, { price: { $gt: 3 } }] }, ['i09', 'i10', 'i17']],
      ['$or', { $or: [{ category: 'drinks' }, { price: { $gte: 10 } }] }, ['i04', 'i16', 'i18', 'i19']],
      ['$not, array form, including null and missing', { $and: [{}, { $not: [{ category: 'fruit' }] }] }, ['i02', 'i04', 'i05', 'i07', 'i11', 'i13', 'i15', 'i16', 'i18', 'i19']],
      ['$not, object form', { $not: { price: { $gt: 3 } } }, ['i01', 'i03', 'i05', 'i06', 'i07', 'i08', 'i12', 'i14', 'i15', 'i20']],
      ['double negation', { $not: [{ $not: [{ price: 3 }] }] }, ['i01', 'i08', 'i14', 'i15']],
      ['a field with $or', { category: 'berry', $or: [{ price: { $lt: 11 } }, { tags: { $hasSome: ['blue'] } }] }, ['i04', 'i19']],
      ['an empty filter', {}, ALL],
      ['an empty $or', { $or: [] }, []],
      ['an injected value', { title: "x'); DROP TABLE data_items; --" }, []],
      ['a missing nested path', { 'dims.w.deeper': 1 }, []],
    ])('%s', async (_name, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it('still has its table after the injection attempts', async () => {
      const count = compileCount(SITE, COLLECTION, {});
      expect((await db.query<{ total: number }>(count.sql, count.params)).rows).toEqual([{ total: 20 }]);
    });

    it('counts the filtered items of this site and collection only', async () => {
      const count = compileCount(SITE, COLLECTION, { category: 'fruit' });
      expect((await db.query<{ total: number }>(count.sql, count.params)).rows).toEqual([{ total: 10 }]);
    });
  });

  describe('equality prefilters', () => {
    // Raw JSON, so that 5.0 keeps its scale: values a prefilter lets through and the equality refuses.
    const RAW: [string, string][] = [
      ['n1', '{"v": 5.0}'],
      ['n2', '{"v": 5}'],
      ['n3', '{"v": [5]}'],
      ['n4', '{"v": "5"}'],
      ['n5', '{"v": true}'],
      ['n6', '{"v": ["true"]}'],
      ['n7', '{"v": "true"}'],
      ['n8', '{"v": "x", "a": {"b": "x"}}'],
      ['n9', '{"v": ["x"], "a": {"b": ["x"]}}'],
      ['n10', '{"v": {"$date": "2024-01-01T00:00:00.000Z"}, "a": "x"}'],
      ['n11', '{"v": {"$date": "2024-01-01T00:00:00.000Z", "more": 1}}'],
    ];
    beforeAll(async () => {
      for (const [id, json] of RAW) {
        await db.query(`INSERT INTO data_items VALUES ($1, 'prefilter', $2, jsonb_set($3::jsonb, '{_id}', to_jsonb($2::text)))`, [SITE, id, json]);
      }
    });
    const ids = async (filter: unknown) => idsOf(await fetchPage(compileQuery(SITE, 'prefilter', { filter, paging: { limit: 100 } })));

    it.each<[string, unknown, string[]]>([
      ['a number, whatever its scale, not in an array nor as text', { v: 5 }, ['n1', 'n2']],
      ['a string of digits, not the number', { v: '5' }, ['n4']],
      ['a boolean, not its text', { v: true }, ['n5']],
      ['the text of a boolean, not the boolean', { v: 'true' }, ['n7']],
      ['a string, not an array holding it', { v: 'x' }, ['n8']],
      ['a nested string, not an array holding it', { 'a.b': 'x' }, ['n8']],
      ['a date, not an object holding more', { v: at('2024-01-01T01:00:00+01:00') }, ['n10']],
      ['$eq beside another operator', { v: { $eq: 5, $gt: 4 } }, ['n1', 'n2']],
      ['equalities inside $and', { $and: [{ v: 5 }, { $and: [{ v: { $eq: 5.0 } }] }] }, ['n1', 'n2']],
      ['no prefilter inside $or', { $or: [{ v: 'x' }, { v: 5 }] }, ['n1', 'n2', 'n8']],
      ['no prefilter under $not', { $not: { v: 5 } }, ['n10', 'n11', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9']],
    ])('%s', async (_name, filter, expected) => {
      expect(await ids(filter)).toEqual(expected);
    });

    it('puts the prefilters before the filter, for strings by their text and otherwise by containment', () => {
      const { sql, params } = compileQuery(SITE, 'prefilter', { filter: { 'a.b': 'x', v: { $gt: 1 }, n: 5 } }).sql;
      expect(sql).toContain(`collection_id = $2 AND COALESCE(data->'a'->>'b' = $6, FALSE) AND COALESCE(data @> $7::jsonb, FALSE) AND (data->'a'->'b' = $3::jsonb AND`);
      expect(params.slice(5, 7)).toEqual(['x', '{"n":5}']);
    });
  });

  describe('sorting and paging', () => {
    it('orders by jsonb with JSON null first, missing last and item_id breaking ties', async () => {
      const ascending = ['i06', 'i05', 'i20', 'i03', 'i12', 'i01', 'i08', 'i14', 'i15', 'i09', 'i18', 'i16', 'i02', 'i13', 'i11', 'i17', 'i10', 'i19', 'i04', 'i07'];
      expect(idsOf(await query({ sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 100 } }))).toEqual(ascending);
      expect(idsOf(await query({ sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 100 } }))).toEqual([...ascending].reverse());
    });

    it('orders dates in time order', async () => {
      const page = await query({ filter: { released: { $exists: true } }, sort: [{ fieldName: 'released', order: 'DESC' }] });
      expect(idsOf(page)).toEqual(['i17', 'i08', 'i02', 'i01', 'i03']);
    });

    it('projects the fields asked for, keeping _id', async () => {
      const page = await query({ filter: { _id: { $in: ['i01', 'i07'] } }, fields: ['title', 'dims.w'] });
      expect(page.items).toEqual([
        { _id: 'i01', title: 'Apple', dims: { w: 7 } },
        { _id: 'i07', title: 'Elderberry' },
      ]);
    });

    it('reports offset paging with the total', async () => {
      const page = await query({ sort: [{ fieldName: 'title' }], paging: { limit: 5, offset: 15 } }, true);
      expect(page.pagingMetadata).toMatchObject({ count: 5, offset: 15, total: 20, tooManyToCount: false, hasNext: false });
      expect(page.pagingMetadata.cursors.next).toBeUndefined();
      expect(page.pagingMetadata.cursors.prev).toBeDefined();
    });

    async function offsetPages(request: Record<string, unknown>, limit: number): Promise<string[][]> {
      const pages: string[][] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await query({ ...request, paging: { limit, offset } });
        pages.push(idsOf(page));
        if (!page.pagingMetadata.hasNext) return pages;
      }
    }

    async function cursorWalk(request: Record<string, unknown>, limit: number) {
      let page = await query({ ...request, paging: { limit } }, true);
      const { total } = page.pagingMetadata;
      const forward = [idsOf(page)];
      const offsets = [page.pagingMetadata.offset];
      for (let guard = 0; page.pagingMetadata.cursors.next !== undefined && guard < 50; guard += 1) {
        page = await query({ cursorPaging: { limit, cursor: page.pagingMetadata.cursors.next } });
        forward.push(idsOf(page));
        offsets.push(page.pagingMetadata.offset);
        expect(page.pagingMetadata.total).toBe(total);
      }
      expect(forward.flat()).toHaveLength(total ?? -1);
      expect(page.pagingMetadata.hasNext).toBe(false);
      const backward = [idsOf(page)];
      for (let guard = 0; page.pagingMetadata.cursors.prev !== undefined && guard < 50; guard += 1) {
        page = await query({ cursorPaging: { cursor: page.pagingMetadata.cursors.prev } });
        backward.unshift(idsOf(page));
        expect(page.pagingMetadata.hasNext).toBe(true);
      }
      return { forward, backward, offsets, firstOffset: page.pagingMetadata.offset };
    }

    it.each<[string, Record<string, unknown>, number]>([
      ['unsorted', {}, 7],
      ['by price ascending, across null, strings and missing', { sort: [{ fieldName: 'price', order: 'ASC' }] }, 7],
      ['by price ascending, three at a time', { sort: [{ fieldName: 'price', order: 'ASC' }] }, 3],
      ['by price descending', { sort: [{ fieldName: 'price', order: 'DESC' }] }, 7],
      ['by category then price descending', { sort: [{ fieldName: 'category' }, { fieldName: 'price', order: 'DESC' }] }, 7],
      ['by title descending, one title missing', { sort: [{ fieldName: 'title', order: 'DESC' }] }, 7],
      ['by a mostly missing nested field', { sort: [{ fieldName: 'dims.w' }] }, 3],
      ['by a mostly missing date, descending, two at a time', { sort: [{ fieldName: 'released', order: 'DESC' }] }, 2],
      ['by tags then created date', { sort: [{ fieldName: 'tags', order: 'DESC' }, { fieldName: '_createdDate' }] }, 4],
      ['filtered, by price', { filter: { price: { $ne: 4 } }, sort: [{ fieldName: 'price' }] }, 7],
    ])('pages by cursor exactly as by offset, both ways: %s', async (_name, request, limit) => {
      const reference = await offsetPages(request, limit);
      const walk = await cursorWalk(request, limit);
      expect(walk.forward).toEqual(reference);
      expect(walk.backward).toEqual(reference);
      expect(walk.offsets).toEqual(reference.map((_, index) => index * limit));
      expect(walk.firstOffset).toBe(0);
      expect(reference.flat()).toHaveLength(new Set(reference.flat()).size);
    });

    it('walks three pages of seven forward and back with the total on each', async () => {
      const first = await query({ sort: [{ fieldName: 'price' }], paging: { limit: 7 } }, true);
      const second = await query({ cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
      const third = await query({ cursorPaging: { cursor: second.pagingMetadata.cursors.next } });
      expect([first, second, third].map((page) => page.pagingMetadata.count)).toEqual([7, 7, 6]);
      expect([first, second, third].map((page) => page.pagingMetadata.total)).toEqual([20, 20, 20]);
      expect([first, second, third].map((page) => page.pagingMetadata.hasNext)).toEqual([true, true, false]);
      const back = await query({ cursorPaging: { cursor: third.pagingMetadata.cursors.prev } });
      expect(idsOf(back)).toEqual(idsOf(second));
    });

    it('runs a tampered cursor position as plain values', async () => {
      const evil = "M'); DROP TABLE data_items; --";
      const cursor = cursorFor({ collectionId: COLLECTION, request: { sort: [{ fieldName: 'title' }] }, position: [[evil], [evil]], limit: 100 });
      const page = await query({ cursorPaging: { cursor } });
      expect(idsOf(page)).toEqual(['i14', 'i15', 'i11', 'i16', 'i17', 'i19', 'i02', 'i08', 'i12', 'i20']);
      expect((await matching({})).length).toBe(20);
    });
  });

  describe('aggregate', () => {
    const operations = [
      { resultFieldName: 'total', sum: { itemFieldName: 'price' } },
      { resultFieldName: 'mean', average: { itemFieldName: 'price' } },
      { resultFieldName: 'least', min: { itemFieldName: 'price' } },
      { resultFieldName: 'most', max: { itemFieldName: 'price' } },
      { resultFieldName: 'count', itemCount: {} },
    ];
    const aggregate = (request: Record<string, unknown>) => fetchPage(compileAggregate(SITE, COLLECTION, request));

    it('sums, averages and bounds the numbers of each group, skipping non-numbers', async () => {
      const page = await aggregate({ aggregation: { groupingFields: ['category'], operations }, sort: [{ fieldName: 'category' }] });
      expect(page.items).toEqual([
        { _id: { category: null }, category: null, total: 3, mean: 3, least: 3, most: 3, count: 1 },
        { _id: { category: 'bakery' }, category: 'bakery', total: 13, mean: 6.5, least: 6, most: 7, count: 3 },
        { _id: { category: 'berry' }, category: 'berry', total: 22, mean: 11, least: 10, most: 12, count: 3 },
        { _id: { category: 'drinks' }, category: 'drinks', total: 8.5, mean: 4.25, least: 4, most: 4.5, count: 2 },
        { _id: { category: 'fruit' }, category: 'fruit', total: 33.99, mean: expect.closeTo(33.99 / 9, 10), least: 0, most: 9.99, count: 10 },
        { _id: { category: 'pantry' }, category: 'pantry', total: 5.5, mean: 5.5, least: 5.5, most: 5.5, count: 1 },
      ]);
    });

    it('filters and sorts the groups, then pages them by cursor with a total', async () => {
      const request = {
        aggregation: { groupingFields: ['category'], operations },
        finalFilter: { count: { $gt: 1 } },
        sort: [{ fieldName: 'total', order: 'DESC' }],
        paging: { limit: 2 },
        returnTotalCount: true,
      };
      const first = await aggregate(request);
      expect(first.items.map((result) => isPlainObject(result) && result.category)).toEqual(['fruit', 'berry']);
      expect(first.pagingMetadata).toMatchObject({ count: 2, total: 4, hasNext: true });
      const second = await aggregate({ cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
      expect(second.items.map((result) => isPlainObject(result) && result.total)).toEqual([13, 8.5]);
      expect(second.pagingMetadata).toMatchObject({ count: 2, offset: 2, total: 4, hasNext: false });
      const back = await aggregate({ cursorPaging: { cursor: second.pagingMetadata.cursors.prev } });
      expect(back.items).toEqual(first.items);
    });

    it('aggregates everything into one group, after an initial filter', async () => {
      const all = await aggregate({ aggregation: { operations } });
      expect(all.items).toEqual([{ _id: null, total: 85.99, mean: expect.closeTo(85.99 / 17, 10), least: 0, most: 12, count: 20 }]);
      const active = await aggregate({ initialFilter: { active: true }, aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] } });
      expect(active.items).toEqual([{ _id: null, n: 3 }]);
    });

    it('groups by several fields into an object _id', async () => {
      const page = await aggregate({
        initialFilter: { category: 'fruit', price: 3 },
        aggregation: { groupingFields: ['category', 'price'], operations: [{ resultFieldName: 'n', itemCount: {} }] },
      });
      expect(page.items).toEqual([{ _id: { category: 'fruit', price: 3 }, category: 'fruit', price: 3, n: 3 }]);
    });
  });

  describe('distinct', () => {
    const distinct = (request: Record<string, unknown>) => fetchPage(compileDistinct(SITE, COLLECTION, request));

    it('lists present values once, in order, with the total', async () => {
      const page = await distinct({ fieldName: 'category', returnTotalCount: true });
      expect(page.items).toEqual(['bakery', 'berry', 'drinks', 'fruit', 'pantry']);
      expect(page.pagingMetadata).toMatchObject({ count: 5, total: 5, hasNext: false });
      expect((await distinct({ fieldName: 'category', order: 'DESC', filter: { price: { $lt: 5 } } })).items).toEqual(['fruit', 'drinks']);
    });

    it('pages by offset and by cursor alike', async () => {
      const first = await distinct({ fieldName: 'category', paging: { limit: 2 } });
      const second = await distinct({ cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
      const third = await distinct({ cursorPaging: { cursor: second.pagingMetadata.cursors.next } });
      expect([first.items, second.items, third.items]).toEqual([['bakery', 'berry'], ['drinks', 'fruit'], ['pantry']]);
      expect((await distinct({ fieldName: 'category', paging: { limit: 2, offset: 2 } })).items).toEqual(second.items);
      expect(third.pagingMetadata).toMatchObject({ hasNext: false, offset: 4 });
      const back = await distinct({ cursorPaging: { cursor: third.pagingMetadata.cursors.prev } });
      expect(back.items).toEqual(second.items);
    });

    it('keeps numbers and dates as values', async () => {
      expect((await distinct({ fieldName: 'price', filter: { category: 'drinks' } })).items).toEqual([4, 4.5]);
      expect((await distinct({ fieldName: 'released', paging: { limit: 1 } })).items).toEqual([at('2023-12-31T23:59:59.000Z')]);
    });
  });

  describe('indexes built from fieldExpr and SEARCH_VECTOR', () => {
    beforeAll(async () => {
      await db.query(
        `INSERT INTO data_items SELECT $1, 'bulk', 'b' || lpad(n::text, 6, '0'),
           jsonb_build_object('_id', 'b' || lpad(n::text, 6, '0'), 'price', n % 500, 'title', 'item ' || n)
         FROM generate_series(1, 20000) AS n`,
        [SITE],
      );
      await db.exec(`CREATE INDEX bulk_price ON data_items (site_id, collection_id, (${fieldExpr('price')}), item_id)`);
      await db.exec(`CREATE INDEX bulk_search ON data_items USING gin ((${SEARCH_VECTOR}))`);
      await db.exec('ANALYZE data_items');
    });

    const explain = async ({ sql, params }: SqlQuery) =>
      (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((row) => row['QUERY PLAN']).join('\n');
    const deepCursor = (order: 'ASC' | 'DESC', price: number) =>
      cursorFor({ collectionId: 'bulk', request: { sort: [{ fieldName: 'price', order }] }, limit: 50, position: [[price], ['b010000']], offset: 10000 });

    it('filters on the index', async () => {
      const plan = await explain(compileQuery(SITE, 'bulk', { filter: { price: { $gt: 450 } }, sort: [{ fieldName: 'price' }] }).sql);
      expect(plan).toMatch(/Index Scan using bulk_price/);
      expect(plan).not.toMatch(/Seq Scan|Sort Method|^\s*->\s+Sort/m);
    });

    it('starts a deep ascending page inside the index, missing values as a second index run', async () => {
      const plan = await explain(compileQuery(SITE, 'bulk', { cursorPaging: { cursor: deepCursor('ASC', 400) } }).sql);
      expect(plan).toMatch(/Merge Append/);
      expect(plan.match(/Index Scan using bulk_price/g)).toHaveLength(2);
      expect(plan).toMatch(/Index Cond: .*\(data -> 'price'::text\) >= /);
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it('starts a deep descending page inside the index, read backwards', async () => {
      const plan = await explain(compileQuery(SITE, 'bulk', { cursorPaging: { cursor: deepCursor('DESC', 100) } }).sql);
      expect(plan).toMatch(/Index Scan Backward using bulk_price/);
      expect(plan).toMatch(/Index Cond: .*\(data -> 'price'::text\) <= /);
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it('searches through the text-search index', async () => {
      const plan = await explain(compileSearch(SITE, 'bulk', { search: { expression: '4999' } }).sql);
      expect(plan).toMatch(/Bitmap Index Scan on bulk_search/);
    });

    it('returns the same deep page as OFFSET would', async () => {
      const sorted = { sort: [{ fieldName: 'price' }] };
      const before = must((await fetchPage(compileQuery(SITE, 'bulk', { ...sorted, paging: { limit: 1, offset: 9999 } }))).pagingMetadata.cursors.next);
      const byCursor = await fetchPage(compileQuery(SITE, 'bulk', { cursorPaging: { limit: 50, cursor: before } }));
      const byOffset = await fetchPage(compileQuery(SITE, 'bulk', { ...sorted, paging: { limit: 50, offset: 10000 } }));
      expect(idsOf(byCursor)).toHaveLength(50);
      expect(idsOf(byCursor)).toEqual(idsOf(byOffset));
    });
  });

  describe('search', () => {
    const search = (text: Record<string, unknown>, request: Record<string, unknown> = {}) =>
      fetchPage(compileSearch(SITE, COLLECTION, { ...request, search: text }));

    it.each<[string, Record<string, unknown>, string[]]>([
      ['any word in OR mode', { expression: 'Orange juice', mode: 'OR' }, ['i02', 'i14', 'i16', 'i18']],
      ['every word in AND mode', { expression: 'orange JUICE', mode: 'AND' }, ['i16', 'i18']],
      ['whole words unless fuzzy', { expression: 'ber' }, []],
      ['word prefixes when fuzzy', { expression: 'ber', fuzzy: true }, ['i04', 'i07', 'i19']],
      ['several prefixes in AND mode', { expression: 'rasp sma', fuzzy: true, mode: 'AND' }, ['i19']],
      ['words split at punctuation', { expression: 'pie' }, ['i05', 'i11']],
      ['tsquery syntax as words', { expression: "pie & ! | :* ( ' \\" }, ['i05', 'i11']],
      ['nothing to match', { expression: '' }, ALL],
    ])('finds %s', async (_name, text, expected) => {
      expect(idsOf(await search(text, { paging: { limit: 100 } }))).toEqual(expected);
    });

    it('combines with a filter, a sort and cursor paging', async () => {
      const first = await search({ expression: 'red sweet' }, { filter: { category: { $ne: 'pantry' } }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 2 } });
      expect(idsOf(first)).toEqual(['i04', 'i19']);
      const second = await search({}, { cursorPaging: { cursor: first.pagingMetadata.cursors.next } });
      expect(idsOf(second)).toEqual(['i09', 'i01']);
      const third = await search({}, { cursorPaging: { cursor: second.pagingMetadata.cursors.next } });
      expect(idsOf(third)).toEqual(['i05']);
      expect(third.pagingMetadata.hasNext).toBe(false);
    });
  });
});
