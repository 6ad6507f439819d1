import { describe, it, expect } from 'vitest';
import { Buffer } from 'node:buffer';
import { compileQuery } from './query-compiler.js';
import { decodeCursor, encodeCursor, readPage, type CursorState, type PageRow } from './query-paging.js';
import { cursorFor, errorCode, must } from '../../test/data-queries.js';

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
