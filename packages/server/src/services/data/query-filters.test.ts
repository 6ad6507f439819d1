import { describe, it, expect } from 'vitest';
import { compileQuery } from './query-compiler.js';
import { QueryError, fieldExpr, fieldTextExpr } from './query-basics.js';
import { compileFilter } from './query-filters.js';
import { errorCode, filterSql } from '../../test/data-queries.js';

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
