import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Buffer } from 'node:buffer';
import { PGlite } from '@electric-sql/pglite';
import {
  QueryError,
  compileAggregate,
  compileCount,
  compileDistinct,
  compileFilter,
  compileQuery,
  compileSearch,
  decodeCursor,
  encodeCursor,
  fieldExpr,
  fieldTextExpr,
  readPage,
  SEARCH_VECTOR,
  type CursorState,
  type Page,
  type PagePlan,
  type PageRow,
  type SqlQuery,
} from './query-compiler.js';
import { canonicaliseDates, isPlainObject, type JsonObject } from './wire-values.js';

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error.code;
    throw error;
  }
  return 'no error';
}

function filterSql(filter: unknown): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  return { sql: compileFilter(filter, params), params };
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

const cursorFor = (state: Partial<CursorState>): string =>
  encodeCursor({
    v: 1,
    kind: 'items',
    collectionId: 'coll',
    request: {},
    limit: 2,
    total: false,
    direction: 'next',
    position: [['i01']],
    offset: 2,
    ...state,
  });

describe('fieldExpr', () => {
  it.each([
    ['title', `data->'title'`, `data->>'title'`],
    ['_createdDate', `data->'_createdDate'`, `data->>'_createdDate'`],
    ['a.b', `data->'a'->'b'`, `data->'a'->>'b'`],
    ['address.city.name', `data->'address'->'city'->'name'`, `data->'address'->'city'->>'name'`],
    ['with space-and-dash', `data->'with space-and-dash'`, `data->>'with space-and-dash'`],
    ['price$usd', `data->'price$usd'`, `data->>'price$usd'`],
    ['0', `data->'0'`, `data->>'0'`],
  ])('writes %s as %s', (path, json, text) => {
    expect(fieldExpr(path)).toBe(json);
    expect(fieldTextExpr(path)).toBe(text);
  });

  it.each([
    ["a'); DROP TABLE x; --"],
    ["a'"],
    ['a->>b'],
    ['a->b'],
    ['a\u2019b'], // right single quotation mark
    ['\u02bca'], // modifier letter apostrophe
    ['ａ'], // fullwidth letter
    ['a"b'],
    ['a\\b'],
    ['a;b'],
    ['a\nb'],
    [''],
    ['a..b'],
    ['.a'],
    ['a.'],
    [' a'],
    ['$where'],
    ['-a'],
    ['x'.repeat(129)],
    [Array.from({ length: 17 }, () => 'a').join('.')],
  ])('refuses the field name %j', (path) => {
    expect(errorCode(() => fieldExpr(path))).toBe('WDE0048');
    if (!path.startsWith('$')) expect(errorCode(() => compileFilter({ [path]: 1 }, []))).toBe('WDE0048');
    expect(errorCode(() => compileQuery('s', 'c', { sort: [{ fieldName: path }] }))).toBe('WDE0048');
    expect(errorCode(() => compileQuery('s', 'c', { fields: [path] }))).toBe('WDE0048');
  });

  it('accepts a segment of exactly 128 characters and 16 segments', () => {
    expect(fieldExpr('x'.repeat(128))).toBe(`data->'${'x'.repeat(128)}'`);
    expect(errorCode(() => fieldExpr(Array.from({ length: 16 }, () => 'a').join('.')))).toBe('no error');
  });
});

