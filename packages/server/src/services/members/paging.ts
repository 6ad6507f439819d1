/**
 * Paging shared by the members APIs (pure): offset paging with `metadata {count, offset, total}`
 * and cursor paging whose opaque cursor carries the offset and the query it continues, because
 * the official builders send only the cursor on later pages.
 */
import { ApiError } from '../../platform/errors.js';

export const DEFAULT_LIMIT = 50;
export const MAX_OFFSET_LIMIT = 1000;
export const MAX_CURSOR_LIMIT = 100;

export interface OffsetPage {
  limit: number;
  offset: number;
}

function integer(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw ApiError.validation([{ field, rule: 'VALIDATION', description: 'must be an integer' }]);
  }
  if (n < min) throw ApiError.validation([{ field, rule: 'MIN', description: `must be at least ${min}`, data: { threshold: min } }]);
  if (n > max) throw ApiError.validation([{ field, rule: 'MAX', description: `must be at most ${max}`, data: { threshold: max } }]);
  return n;
}

export function offsetPage(paging: { limit?: unknown; offset?: unknown } | undefined, path: string, maxLimit = MAX_OFFSET_LIMIT): OffsetPage {
  return {
    limit: integer(paging?.limit, `${path}.limit`, 1, maxLimit, DEFAULT_LIMIT),
    offset: integer(paging?.offset, `${path}.offset`, 0, Number.MAX_SAFE_INTEGER, 0),
  };
}

export interface OffsetMetadata {
  count: number;
  offset: number;
  total: number;
  tooManyToCount: false;
}

export function offsetMetadata(page: OffsetPage, count: number, total: number): OffsetMetadata {
  return { count, offset: page.offset, total, tooManyToCount: false };
}

/** What a cursor remembers: where the next page starts and the query it belongs to. */
export interface CursorState {
  offset: number;
  filter?: unknown;
  sort?: unknown;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify({ o: state.offset, f: state.filter, s: state.sort }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, field: string): CursorState {
  const bad = () => ApiError.validation([{ field, rule: 'FORMAT', description: 'is not a cursor this server issued' }]);
  if (!/^[A-Za-z0-9_-]{1,16000}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
  const record = parsed as Record<string, unknown>;
  if (typeof record.o !== 'number' || !Number.isInteger(record.o) || record.o < 0) throw bad();
  return { offset: record.o, filter: record.f, sort: record.s };
}

export interface CursorRequest {
  limit?: unknown;
  cursor?: unknown;
}

export interface CursorPage {
  limit: number;
  offset: number;
  filter?: unknown;
  sort?: unknown;
}

/** A cursor replaces the filter and sort of the request it continues. */
export function cursorPage(paging: CursorRequest | undefined, path: string, query: { filter?: unknown; sort?: unknown } = {}): CursorPage {
  const limit = integer(paging?.limit, `${path}.limit`, 1, MAX_CURSOR_LIMIT, DEFAULT_LIMIT);
  const cursor = paging?.cursor;
  if (cursor === undefined || cursor === null || cursor === '') return { limit, offset: 0, filter: query.filter, sort: query.sort };
  if (typeof cursor !== 'string') throw ApiError.validation([{ field: `${path}.cursor`, rule: 'VALIDATION', description: 'must be a string' }]);
  const state = decodeCursor(cursor, `${path}.cursor`);
  return { limit, offset: state.offset, filter: state.filter, sort: state.sort };
}

export interface CursorMetadata {
  count: number;
  cursors: { next?: string; prev?: string };
  hasNext: boolean;
}

/** `rows` holds up to limit + 1 items; the extra one only tells that a next page exists. */
export function cursorMetadata<T>(page: CursorPage, rows: T[]): { items: T[]; metadata: CursorMetadata } {
  const hasNext = rows.length > page.limit;
  const items = hasNext ? rows.slice(0, page.limit) : rows;
  const cursors: CursorMetadata['cursors'] = {};
  if (hasNext) cursors.next = encodeCursor({ offset: page.offset + page.limit, filter: page.filter, sort: page.sort });
  if (page.offset > 0) cursors.prev = encodeCursor({ offset: Math.max(0, page.offset - page.limit), filter: page.filter, sort: page.sort });
  return { items, metadata: { count: items.length, cursors, hasNext } };
}
