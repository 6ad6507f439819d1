import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { cursorMetadata, cursorPage, decodeCursor, encodeCursor, offsetPage } from './paging.js';

describe('paging', () => {
  it('defaults to 50 from the start and checks bounds', () => {
    expect(offsetPage(undefined, 'paging')).toEqual({ limit: 50, offset: 0 });
    expect(offsetPage({ limit: '10', offset: 5 }, 'paging')).toEqual({ limit: 10, offset: 5 });
    expect(() => offsetPage({ limit: 0 }, 'paging')).toThrow(ApiError);
    expect(() => offsetPage({ limit: 1001 }, 'paging')).toThrow(ApiError);
    expect(() => offsetPage({ offset: -1 }, 'paging')).toThrow(ApiError);
    expect(() => offsetPage({ limit: 2.5 }, 'paging')).toThrow(ApiError);
  });

  it('round-trips a cursor with its query and refuses a forged one', () => {
    const cursor = encodeCursor({ offset: 20, filter: { memberId: 'm' }, sort: [{ fieldName: 'createdDate' }] });
    expect(decodeCursor(cursor, 'c')).toEqual({ offset: 20, filter: { memberId: 'm' }, sort: [{ fieldName: 'createdDate' }] });
    expect(() => decodeCursor('not a cursor!', 'c')).toThrow(ApiError);
    expect(() => decodeCursor(Buffer.from('{"o":-1}').toString('base64url'), 'c')).toThrow(ApiError);
  });

  it('continues the query the cursor carries, not the one sent with it', () => {
    const first = cursorPage({ limit: 2 }, 'paging', { filter: { a: 1 } });
    const { items, metadata } = cursorMetadata(first, ['x', 'y', 'z']);
    expect(items).toEqual(['x', 'y']);
    expect(metadata).toMatchObject({ count: 2, hasNext: true });
    const second = cursorPage({ limit: 2, cursor: metadata.cursors.next }, 'paging', { filter: { b: 2 } });
    expect(second).toEqual({ limit: 2, offset: 2, filter: { a: 1 }, sort: undefined });
    const last = cursorMetadata(second, ['z']);
    expect(last.metadata).toMatchObject({ count: 1, hasNext: false });
    expect(last.metadata.cursors.next).toBeUndefined();
    expect(decodeCursor(last.metadata.cursors.prev as string, 'c').offset).toBe(0);
  });
});