describe('compileFilter', () => {
  const date = { $date: '2024-05-01T10:00:00.000Z' };
  const dateJson = '{"$date":"2024-05-01T10:00:00.000Z"}';

  it.each<[string, unknown, string, unknown[]]>([
    ['implicit equality', { title: 'A' }, `data->'title' = $1::jsonb`, ['"A"']],
    ['$eq', { title: { $eq: 'A' } }, `data->'title' = $1::jsonb`, ['"A"']],
    ['a number', { price: 5 }, `data->'price' = $1::jsonb`, ['5']],
    ['a boolean', { active: false }, `data->'active' = $1::jsonb`, ['false']],
    ['a date', { when: date }, `data->'when' = $1::jsonb`, [dateJson]],
    ['a date in another zone', { when: { $date: '2024-05-01T12:00:00+02:00' } }, `data->'when' = $1::jsonb`, [dateJson]],
    ['null (isEmpty)', { title: null }, `(data->'title' IS NULL OR data->'title' = 'null'::jsonb)`, []],
    ['$eq null', { title: { $eq: null } }, `(data->'title' IS NULL OR data->'title' = 'null'::jsonb)`, []],
    ['$ne', { title: { $ne: 'A' } }, `data->'title' IS DISTINCT FROM $1::jsonb`, ['"A"']],
    ['$ne null (isNotEmpty)', { title: { $ne: null } }, `(data->'title' IS NOT NULL AND data->'title' <> 'null'::jsonb)`, []],
    ['$gt a number', { price: { $gt: 5 } }, `(data->'price' > $1::jsonb AND data->'price' < 'false'::jsonb)`, ['5']],
    ['$gte a number', { price: { $gte: 5 } }, `(data->'price' >= $1::jsonb AND data->'price' < 'false'::jsonb)`, ['5']],
    ['$lt a number', { price: { $lt: 5 } }, `(data->'price' < $1::jsonb AND jsonb_typeof(data->'price') = 'number')`, ['5']],
    ['$gt a string', { title: { $gt: 'M' } }, `(data->'title' > $1::jsonb AND jsonb_typeof(data->'title') = 'string')`, ['"M"']],
    ['$lt a string', { title: { $lt: 'M' } }, `(data->'title' < $1::jsonb AND data->'title' >= '""'::jsonb)`, ['"M"']],
    ['$lte a date', { when: { $lte: date } }, `(data->'when' <= $1::jsonb AND data->'when' >= '{"$date": ""}'::jsonb)`, [dateJson]],
    ['$gt a date', { when: { $gt: date } }, `(data->'when' > $1::jsonb AND data->'when' < '{"$date": 0}'::jsonb)`, [dateJson]],
    ['$in', { price: { $in: [1, 2] } }, `data->'price' IN ($1::jsonb, $2::jsonb)`, ['1', '2']],
    ['$in with no values', { price: { $in: [] } }, 'FALSE', []],
    [
      '$hasSome',
      { tags: { $hasSome: ['x', 'y'] } },
      `(data->'tags' IN ($1::jsonb, $2::jsonb) OR data->'tags' @> jsonb_build_array($1::jsonb) OR data->'tags' @> jsonb_build_array($2::jsonb))`,
      ['"x"', '"y"'],
    ],
    ['$hasSome with no values', { tags: { $hasSome: [] } }, 'FALSE', []],
    ['$hasAll', { tags: { $hasAll: ['x', 1, date] } }, `data->'tags' @> $1::jsonb`, [`["x",1,${dateJson}]`]],
    ['$hasAll with no values', { tags: { $hasAll: [] } }, 'TRUE', []],
    ['$contains', { title: { $contains: 'ab' } }, String.raw`(jsonb_typeof(data->'title') = 'string' AND data->>'title' ILIKE $1 ESCAPE '\')`, ['%ab%']],
    ['$startsWith', { title: { $startsWith: 'ab' } }, String.raw`(jsonb_typeof(data->'title') = 'string' AND data->>'title' ILIKE $1 ESCAPE '\')`, ['ab%']],
    ['$endsWith', { title: { $endsWith: 'ab' } }, String.raw`(jsonb_typeof(data->'title') = 'string' AND data->>'title' ILIKE $1 ESCAPE '\')`, ['%ab']],
    ['LIKE wildcards as text', { title: { $contains: String.raw`5%_a\b` } }, String.raw`(jsonb_typeof(data->'title') = 'string' AND data->>'title' ILIKE $1 ESCAPE '\')`, [String.raw`%5\%\_a\\b%`]],
    ['$exists true', { title: { $exists: true } }, `data->'title' IS NOT NULL`, []],
    ['$exists false', { title: { $exists: false } }, `data->'title' IS NULL`, []],
    ['$isEmpty true', { title: { $isEmpty: true } }, `(data->'title' IS NULL OR data->'title' = 'null'::jsonb)`, []],
    ['$isEmpty false', { title: { $isEmpty: false } }, `(data->'title' IS NOT NULL AND data->'title' <> 'null'::jsonb)`, []],
    ['a dotted path', { 'a.b.c': 1 }, `data->'a'->'b'->'c' = $1::jsonb`, ['1']],
    ['$contains on a dotted path', { 'a.b': { $contains: 'x' } }, String.raw`(jsonb_typeof(data->'a'->'b') = 'string' AND data->'a'->>'b' ILIKE $1 ESCAPE '\')`, ['%x%']],
    [
      'several operators on one field',
      { price: { $gt: 1, $lt: 5 } },
      `((data->'price' > $1::jsonb AND data->'price' < 'false'::jsonb) AND (data->'price' < $2::jsonb AND jsonb_typeof(data->'price') = 'number'))`,
      ['1', '5'],
    ],
    ['several fields', { a: 1, b: 2 }, `(data->'a' = $1::jsonb AND data->'b' = $2::jsonb)`, ['1', '2']],
    ['$and', { $and: [{ a: 1 }, { b: 2 }] }, `(data->'a' = $1::jsonb AND data->'b' = $2::jsonb)`, ['1', '2']],
    ['$or', { $or: [{ a: 1 }, { b: 2 }] }, `(data->'a' = $1::jsonb OR data->'b' = $2::jsonb)`, ['1', '2']],
    ['$not, array form', { $not: [{ a: 1 }] }, `NOT COALESCE(data->'a' = $1::jsonb, FALSE)`, ['1']],
    ['$not, object form', { $not: { a: 1 } }, `NOT COALESCE(data->'a' = $1::jsonb, FALSE)`, ['1']],
    ['$not of several', { $not: [{ a: 1 }, { b: 2 }] }, `NOT COALESCE((data->'a' = $1::jsonb AND data->'b' = $2::jsonb), FALSE)`, ['1', '2']],
    ['the SDK not() first: $and with {}', { $and: [{}, { $not: [{ b: 2 }] }] }, `NOT COALESCE(data->'b' = $1::jsonb, FALSE)`, ['2']],
    ['the SDK eq().not()', { $and: [{ a: 1 }, { $not: [{ b: 2 }] }] }, `(data->'a' = $1::jsonb AND NOT COALESCE(data->'b' = $2::jsonb, FALSE))`, ['1', '2']],
    ['double negation', { $not: [{ $not: [{ a: 1 }] }] }, `NOT COALESCE(NOT COALESCE(data->'a' = $1::jsonb, FALSE), FALSE)`, ['1']],
    ['nesting', { $or: [{ $and: [{ a: 1 }, { b: 2 }] }, { c: 3 }] }, `((data->'a' = $1::jsonb AND data->'b' = $2::jsonb) OR data->'c' = $3::jsonb)`, ['1', '2', '3']],
    ['an empty filter', {}, 'TRUE', []],
    ['no filter', undefined, 'TRUE', []],
    ['a null filter', null, 'TRUE', []],
    ['$and of empties', { $and: [{}, {}] }, 'TRUE', []],
    ['an empty $and', { $and: [] }, 'TRUE', []],
    ['an empty $or', { $or: [] }, 'FALSE', []],
    ['$not of nothing', { $not: [{}] }, 'FALSE', []],
    ['$or with an empty member', { $or: [{}, { a: 1 }] }, `(TRUE OR data->'a' = $1::jsonb)`, ['1']],
    ['an $and with a never-matching member', { $and: [{ a: { $in: [] } }, { b: 1 }] }, `(FALSE AND data->'b' = $1::jsonb)`, ['1']],
  ])('compiles %s', (_name, filter, sql, params) => {
    expect(filterSql(filter)).toEqual({ sql, params });
  });

  it('appends to parameters already bound', () => {
    const params: unknown[] = ['site', 'coll'];
    expect(compileFilter({ title: 'A', price: { $gt: 1 } }, params)).toBe(
      `(data->'title' = $3::jsonb AND (data->'price' > $4::jsonb AND data->'price' < 'false'::jsonb))`,
    );
    expect(params).toEqual(['site', 'coll', '"A"', '1']);
  });

  it.each([
    ["a quote and a statement", "x'); DROP TABLE data_items; --"],
    ['a dollar-quoted body', '$$; DROP TABLE data_items; $$'],
    ['a tautology', "x' OR '1'='1"],
    ['a backslash escape', "\\'; --"],
  ])('keeps %s out of the SQL text', (_name, value) => {
    for (const filter of [{ title: value }, { title: { $contains: value } }, { tags: { $hasSome: [value] } }, { title: { $gt: value } }]) {
      const { sql, params } = filterSql(filter);
      expect(sql).not.toContain(value);
      expect(sql).not.toContain('DROP');
      expect(params.length).toBeGreaterThan(0);
    }
  });

  it.each<[string, unknown, string]>([
    ['a string filter', 'title', 'WDE0016'],
    ['an array filter', [{ a: 1 }], 'WDE0016'],
    ['a number inside $and', { $and: [1] }, 'WDE0016'],
    ['null inside $or', { $or: [null] }, 'WDE0016'],
    ['a string $not', { $not: 'a' }, 'WDE0016'],
    ['$and as an object', { $and: { a: 1 } }, 'WDE0057'],
    ['$or as a string', { $or: 'a' }, 'WDE0057'],
    ['$regex on a field', { title: { $regex: '^a' } }, 'WDE0070'],
    ['$regex at the top', { $regex: 'a' }, 'WDE0070'],
    ['$regex deep inside', { $or: [{ a: 1 }, { $not: [{ title: { $regex: 'a' } }] }] }, 'WDE0070'],
    ['an unknown field operator', { title: { $like: 'a' } }, 'WDE0901'],
    ['an unknown top-level operator', { $nor: [{ a: 1 }] }, 'WDE0901'],
    ['$where', { $where: 'true' }, 'WDE0901'],
    ['a prototype name as operator', { title: { $constructor: 1 } }, 'WDE0901'],
    ['an operator beside a plain key', { title: { $eq: 1, other: 2 } }, 'WDE0058'],
    ['an empty operand object', { title: {} }, 'WDE0058'],
    ['an object operand', { title: { a: 1 } }, 'WDE0058'],
    ['an array operand', { title: [1, 2] }, 'WDE0058'],
    ['an array for $eq', { title: { $eq: ['a'] } }, 'WDE0058'],
    ['an array for $ne', { title: { $ne: ['a'] } }, 'WDE0058'],
    ['a boolean for $gt', { price: { $gt: true } }, 'WDE0058'],
    ['null for $lt', { price: { $lt: null } }, 'WDE0058'],
    ['an object for $gte', { price: { $gte: { a: 1 } } }, 'WDE0058'],
    ['NaN', { price: Number.NaN }, 'WDE0058'],
    ['an invalid date', { when: { $date: 'not a date' } }, 'WDE0058'],
    ['an invalid date in a range', { when: { $gt: { $date: 'soon' } } }, 'WDE0058'],
    ['a numeric $date', { when: { $date: 1714557600000 } }, 'WDE0058'],
    ['a date with another key', { when: { $date: '2024-05-01', $gt: 1 } }, 'WDE0901'],
    ['a number for $contains', { title: { $contains: 5 } }, 'WDE0059'],
    ['null for $startsWith', { title: { $startsWith: null } }, 'WDE0059'],
    ['a list for $endsWith', { title: { $endsWith: ['a'] } }, 'WDE0059'],
    ['a string for $hasSome', { tags: { $hasSome: 'x' } }, 'WDE0057'],
    ['a string for $in', { tags: { $in: 'x' } }, 'WDE0057'],
    ['a nested list in $in', { tags: { $in: [[1]] } }, 'WDE0060'],
    ['null in $hasAll', { tags: { $hasAll: [null] } }, 'WDE0060'],
    ['an object in $hasSome', { tags: { $hasSome: [{ a: 1 }] } }, 'WDE0060'],
    ['a string for $exists', { title: { $exists: 'yes' } }, 'WDE0058'],
    ['a number for $isEmpty', { title: { $isEmpty: 1 } }, 'WDE0058'],
    ['a list of 1001 values', { price: { $in: Array.from({ length: 1001 }, (_, i) => i) } }, 'WDE0036'],
    ['a filter 40 levels deep', Array.from({ length: 40 }).reduce<unknown>((inner) => ({ $and: [inner] }), { a: 1 }), 'WDE0904'],
  ])('refuses %s', (_name, filter, code) => {
    expect(errorCode(() => compileFilter(filter, []))).toBe(code);
  });

  it('accepts 1000 listed values', () => {
    expect(filterSql({ price: { $in: Array.from({ length: 1000 }, (_, i) => i) } }).params).toHaveLength(1000);
  });

  it('carries a human description with the code', () => {
    try {
      compileFilter({ title: { $regex: 'a' } }, []);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(QueryError);
      expect(error).toMatchObject({ code: 'WDE0070', message: '$regex keyword is not allowed.', name: 'QueryError' });
    }
  });
});

