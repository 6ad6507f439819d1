import { describe, it, expect } from 'vitest';
import { compileAggregate, compileCount, compileDistinct, compileQuery, compileSearch } from './query-compiler.js';
import { decodeCursor, readPage, type PagePlan } from './query-paging.js';
import { cursorFor, errorCode, must } from '../../test/data-queries.js';

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
