import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { createIndexSql, dropIndexSql, pgIndexName, readIndex } from './indexes.js';
import { fieldExpr } from './query-basics.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('readIndex', () => {
  it('reads fields with ASC as the default order', () => {
    expect(readIndex({ name: 'by price', fields: [{ path: 'category' }, { path: 'price', order: 'DESC' }] })).toEqual({
      name: 'by price',
      fields: [
        { path: 'category', order: 'ASC' },
        { path: 'price', order: 'DESC' },
      ],
      unique: false,
      caseInsensitive: false,
    });
  });

  it.each<[string, unknown]>([
    ['no fields', { name: 'x', fields: [] }],
    ['four fields', { name: 'x', fields: ['a', 'b', 'c', 'd'].map((path) => ({ path })) }],
    ['a unique index on two fields', { name: 'x', unique: true, fields: [{ path: 'a' }, { path: 'b' }] }],
    ['a repeated field', { name: 'x', fields: [{ path: 'a' }, { path: 'a' }] }],
    ['a quote in a path', { name: 'x', fields: [{ path: "a'); DROP TABLE data_items; --" }] }],
    ['a quote in the name', { name: "x'", fields: [{ path: 'a' }] }],
    ['an unknown order', { name: 'x', fields: [{ path: 'a', order: 'UP' }] }],
  ])('refuses %s with WDE0911', (_name, wire) => {
    expect(codeOf(() => readIndex(wire))).toBe('WDE0911');
  });
});

describe('index DDL', () => {
  const name = pgIndexName('site-1', 'Products', 'by price');

  it('names each site, collection and index apart within 63 bytes', () => {
    expect(name).toMatch(/^data_ix_[0-9a-f]{40}$/);
    expect(pgIndexName('site-1', 'Products', 'by price')).toBe(name);
    expect(pgIndexName('site-2', 'Products', 'by price')).not.toBe(name);
  });

  it('indexes the compiler expressions after site and collection, item_id last in the last field\'s direction', () => {
    const index = readIndex({ name: 'by price', fields: [{ path: 'category' }, { path: 'price', order: 'DESC' }] });
    expect(createIndexSql(name, 'site-1', 'Products', index, false)).toEqual([
      `CREATE INDEX "${name}" ON data_items (site_id, collection_id, (${fieldExpr('category')}), (${fieldExpr('price')}) DESC, item_id DESC)`,
    ]);
  });

  it('makes a unique index partial to its collection, with a companion for queries, concurrently when asked', () => {
    const index = readIndex({ name: 'sku', unique: true, fields: [{ path: 'sku' }] });
    expect(createIndexSql(name, 's', 'c', index, true)).toEqual([
      `CREATE UNIQUE INDEX CONCURRENTLY "${name}" ON data_items (site_id, collection_id, (data->'sku')) WHERE site_id = 's' AND collection_id = 'c'`,
      `CREATE INDEX CONCURRENTLY "${name}_q" ON data_items (site_id, collection_id, (data->'sku'), item_id)`,
    ]);
    expect(dropIndexSql(name, true, true)).toEqual([`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`, `DROP INDEX CONCURRENTLY IF EXISTS "${name}_q"`]);
    expect(dropIndexSql(name, false, false)).toEqual([`DROP INDEX IF EXISTS "${name}"`]);
  });

  it('quotes the ids of a unique index\'s predicate', () => {
    const index = readIndex({ name: 'sku', unique: true, fields: [{ path: 'sku' }] });
    expect(createIndexSql(name, "s'1", 'c', index, false)[0]).toContain(`WHERE site_id = 's''1' AND collection_id = 'c'`);
  });
});