describe('compileQuery', () => {
  const everything = `jsonb_build_array(jsonb_build_array(item_id))`;

  it('orders by item_id and fetches 51 rows when nothing is asked for', () => {
    const expected = {
      sql: `SELECT data AS item, ${everything} AS sort_keys FROM data_items WHERE site_id = $1 AND collection_id = $2 ORDER BY item_id ASC LIMIT $3`,
      params: ['site', 'coll', 51],
    };
    expect(compileQuery('site', 'coll', {}).sql).toEqual(expected);
    expect(compileQuery('site', 'coll', undefined).sql).toEqual(expected);
    expect(compileQuery('site', 'coll', { filter: {}, sort: [], fields: [] }).sql).toEqual(expected);
    expect(compileQuery('site', 'coll', {}).countSql).toBeUndefined();
  });

  it('compiles the request the SDK sends for a filtered, sorted, skipped and projected query', () => {
    const plan = compileQuery(
      'site',
      'Products',
      {
        fields: ['title', 'price'],
        paging: { limit: 10, offset: 20 },
        filter: { $and: [{ title: 'A' }, { price: { $gt: 5 } }, { tags: { $hasSome: ['x', 'y'] } }, { title: { $contains: 'A' } }] },
        sort: [
          { fieldName: 'title', order: 'ASC' },
          { fieldName: '_createdDate', order: 'DESC' },
        ],
      },
      { returnTotalCount: true },
    );
    const where =
      `site_id = $1 AND collection_id = $2 AND COALESCE(data->>'title' = $8, FALSE) AND (data->'title' = $3::jsonb AND ` +
      `(data->'price' > $4::jsonb AND data->'price' < 'false'::jsonb) AND ` +
      `(data->'tags' IN ($5::jsonb, $6::jsonb) OR data->'tags' @> jsonb_build_array($5::jsonb) OR data->'tags' @> jsonb_build_array($6::jsonb)) AND ` +
      String.raw`(jsonb_typeof(data->'title') = 'string' AND data->>'title' ILIKE $7 ESCAPE '\'))`;
    expect(plan.sql.sql).toBe(
      `SELECT data AS item, jsonb_build_array(` +
        `CASE WHEN data->'title' IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(data->'title') END, ` +
        `CASE WHEN data->'_createdDate' IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(data->'_createdDate') END, ` +
        `jsonb_build_array(item_id)) AS sort_keys FROM data_items WHERE ${where} ` +
        `ORDER BY data->'title' ASC, data->'_createdDate' DESC, item_id DESC LIMIT $9 OFFSET $10`,
    );
    expect(plan.sql.params).toEqual(['site', 'Products', '"A"', '5', '"x"', '"y"', '%A%', 'A', 11, 20]);
    expect(plan.countSql).toEqual({
      sql: `SELECT count(*)::int AS total FROM data_items WHERE ${where}`,
      params: ['site', 'Products', '"A"', '5', '"x"', '"y"', '%A%', 'A'],
    });
    expect(plan.state).toMatchObject({ limit: 10, offset: 20, fields: ['title', 'price'], direction: 'next', total: true });
  });

  it.each<[string, unknown, string]>([
    ['one key ascending', [{ fieldName: 'price' }], `data->'price' ASC, item_id ASC`],
    ['one key descending', [{ fieldName: 'price', order: 'DESC' }], `data->'price' DESC, item_id DESC`],
    ['lower-case orders', [{ fieldName: 'price', order: 'desc' }], `data->'price' DESC, item_id DESC`],
    ['mixed directions', [{ fieldName: 'a', order: 'DESC' }, { fieldName: 'b.c', order: 'ASC' }], `data->'a' DESC, data->'b'->'c' ASC, item_id ASC`],
  ])('sorts on %s with item_id last', (_name, sort, order) => {
    expect(compileQuery('s', 'c', { sort }).sql.sql).toContain(` ORDER BY ${order} LIMIT $3`);
  });

  it('takes limit and offset as parameters, numbers given as digits too', () => {
    expect(compileQuery('s', 'c', { paging: { limit: '20', offset: '40' } }).sql.params).toEqual(['s', 'c', 21, 40]);
    expect(compileQuery('s', 'c', { paging: { limit: 1000 } }).sql.params).toEqual(['s', 'c', 1001]);
    expect(compileQuery('s', 'c', { paging: { offset: 0 } }).sql.sql).not.toContain('OFFSET');
    expect(compileQuery('s', 'c', { cursorPaging: { limit: 5 } }).sql.params).toEqual(['s', 'c', 6]);
  });

  it.each<[string, unknown, string]>([
    ['a limit over 1000', { paging: { limit: 1001 } }, 'WDE0036'],
    ['a zero limit', { paging: { limit: 0 } }, 'WDE0033'],
    ['a negative limit', { paging: { limit: -1 } }, 'WDE0033'],
    ['a fractional limit', { paging: { limit: 1.5 } }, 'WDE0035'],
    ['a word for a limit', { paging: { limit: 'ten' } }, 'WDE0032'],
    ['a boolean limit', { paging: { limit: true } }, 'WDE0032'],
    ['a negative offset', { paging: { offset: -1 } }, 'WDE0034'],
    ['a fractional offset', { paging: { offset: 2.5 } }, 'WDE0035'],
    ['an unsafe offset', { paging: { offset: 2 ** 60 } }, 'WDE0035'],
    ['a limit over 1000 in cursor paging', { cursorPaging: { limit: 2000 } }, 'WDE0036'],
    ['paging beside cursor paging', { paging: { limit: 10 }, cursorPaging: { limit: 10 } }, 'WDE0080'],
    ['an offset in cursor paging', { cursorPaging: { limit: 10, offset: 5 } }, 'WDE0080'],
    ['a skip in cursor paging', { cursorPaging: { cursor: 'abc', skip: 5 } }, 'WDE0080'],
    ['an empty cursor', { cursorPaging: { cursor: '' } }, 'WDE0094'],
    ['a numeric cursor', { cursorPaging: { cursor: 5 } }, 'WDE0094'],
    ['paging as a string', { paging: '10' }, 'WDE0056'],
    ['sort as a string', { sort: 'price' }, 'WDE0065'],
    ['sort of strings', { sort: ['price'] }, 'WDE0066'],
    ['an unknown order', { sort: [{ fieldName: 'price', order: 'UP' }] }, 'WDE0067'],
    ['eleven sort keys', { sort: Array.from({ length: 11 }, (_, i) => ({ fieldName: `f${i}` })) }, 'WDE0036'],
    ['fields as a string', { fields: 'title' }, 'WDE0057'],
    ['a number as field', { fields: [5] }, 'WDE0048'],
    ['a bad filter', { filter: 'x' }, 'WDE0016'],
    ['$regex', { filter: { title: { $regex: 'x' } } }, 'WDE0070'],
    ['more than 10000 values', { filter: { $or: Array.from({ length: 11 }, () => ({ a: { $in: Array.from({ length: 1000 }, (_, i) => i) } })) } }, 'WDE0904'],
  ])('refuses %s', (_name, query, code) => {
    expect(errorCode(() => compileQuery('s', 'c', query))).toBe(code);
  });

  it('refuses a query that is not an object', () => {
    expect(errorCode(() => compileQuery('s', 'c', 'all'))).toBe('WDE0056');
  });
});

