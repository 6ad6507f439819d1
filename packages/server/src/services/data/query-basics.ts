// The query compiler's ground (query-compiler.ts): its errors and limits, field paths and the
// expressions to index, and the readers of a wire request's parts (sort, fields, paging). Pure.
import { isPlainObject } from './wire-values.js';

export type QueryErrorCode =
  | 'WDE0016' // filter is not an object
  | 'WDE0032' // limit or offset is not a number
  | 'WDE0033' // limit is not positive
  | 'WDE0034' // offset is negative
  | 'WDE0035' // limit or offset is not an integer
  | 'WDE0036' // a parameter exceeds its maximum (limit, list, sort keys, search terms, aggregation)
  | 'WDE0048' // invalid field name
  | 'WDE0056' // should be an object
  | 'WDE0057' // should be an array
  | 'WDE0058' // operand of the wrong type (or an invalid date)
  | 'WDE0059' // string operator without a string
  | 'WDE0060' // list item of the wrong type
  | 'WDE0065' // sort is not an array
  | 'WDE0066' // sort entry is not an object
  | 'WDE0067' // sort order is neither ASC nor DESC
  | 'WDE0070' // $regex
  | 'WDE0080' // offset together with cursor paging
  | 'WDE0094' // empty cursor
  // Bodega's own, where Wix publishes none:
  | 'WDE0901' // unknown filter operator
  | 'WDE0902' // malformed, tampered or foreign cursor
  | 'WDE0903' // invalid aggregation
  | 'WDE0904' // filter nested too deep or too large
  | 'WDE0905'; // invalid search request

export class QueryError extends Error {
  override readonly name = 'QueryError';
  constructor(
    readonly code: QueryErrorCode,
    description: string,
  ) {
    super(description);
  }
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
const MAX_PATH_DEPTH = 16;
export const MAX_FILTER_DEPTH = 32;
export const MAX_LIST_LENGTH = 1000;
const MAX_SORT_KEYS = 10;
export const MAX_SEARCH_TERMS = 32;
export const MAX_GROUPING_FIELDS = 10;
export const MAX_OPERATIONS = 20;
export const MAX_PARAMS = 10_000;

// ---------------------------------------------------------------- field paths

/** One path segment. Quotes, `->`, unicode look-alikes and the like are refused outright. */
export const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_$\- ]{0,127}$/;

export type Root = 'data' | 'result';

export function readFieldName(path: unknown): string {
  const parts = typeof path === 'string' ? path.split('.') : [];
  if (parts.length === 0 || parts.length > MAX_PATH_DEPTH || !parts.every((part) => SEGMENT.test(part))) {
    throw new QueryError(
      'WDE0048',
      `Invalid field name ${show(path)}. A field name is made of letters, digits, "_", "$", "-" and spaces, ` +
        `with "." between nested names.`,
    );
  }
  return String(path);
}

export const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

export function pathExpr(root: Root, path: unknown): string {
  return [root, ...readFieldName(path).split('.').map(literal)].join('->');
}

export function pathTextExpr(root: Root, path: unknown): string {
  const parts = readFieldName(path).split('.').map(literal);
  const last = parts.pop();
  return `${[root, ...parts].join('->')}->>${last}`;
}

/** `data->'a'->'b'` for "a.b": the jsonb expression every query on the field uses, and its index must. */
export function fieldExpr(path: string): string {
  return pathExpr('data', path);
}

/** `data->'a'->>'b'`: the text that $contains, $startsWith and $endsWith match (a trigram index's expression). */
export function fieldTextExpr(path: string): string {
  return pathTextExpr('data', path);
}

/** Every string value of an item as one text-search document (a GIN index's expression). */
export const SEARCH_VECTOR = `jsonb_to_tsvector('simple', data, '["string"]')`;

// ---------------------------------------------------------------- requests

export interface SortSpec {
  fieldName: string;
  order: 'ASC' | 'DESC';
}

export function readSort(sort: unknown): SortSpec[] {
  if (!present(sort)) return [];
  if (!Array.isArray(sort)) throw new QueryError('WDE0065', `Sort should be an array. Got ${show(sort)} instead.`);
  if (sort.length > MAX_SORT_KEYS) throw new QueryError('WDE0036', `Sort cannot have more than ${MAX_SORT_KEYS} fields.`);
  return sort.map(readSortEntry);
}

