// Small helpers of the data-store query compiler's tests (services/data/query-*.test.ts).
import { QueryError } from '../services/data/query-basics.js';
import { compileFilter } from '../services/data/query-filters.js';
import { encodeCursor, type CursorState } from '../services/data/query-paging.js';

export function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof QueryError) return error.code;
    throw error;
  }
  return 'no error';
}

export function filterSql(filter: unknown): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  return { sql: compileFilter(filter, params), params };
}

export function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

export const cursorFor = (state: Partial<CursorState>): string =>
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