describe('compileCount', () => {
  it('counts the filtered items of the collection as an int', () => {
    expect(compileCount('site', 'coll', { category: 'fruit' })).toEqual({
      sql:
        `SELECT count(*)::int AS total FROM data_items WHERE site_id = $1 AND collection_id = $2 ` +
        `AND COALESCE(data->>'category' = $4, FALSE) AND data->'category' = $3::jsonb`,
      params: ['site', 'coll', '"fruit"', 'fruit'],
    });
    expect(compileCount('site', 'coll', undefined).sql).toBe(
      'SELECT count(*)::int AS total FROM data_items WHERE site_id = $1 AND collection_id = $2',
    );
  });
});

describe('restrict', () => {
  const owner = { _owner: 'member-1' };

  it('ANDs the server filter into a query, its count and a count call', () => {
    const plan = compileQuery('site', 'coll', { filter: { a: 1 } }, { returnTotalCount: true, restrict: owner });
    expect(plan.sql.sql).toContain(
      `WHERE site_id = $1 AND collection_id = $2 AND COALESCE(data->>'_owner' = $5, FALSE) AND COALESCE(data @> $6::jsonb, FALSE) ` +
        `AND data->'_owner' = $3::jsonb AND data->'a' = $4::jsonb`,
    );
    expect(plan.sql.params.slice(0, 6)).toEqual(['site', 'coll', '"member-1"', '1', 'member-1', '{"a":1}']);
    expect(plan.countSql?.params).toEqual(['site', 'coll', '"member-1"', '1', 'member-1', '{"a":1}']);
    expect(compileCount('site', 'coll', undefined, { restrict: owner }).sql).toContain(`AND data->'_owner' = $3::jsonb`);
  });

  it('keeps the server filter out of cursors and applies it again on every continuation', () => {
    const first = compileQuery('site', 'coll', { filter: { a: 1 }, paging: { limit: 1 } }, { restrict: owner });
    const page = readPage(first, [
      { item: { _id: 'x' }, sort_keys: [['x']] },
      { item: { _id: 'y' }, sort_keys: [['y']] },
    ]);
    const cursor = must(page.pagingMetadata.cursors.next);
    expect(decodeCursor(cursor, 'coll').request).toEqual({ filter: { a: 1 } });
    const next = compileQuery('site', 'coll', { cursorPaging: { cursor } }, { restrict: owner });
    expect(next.sql.params.slice(0, 4)).toEqual(['site', 'coll', '"member-1"', '1']);
    expect(compileQuery('site', 'coll', { cursorPaging: { cursor } }).sql.params).not.toContain('"member-1"');
  });

  it('restricts distinct values, aggregations and searches', () => {
    const restricted = (plan: PagePlan) => plan.sql.params.includes('"member-1"');
    expect(restricted(compileDistinct('site', 'coll', { fieldName: 'a' }, { restrict: owner }))).toBe(true);
    expect(restricted(compileAggregate('site', 'coll', { aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] } }, { restrict: owner }))).toBe(true);
    expect(restricted(compileSearch('site', 'coll', { search: { expression: 'x' } }, { restrict: owner }))).toBe(true);
  });
});