function readSortEntry(entry: unknown): SortSpec {
  if (!isPlainObject(entry)) throw new QueryError('WDE0066', `Sort should contain objects only. Got ${show(entry)} instead.`);
  return { fieldName: readFieldName(entry.fieldName), order: readOrder(entry.order, 'WDE0067') };
}

export function readOrder(order: unknown, code: QueryErrorCode): 'ASC' | 'DESC' {
  const upper = present(order) ? String(order).toUpperCase() : 'ASC';
  if (upper !== 'ASC' && upper !== 'DESC') throw new QueryError(code, `Order should be "ASC" or "DESC". Got ${show(order)} instead.`);
  return upper;
}

export function readFields(fields: unknown): string[] {
  return present(fields) ? arrayOf('fields', fields).map(readFieldName) : [];
}

interface PagingRequest {
  limit?: number;
  offset: number;
  cursor?: string;
}

export function readPaging(request: Record<string, unknown>): PagingRequest {
  const { paging, cursorPaging } = request;
  if (present(paging) && present(cursorPaging)) throw skipWithCursor();
  if (present(cursorPaging)) {
    const cursorRequest = objectOf('cursorPaging', cursorPaging);
    if (present(cursorRequest.offset) || present(cursorRequest.skip)) throw skipWithCursor();
    return { limit: readLimit(cursorRequest.limit), offset: 0, cursor: readCursorText(cursorRequest.cursor) };
  }
  if (!present(paging)) return { offset: 0 };
  const offsetRequest = objectOf('paging', paging);
  return { limit: readLimit(offsetRequest.limit), offset: readOffset(offsetRequest.offset) };
}

function skipWithCursor(): QueryError {
  return new QueryError('WDE0080', 'Skip is not supported in cursor paging.');
}

function readLimit(value: unknown): number | undefined {
  if (!present(value)) return undefined;
  const limit = integer('limit', value);
  if (limit <= 0) throw new QueryError('WDE0033', `Invalid limit parameter [${limit}]. limit parameter must be a positive number.`);
  if (limit > MAX_LIMIT) {
    throw new QueryError('WDE0036', `Invalid limit parameter [${limit}]. limit parameter cannot exceed ${MAX_LIMIT}.`);
  }
  return limit;
}

function readOffset(value: unknown): number {
  if (!present(value)) return 0;
  const offset = integer('offset', value);
  if (offset < 0) {
    throw new QueryError('WDE0034', `Invalid offset parameter [${offset}]. offset parameter must be a non-negative number.`);
  }
  return offset;
}

function integer(name: string, value: unknown): number {
  const number = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new QueryError('WDE0032', `Invalid ${name} parameter ${show(value)}. ${name} parameter must be a number.`);
  }
  if (!Number.isSafeInteger(number)) {
    throw new QueryError('WDE0035', `Invalid ${name} parameter [${number}]. ${name} parameter must be an integer.`);
  }
  return number;
}

function readCursorText(value: unknown): string | undefined {
  if (!present(value)) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new QueryError('WDE0094', 'Invalid cursor parameter. cursor parameter must be non-empty string.');
  }
  return value;
}

export const present = (value: unknown): boolean => value !== undefined && value !== null;

export function arrayOf(name: string, value: unknown, code: QueryErrorCode = 'WDE0057'): unknown[] {
  if (!Array.isArray(value)) throw new QueryError(code, `${name} should be an array. Got ${show(value)} instead.`);
  return value;
}

export function objectOf(name: string, value: unknown, code: QueryErrorCode = 'WDE0056'): Record<string, unknown> {
  if (!isPlainObject(value)) throw new QueryError(code, `${name} should be an object. Got ${show(value)} instead.`);
  return value;
}

export const optionalObject = (name: string, value: unknown): Record<string, unknown> =>
  present(value) ? objectOf(name, value) : {};

export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `[${text.length > 100 ? `${text.slice(0, 100)}…` : text}]`;
}
