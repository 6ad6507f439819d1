import { describe, expect, it } from 'vitest';
import { compileFilter, FilterError, orderBy, parseSort, readInteger, type FieldMap } from './query-filter.js';

const FIELDS: FieldMap = {
  name: { kind: 'column', sql: 'p.name', type: 'text', sortable: true },
  price: { kind: 'column', sql: 'p.price', type: 'bigint', sortable: true, toParam: (v) => String(Number(v) * 100) },
  created: { kind: 'column', sql: 'p.created_at', type: 'timestamp', sortable: true },
  visible: { kind: 'column', sql: 'p.visible', type: 'boolean' },
  tags: { kind: 'custom', compile: (op, operand, params) => { params.push(operand); return `tags(${op}, $${params.length})`; } },
};

function compile(filter: unknown) {
  const params: unknown[] = ['site'];
  return { sql: compileFilter(filter, FIELDS, params), params: params.slice(1) };
}

describe('compileFilter', () => {
  it.each([
    [undefined, 'TRUE', []],
    [{}, 'TRUE', []],
    [{ name: 'Mug' }, 'p.name = $2::text', ['Mug']],
    [{ name: { $ne: 'Mug' } }, 'p.name IS DISTINCT FROM $2::text', ['Mug']],
    [{ name: null }, 'p.name IS NULL', []],
    [{ price: { $gte: 1, $lt: 2 } }, '(p.price >= $2::bigint AND p.price < $3::bigint)', ['100', '200']],
    [{ name: { $in: ['a', 'b'] } }, 'p.name = ANY($2::text[])', [['a', 'b']]],
    [{ name: { $nin: ['a'] } }, 'NOT (p.name = ANY($2::text[]))', [['a']]],
    [{ name: { $exists: false } }, 'p.name IS NULL', []],
    [{ name: { $startsWith: 'Mu' } }, 'starts_with(p.name, $2::text)', ['Mu']],
    [{ visible: true, name: 'x' }, '(p.visible = $2::boolean AND p.name = $3::text)', [true, 'x']],
    [{ $or: [{ name: 'a' }, { name: 'b' }] }, '(p.name = $2::text OR p.name = $3::text)', ['a', 'b']],
    [{ $and: [] }, 'TRUE', []],
    [{ $or: [] }, 'FALSE', []],
    [{ $not: { name: 'a' } }, 'NOT (p.name = $2::text)', ['a']],
    [{ tags: { $hasSome: ['x'] } }, 'tags($hasSome, $2)', [['x']]],
    [{ tags: 'x' }, 'tags($eq, $2)', ['x']],
    ['{"name":"Mug"}', 'p.name = $2::text', ['Mug']],
  ])('compiles %j', (filter, sql, params) => {
    expect(compile(filter)).toEqual({ sql, params });
  });

  it('reads dates as ISO strings or {$date}', () => {
    const { params } = compile({ created: { $gt: '2026-01-01T00:00:00Z', $lt: { $date: '2026-02-01T00:00:00Z' } } });
    expect(params).toEqual([new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z')]);
  });

  it('never puts an operand into the SQL text', () => {
    const evil = "x'; DROP TABLE products; --";
    const { sql, params } = compile({ name: evil, $or: [{ name: { $startsWith: evil } }] });
    expect(sql).not.toContain('DROP');
    expect(params).toEqual([evil, evil]);
  });

  it.each([
    [{ color: 'red' }, /cannot be filtered/],
    [{ name: { $regex: 'a' } }, /not supported/],
    [{ $where: 'x' }, /not supported here/],
    [{ name: { $in: 'a' } }, /needs a list/],
    [{ name: { $gt: {} } }, /cannot be compared/],
    [{ created: 'yesterday' }, /cannot be compared/],
    [{ visible: 'yes' }, /cannot be compared/],
    [{ name: { $exists: 'no' } }, /true or false/],
    [{ price: { $startsWith: '1' } }, /text field/],
    [{ $or: {} }, /list of filters/],
    [[], /must be an object/],
    ['{not json', /not valid JSON/],
    [{ __proto__: { name: 'x' }, constructor: 'x' }, /cannot be filtered/],
  ])('refuses %j', (filter, message) => {
    expect(() => compile(filter)).toThrow(message);
    expect(() => compile(filter)).toThrow(FilterError);
  });

  it('refuses filters nested too deep', () => {
    let filter: Record<string, unknown> = { name: 'a' };
    for (let i = 0; i < 20; i++) filter = { $and: [filter] };
    expect(() => compile(filter)).toThrow(/too deeply/);
  });
});

describe('parseSort and orderBy', () => {
  it('reads sort entries and ends the order with the tie-breaker in the last direction', () => {
    const keys = parseSort([{ fieldName: 'price', order: 'DESC' }, { fieldName: 'name' }], FIELDS);
    expect(keys).toEqual([{ field: 'price', order: 'DESC' }, { field: 'name', order: 'ASC' }]);
    expect(orderBy(keys, FIELDS, 'p.id')).toBe('p.price DESC, p.name ASC, p.id ASC');
    expect(orderBy([], FIELDS, 'p.id')).toBe('p.id ASC');
  });

  it.each([
    [{ fieldName: 'name' }, /must be a list/],
    [[{ fieldName: 'visible' }], /cannot be sorted/],
    [[{ fieldName: 'name', order: 'UP' }], /ASC or DESC/],
    [[{}], /fieldName/],
    [Array(6).fill({ fieldName: 'name' }), /at most 5/],
  ])('refuses %j', (sort, message) => {
    expect(() => parseSort(sort, FIELDS)).toThrow(message);
  });
});

describe('readInteger', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    [5, 5],
    ['12', 12],
  ])('reads %j as %j', (value, expected) => {
    expect(readInteger(value, 'limit', { min: 0, max: 100 })).toBe(expected);
  });

  it.each([[1.5], ['1.5'], ['ten'], [101], [-1], [{}]])('refuses %j', (value) => {
    expect(() => readInteger(value, 'limit', { min: 0, max: 100 })).toThrow(FilterError);
  });
});