describe('cursors', () => {
  const firstPage = () =>
    compileQuery(
      'site',
      'coll',
      {
        filter: { category: 'fruit' },
        sort: [{ fieldName: 'price', order: 'DESC' }],
        fields: ['title'],
        paging: { limit: 2 },
      },
      { returnTotalCount: true },
    );
  const rows: PageRow[] = [
    { item: { _id: 'a', title: 'A', price: 9 }, sort_keys: [[9], ['a']] },
    { item: { _id: 'b', title: 'B', price: 8 }, sort_keys: [[8], ['b']] },
    { item: { _id: 'c', title: 'C', price: 7 }, sort_keys: [[7], ['c']] },
  ];

  it('round-trips a state through base64url without padding', () => {
    const state: CursorState = {
      v: 1,
      kind: 'items',
      collectionId: 'coll',
      request: { filter: { title: 'Ünïcödé ✓' }, sort: [{ fieldName: 'title', order: 'ASC' }] },
      limit: 10,
      total: false,
      direction: 'prev',
      position: [[], [{ $date: '2024-05-01T10:00:00.000Z' }], ['id-1']],
      offset: 30,
    };
    const text = encodeCursor(state);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text, 'coll')).toEqual(state);
  });

  it('builds the next cursor from the last row kept and the page metadata from the rows', () => {
    const page = readPage(firstPage(), rows, 5);
    expect(page.items).toEqual([
      { _id: 'a', title: 'A' },
      { _id: 'b', title: 'B' },
    ]);
    expect(page.pagingMetadata).toMatchObject({ count: 2, offset: 0, total: 5, tooManyToCount: false, hasNext: true });
    expect(page.pagingMetadata.cursors.prev).toBeUndefined();
    expect(decodeCursor(must(page.pagingMetadata.cursors.next), 'coll')).toEqual({
      v: 1,
      kind: 'items',
      collectionId: 'coll',
      request: { filter: { category: 'fruit' }, sort: [{ fieldName: 'price', order: 'DESC' }], fields: ['title'] },
      limit: 2,
      total: true,
      direction: 'next',
      position: [[8], ['b']],
      offset: 2,
    });
  });

  it('continues from a cursor alone with the same filter, order and projection', () => {
    const next = must(readPage(firstPage(), rows).pagingMetadata.cursors.next);
    const plan = compileQuery('site', 'coll', { fields: ['ignored'], cursorPaging: { limit: 2, cursor: next } });
    expect(plan.sql.sql).toBe(
      `SELECT data AS item, jsonb_build_array(CASE WHEN data->'price' IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(data->'price') END, ` +
        `jsonb_build_array(item_id)) AS sort_keys FROM data_items WHERE site_id = $1 AND collection_id = $2 ` +
        `AND COALESCE(data->>'category' = $4, FALSE) AND data->'category' = $3::jsonb ` +
        `AND (data->'price' <= $5::jsonb AND (data->'price' < $5::jsonb OR (data->'price' = $5::jsonb AND item_id < $6))) ` +
        `ORDER BY data->'price' DESC, item_id DESC LIMIT $7`,
    );
    expect(plan.sql.params).toEqual(['site', 'coll', '"fruit"', 'fruit', '8', 'b', 3]);
    expect(plan.state).toMatchObject({ offset: 2, fields: ['title'], total: true, direction: 'next' });
    expect(plan.countSql?.params).toEqual(['site', 'coll', '"fruit"', 'fruit']);
  });

  it('lets a cursor request change the page size', () => {
    const next = must(readPage(firstPage(), rows).pagingMetadata.cursors.next);
    expect(compileQuery('site', 'coll', { cursorPaging: { limit: 5, cursor: next } }).sql.params.at(-1)).toBe(6);
    expect(compileQuery('site', 'coll', { cursorPaging: { cursor: next } }).sql.params.at(-1)).toBe(3);
  });

  it('adds a second run for missing values when they come after the position', () => {
    const cursor = cursorFor({ request: { sort: [{ fieldName: 'price' }] }, position: [[3], ['i01']] });
    const { sql, params } = compileQuery('s', 'coll', { cursorPaging: { cursor } }).sql;
    const select = (where: string) =>
      `(SELECT data AS item, jsonb_build_array(CASE WHEN data->'price' IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(data->'price') END, ` +
      `jsonb_build_array(item_id)) AS sort_keys, data->'price' AS k0, item_id AS k1 FROM data_items WHERE site_id = $1 AND collection_id = $2 AND ${where} ` +
      `ORDER BY data->'price' ASC, item_id ASC LIMIT $5)`;
    expect(sql).toBe(
      `SELECT item, sort_keys FROM (` +
        `${select(`(data->'price' >= $3::jsonb AND (data->'price' > $3::jsonb OR (data->'price' = $3::jsonb AND item_id > $4)))`)} UNION ALL ` +
        `${select(`data->'price' IS NULL`)}) AS page ORDER BY k0 ASC, k1 ASC LIMIT $5`,
    );
    expect(params).toEqual(['s', 'coll', '3', 'i01', 3]);
  });

  it('pages back by reversing every key and reading the rows in reverse', () => {
    const cursor = cursorFor({ request: { sort: [{ fieldName: 'price', order: 'DESC' }] }, direction: 'prev', position: [[5], ['i09']], offset: 4 });
    const plan = compileQuery('s', 'coll', { cursorPaging: { cursor } });
    expect(plan.sql.sql).toContain(`ORDER BY data->'price' ASC, item_id ASC`);
    expect(plan.sql.sql).toContain(`data->'price' IS NULL`);
    const page = readPage(plan, [
      { item: { _id: 'x', price: 6 }, sort_keys: [[6], ['x']] },
      { item: { _id: 'y', price: 7 }, sort_keys: [[7], ['y']] },
      { item: { _id: 'z', price: 8 }, sort_keys: [[8], ['z']] },
    ]);
    expect(page.items).toEqual([
      { _id: 'y', price: 7 },
      { _id: 'x', price: 6 },
    ]);
    expect(page.pagingMetadata).toMatchObject({ count: 2, offset: 4, hasNext: true });
    expect(decodeCursor(must(page.pagingMetadata.cursors.prev), 'coll')).toMatchObject({ direction: 'prev', position: [[7], ['y']], offset: 2 });
    expect(decodeCursor(must(page.pagingMetadata.cursors.next), 'coll')).toMatchObject({ direction: 'next', position: [[6], ['x']], offset: 6 });
  });

  it('uses item_id alone as the keyset when unsorted', () => {
    const plan = compileQuery('s', 'coll', { cursorPaging: { cursor: cursorFor({}) } });
    expect(plan.sql.sql).toBe(
      `SELECT data AS item, jsonb_build_array(jsonb_build_array(item_id)) AS sort_keys FROM data_items ` +
        `WHERE site_id = $1 AND collection_id = $2 AND item_id > $3 ORDER BY item_id ASC LIMIT $4`,
    );
    expect(plan.sql.params).toEqual(['s', 'coll', 'i01', 3]);
  });

  it('offers no next cursor on the last page and a prev cursor after the first', () => {
    const plan = compileQuery('s', 'coll', { paging: { limit: 2, offset: 2 } });
    const page = readPage(plan, rows.slice(0, 1));
    expect(page.pagingMetadata).toEqual({
      count: 1,
      offset: 2,
      hasNext: false,
      cursors: { prev: page.pagingMetadata.cursors.prev },
    });
    expect(decodeCursor(must(page.pagingMetadata.cursors.prev), 'coll')).toMatchObject({ offset: 0, direction: 'prev' });
    expect(readPage(plan, []).pagingMetadata).toEqual({ count: 0, offset: 2, hasNext: false, cursors: {} });
  });

  const valid = cursorFor({});
  it.each<[string, string]>([
    ['text that is not base64url', 'not base64!'],
    ['padded base64', `${valid}==`],
    ['base64 of text that is not JSON', Buffer.from('not json').toString('base64url')],
    ['base64 of a JSON array', Buffer.from('[1,2]').toString('base64url')],
    ['another version', Buffer.from(JSON.stringify({ ...decodeCursor(valid, 'coll'), v: 2 })).toString('base64url')],
    ['an unknown kind', Buffer.from(JSON.stringify({ ...decodeCursor(valid, 'coll'), kind: 'sql' })).toString('base64url')],
    ['a limit over 1000', Buffer.from(JSON.stringify({ ...decodeCursor(valid, 'coll'), limit: 5000 })).toString('base64url')],
    ['a negative offset', Buffer.from(JSON.stringify({ ...decodeCursor(valid, 'coll'), offset: -1 })).toString('base64url')],
    ['a position that is not a list of lists', Buffer.from(JSON.stringify({ ...decodeCursor(valid, 'coll'), position: ['i01'] })).toString('base64url')],
    ['a position entry with two values', cursorFor({ position: [['i01', 'i02']] })],
    ['a position of the wrong length', cursorFor({ position: [[1], ['i01']] })],
    ['a missing value for item_id', cursorFor({ position: [[]] })],
    ['a number for item_id', cursorFor({ position: [[1]] })],
    ['another collection', cursorFor({ collectionId: 'other' })],
    ['another kind of call', cursorFor({ kind: 'distinct', request: { fieldName: 'title' }, position: [['x']] })],
  ])('refuses a cursor with %s', (_name, cursor) => {
    expect(errorCode(() => compileQuery('s', 'coll', { cursorPaging: { cursor } }))).toBe('WDE0902');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an injected field name', { filter: { "a'); DROP TABLE data_items; --": 1 } }, 'WDE0048'],
    ['an injected sort field', { sort: [{ fieldName: "title' DESC; --" }] }, 'WDE0048'],
    ['a regex', { filter: { title: { $regex: '.*' } } }, 'WDE0070'],
    ['a bad operand', { filter: { title: { $gt: [1] } } }, 'WDE0058'],
  ])('validates the request inside a cursor again: %s', (_name, request, code) => {
    expect(errorCode(() => compileQuery('s', 'coll', { cursorPaging: { cursor: cursorFor({ request }) } }))).toBe(code);
  });

  it('binds the position values of a tampered cursor as parameters', () => {
    const evil = "x'); DROP TABLE data_items; --";
    const cursor = cursorFor({ request: { sort: [{ fieldName: 'title' }] }, position: [[evil], [evil]] });
    const { sql, params } = compileQuery('s', 'coll', { cursorPaging: { cursor } }).sql;
    expect(sql).not.toContain('DROP');
    expect(params).toEqual(['s', 'coll', JSON.stringify(evil), evil, 3]);
  });
});

describe('compileDistinct', () => {
  it('selects each present value once, ordered, with its total', () => {
    const plan = compileDistinct('s', 'c', {
      fieldName: 'category',
      filter: { price: { $gt: 1 } },
      order: 'DESC',
      paging: { limit: 2, offset: 4 },
      returnTotalCount: true,
    });
    const from =
      `(SELECT DISTINCT data->'category' AS value FROM data_items WHERE site_id = $1 AND collection_id = $2 ` +
      `AND (data->'price' > $3::jsonb AND data->'price' < 'false'::jsonb) AND data->'category' <> 'null'::jsonb) AS distinct_values`;
    expect(plan.sql).toEqual({
      sql: `SELECT value AS item, jsonb_build_array(jsonb_build_array(value)) AS sort_keys FROM ${from} ORDER BY value DESC LIMIT $4 OFFSET $5`,
      params: ['s', 'c', '1', 3, 4],
    });
    expect(plan.countSql).toEqual({ sql: `SELECT count(*)::int AS total FROM ${from}`, params: ['s', 'c', '1'] });
  });

  it.each<[string, unknown, string]>([
    ['no field name', {}, 'WDE0048'],
    ['an injected field name', { fieldName: "a' || pg_sleep(10) || '" }, 'WDE0048'],
    ['an unknown order', { fieldName: 'a', order: 'RANDOM' }, 'WDE0067'],
    ['offset with a cursor', { fieldName: 'a', paging: { offset: 1 }, cursorPaging: { cursor: 'x' } }, 'WDE0080'],
    ['a query cursor', { fieldName: 'a', cursorPaging: { cursor: cursorFor({ collectionId: 'c' }) } }, 'WDE0902'],
  ])('refuses %s', (_name, request, code) => {
    expect(errorCode(() => compileDistinct('s', 'c', request))).toBe(code);
  });
});

describe('compileAggregate', () => {
  it('groups into result objects filtered, sorted and paged after grouping', () => {
    const plan = compileAggregate('s', 'c', {
      initialFilter: { active: true },
      aggregation: {
        groupingFields: ['category'],
        operations: [
          { resultFieldName: 'total', sum: { itemFieldName: 'price' } },
          { resultFieldName: 'mean', average: { itemFieldName: 'price' } },
          { resultFieldName: 'least', min: { itemFieldName: 'dims.w' } },
          { resultFieldName: 'most', max: { itemFieldName: 'price' } },
          { resultFieldName: 'count', itemCount: {} },
        ],
      },
      finalFilter: { count: { $gt: 1 } },
      sort: [{ fieldName: 'total', order: 'DESC' }],
      paging: { limit: 10 },
    });
    const number = (json: string) => `CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json})::numeric END`;
    const group = `COALESCE(data->'category', 'null'::jsonb)`;
    expect(plan.sql.sql).toBe(
      `SELECT result AS item, jsonb_build_array(jsonb_build_array(COALESCE(result->'total', 'null'::jsonb)), jsonb_build_array(result->'_id')) AS sort_keys ` +
        `FROM (SELECT jsonb_build_object('_id', jsonb_build_object('category', ${group}), 'category', ${group}, ` +
        `'total', COALESCE(sum(${number(`data->'price'`)}), 0), 'mean', avg(${number(`data->'price'`)})::float8, ` +
        `'least', min(${number(`data->'dims'->'w'`)}), 'most', max(${number(`data->'price'`)}), 'count', count(*)::int) AS result ` +
        `FROM data_items WHERE site_id = $1 AND collection_id = $2 AND COALESCE(data @> $4::jsonb, FALSE) AND data->'active' = $3::jsonb GROUP BY ${group}) AS aggregated ` +
        `WHERE (result->'count' > $5::jsonb AND result->'count' < 'false'::jsonb) ` +
        `ORDER BY COALESCE(result->'total', 'null'::jsonb) DESC, result->'_id' DESC LIMIT $6`,
    );
    expect(plan.sql.params).toEqual(['s', 'c', 'true', '{"active":true}', '1', 11]);
  });

  it('makes one group with a null _id when there are no grouping fields', () => {
    const { sql } = compileAggregate('s', 'c', { aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] } }).sql;
    expect(sql).toContain(`FROM (SELECT jsonb_build_object('_id', 'null'::jsonb, 'n', count(*)::int) AS result FROM data_items WHERE site_id = $1 AND collection_id = $2) AS aggregated`);
    expect(sql).not.toContain('GROUP BY');
  });

  it.each<[string, unknown, string]>([
    ['aggregation as a list', { aggregation: [] }, 'WDE0903'],
    ['groupingFields as a string', { aggregation: { groupingFields: 'a' } }, 'WDE0903'],
    ['an injected grouping field', { aggregation: { groupingFields: ["a', 1) --"] } }, 'WDE0048'],
    ['an operation without a function', { aggregation: { operations: [{ resultFieldName: 'x' }] } }, 'WDE0903'],
    ['an operation with two functions', { aggregation: { operations: [{ resultFieldName: 'x', itemCount: {}, sum: { itemFieldName: 'a' } }] } }, 'WDE0903'],
    ['an unknown function', { aggregation: { operations: [{ resultFieldName: 'x', median: { itemFieldName: 'a' } }] } }, 'WDE0903'],
    ['an injected result name', { aggregation: { operations: [{ resultFieldName: "x', 1) --", itemCount: {} }] } }, 'WDE0903'],
    ['a dotted result name', { aggregation: { operations: [{ resultFieldName: 'a.b', itemCount: {} }] } }, 'WDE0903'],
    ['an injected item field', { aggregation: { operations: [{ resultFieldName: 'x', sum: { itemFieldName: "a')::numeric --" } }] } }, 'WDE0048'],
    ['a missing item field', { aggregation: { operations: [{ resultFieldName: 'x', sum: {} }] } }, 'WDE0048'],
    ['a result named _id', { aggregation: { operations: [{ resultFieldName: '_id', itemCount: {} }] } }, 'WDE0903'],
    ['two results with one name', { aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }, { resultFieldName: 'n', itemCount: {} }] } }, 'WDE0903'],
    ['a result named like a group', { aggregation: { groupingFields: ['n'], operations: [{ resultFieldName: 'n', itemCount: {} }] } }, 'WDE0903'],
    ['eleven grouping fields', { aggregation: { groupingFields: Array.from({ length: 11 }, (_, i) => `g${i}`) } }, 'WDE0036'],
    ['a regex in the final filter', { finalFilter: { n: { $regex: 'x' } } }, 'WDE0070'],
    ['a bad initial filter', { initialFilter: 5 }, 'WDE0016'],
  ])('refuses %s', (_name, request, code) => {
    expect(errorCode(() => compileAggregate('s', 'c', request))).toBe(code);
  });
});

describe('compileSearch', () => {
  it.each<[string, unknown, string | undefined]>([
    ['OR by default', { expression: 'Orange juice' }, "'orange' | 'juice'"],
    ['AND mode', { expression: 'orange juice', mode: 'AND' }, "'orange' & 'juice'"],
    ['fuzzy as prefixes', { expression: 'ras sma', fuzzy: true, mode: 'AND' }, "'ras':* & 'sma':*"],
    ['tsquery syntax as plain words', { expression: "a & !b | c:* <-> 'd' (e)" }, "'a' | 'b' | 'c' | 'd' | 'e'"],
    ['letters of any script', { expression: 'Ünïcödé ☃ 日本' }, "'ünïcödé' | '日本'"],
    ['no words as no condition', { expression: ' !! ' }, undefined],
  ])('matches words in %s', (_name, search, tsquery) => {
    const plan = compileSearch('s', 'c', { search });
    if (tsquery === undefined) {
      expect(plan.sql.sql).not.toContain('to_tsquery');
      return;
    }
    expect(plan.sql.sql).toContain(`AND jsonb_to_tsvector('simple', data, '["string"]') @@ to_tsquery('simple', $3) ORDER BY item_id ASC`);
    expect(plan.sql.params[2]).toBe(tsquery);
  });

  it.each<[string, unknown, string]>([
    ['a numeric expression', { search: { expression: 5 } }, 'WDE0905'],
    ['an unknown mode', { search: { expression: 'a', mode: 'XOR' } }, 'WDE0905'],
    ['a string fuzzy', { search: { expression: 'a', fuzzy: 'yes' } }, 'WDE0905'],
    ['33 words', { search: { expression: Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ') } }, 'WDE0036'],
    ['a bad filter', { filter: [], search: { expression: 'a' } }, 'WDE0016'],
  ])('refuses %s', (_name, request, code) => {
    expect(errorCode(() => compileSearch('s', 'c', request))).toBe(code);
  });
});

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
