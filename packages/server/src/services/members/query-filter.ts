/**
 * Wire filters, sorts and searches of the members APIs → parameterised SQL over a fixed map of
 * fields (pure). The official query builder sends `{"$and":[{"id":"…"},{"profile.nickname":{"$ne":"a"}}]}`,
 * `{"$not":{…}}` (object form), `{"$or":[…]}` and `sort:[{fieldName, order}]`. Every operand is a
 * `$n` parameter; field names are looked up, never written into the SQL from input.
 * Bad input throws ApiError.validation naming the offending path.
 */
import { ApiError, type ViolatedRule } from '../../platform/errors.js';

export type FieldKind = 'text' | 'enum' | 'timestamp';

export interface FilterField {
  /** SQL expression over the queried table, e.g. `m.profile->>'nickname'`. */
  sql: string;
  kind: FieldKind;
  /** Allowed values of an enum field. */
  values?: readonly string[];
  /** Compare case-insensitively (e-mails). */
  caseInsensitive?: boolean;
  /** Usable by callers who see only public data. */
  public?: boolean;
  sortable?: boolean;
  /** A stored form of the folded text (see folded()), when the table has one. */
  foldedSql?: string;
  /** Searchable by the plain-text search. */
  searchable?: boolean;
}

export type FieldMap = Readonly<Record<string, FilterField>>;

export interface CompileOptions {
  /** Admins may use every field; others only `public` ones. */
  admin: boolean;
  /** Wire path of the filter, for error messages (`query.filter`). */
  path: string;
}

const MAX_DEPTH = 12;
const MAX_PARAMS = 2000;
const MAX_LIST = 1000;
const MAX_SORT_KEYS = 5;
const SEARCH_MAX_LENGTH = 100;

/** System keys as the SDK writes them, before its rename to the REST form. */
const ALIASES: Record<string, string> = { _id: 'id', _createdDate: 'createdDate', _updatedDate: 'updatedDate' };

function fail(path: string, rule: ViolatedRule, description: string): never {
  throw ApiError.validation([{ field: path, rule, description }]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function pushParam(params: unknown[], value: unknown): string {
  if (params.length >= MAX_PARAMS) fail('filter', 'MAX_SIZE', 'the filter is too large');
  params.push(value);
  return `$${params.length}`;
}

function lookUp(name: string, fields: FieldMap, options: CompileOptions, path: string): FilterField {
  const field = fields[ALIASES[name] ?? name];
  if (!field) fail(path, 'FIELD_NOT_ALLOWED', `"${name}" cannot be used here; use one of ${Object.keys(fields).join(', ')}`);
  if (!options.admin && !field.public) fail(path, 'FIELD_NOT_ALLOWED', `only the site's owners and apps may use "${name}"`);
  return field;
}

/** One operand in the SQL type of its field. */
function operand(field: FilterField, value: unknown, path: string): string | Date {
  if (field.kind === 'timestamp') {
    const text = isPlainObject(value) && typeof value.$date === 'string' ? value.$date : value;
    const date = typeof text === 'string' ? new Date(text) : text instanceof Date ? text : undefined;
    // Years PostgreSQL and the wire both take; beyond them a date is a typo, not a query.
    if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) {
      fail(path, 'FORMAT', 'must be an ISO-8601 date-time between the years 1 and 9999');
    }
    return date;
  }
  if (typeof value !== 'string') fail(path, 'VALIDATION', 'must be a string');
  if (field.kind === 'enum' && field.values && !field.values.includes(value)) {
    fail(path, 'INVALID_ENUM_VALUE', `must be one of ${field.values.join(', ')}`);
  }
  return field.caseInsensitive ? value.toLowerCase() : value;
}

/**
 * Text folded for sorting and prefix matching: lower-cased, in byte (code point) order. The same
 * on every database collation, and an index on this expression serves both ORDER BY and a
 * $startsWith range.
 */
export function folded(field: FilterField): string {
  return field.foldedSql ?? `(lower(${field.sql}) COLLATE "C")`;
}

/** The first string after every string that starts with `prefix` (code point order); undefined if none. */
export function prefixUpperBound(prefix: string): string | undefined {
  const chars = [...prefix];
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    // Skip the surrogate range: those are not characters on their own.
    const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return chars.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

function expr(field: FilterField): string {
  return field.caseInsensitive ? `lower(${field.sql})` : field.sql;
}

function sqlType(field: FilterField): string {
  return field.kind === 'timestamp' ? 'timestamptz' : 'text';
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function compileOperator(field: FilterField, op: string, value: unknown, params: unknown[], path: string): string {
  const e = expr(field);
  switch (op) {
    case '$eq':
      return value === null ? `${field.sql} IS NULL` : `${e} = ${pushParam(params, operand(field, value, path))}`;
    case '$ne':
      return value === null ? `${field.sql} IS NOT NULL` : `${e} IS DISTINCT FROM ${pushParam(params, operand(field, value, path))}`;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
      return `${e} ${sign} ${pushParam(params, operand(field, value, path))}`;
    }
    case '$in':
    case '$nin':
    case '$hasSome': {
      if (!Array.isArray(value)) fail(path, 'VALIDATION', `${op} takes a list`);
      if (value.length > MAX_LIST) fail(path, 'MAX_SIZE', `${op} takes at most ${MAX_LIST} values`);
      const list = value.map((v, i) => operand(field, v, `${path}[${i}]`));
      const any = `${e} = ANY(${pushParam(params, list)}::${sqlType(field)}[])`;
      return op === '$nin' ? `(${field.sql} IS NULL OR NOT ${any})` : any;
    }
    case '$exists':
      if (typeof value !== 'boolean') fail(path, 'VALIDATION', '$exists takes true or false');
      return value ? `${field.sql} IS NOT NULL` : `${field.sql} IS NULL`;
    case '$isEmpty':
      if (typeof value !== 'boolean') fail(path, 'VALIDATION', '$isEmpty takes true or false');
      return value ? `coalesce(${field.sql}::text, '') = ''` : `coalesce(${field.sql}::text, '') <> ''`;
    case '$startsWith':
      if (field.kind === 'timestamp') fail(path, 'VALIDATION', '$startsWith applies to text fields');
      if (typeof value !== 'string') fail(path, 'VALIDATION', '$startsWith takes a string');
      return startsWith(field, value.toLowerCase(), params);
    default:
      return fail(path, 'VALIDATION', `unknown operator ${op}`);
  }
}

/**
 * Case-insensitive, as the official builder documents, on the folded text. In code point order the
 * strings starting with p are exactly those in [p, prefixUpperBound(p)), so the prefix is a range
 * an index on the folded text serves whatever the plan; LIKE only where no upper bound exists.
 */
function startsWith(field: FilterField, prefix: string, params: unknown[]): string {
  const text = folded(field);
  if (prefix === '') return `${text} IS NOT NULL`;
  const upper = prefixUpperBound(prefix);
  if (upper === undefined) return `${text} LIKE ${pushParam(params, `${escapeLike(prefix)}%`)}`;
  return `(${text} >= ${pushParam(params, prefix)} AND ${text} < ${pushParam(params, upper)})`;
}

function compileNode(node: unknown, fields: FieldMap, params: unknown[], options: CompileOptions, path: string, depth: number): string {
  if (depth > MAX_DEPTH) fail(path, 'MAX_SIZE', 'the filter is nested too deep');
  if (!isPlainObject(node)) fail(path, 'VALIDATION', 'a filter must be an object');
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) fail(at, 'VALIDATION', `${key} takes a list of filters`);
      const inner = value.map((v, i) => compileNode(v, fields, params, options, `${at}[${i}]`, depth + 1));
      if (inner.length === 0) parts.push(key === '$and' ? 'TRUE' : 'FALSE');
      else parts.push(`(${inner.join(key === '$and' ? ' AND ' : ' OR ')})`);
    } else if (key === '$not') {
      // The members builder sends the object form; the array form (data items) is taken too.
      const inner = Array.isArray(value)
        ? value.map((v, i) => compileNode(v, fields, params, options, `${at}[${i}]`, depth + 1)).join(' AND ') || 'TRUE'
        : compileNode(value, fields, params, options, at, depth + 1);
      parts.push(`NOT coalesce((${inner}), false)`);
    } else if (key.startsWith('$')) {
      fail(at, 'VALIDATION', `unknown operator ${key}`);
    } else {
      const field = lookUp(key, fields, options, at);
      if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$')) && !('$date' in value)) {
        for (const [op, operandValue] of Object.entries(value)) parts.push(compileOperator(field, op, operandValue, params, `${at}.${op}`));
      } else {
        parts.push(compileOperator(field, '$eq', value, params, at));
      }
    }
  }
  return parts.length === 0 ? 'TRUE' : parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
}

/** A WHERE condition ('TRUE' for an empty or missing filter); its values are appended to params. */
export function compileFilter(filter: unknown, fields: FieldMap, params: unknown[], options: CompileOptions): string {
  if (filter === undefined || filter === null) return 'TRUE';
  return compileNode(filter, fields, params, options, options.path, 0);
}

export interface SortKey {
  fieldName?: unknown;
  order?: unknown;
}

/**
 * ORDER BY terms: the requested keys, then `tieBreaker` in the direction of the last key, so
 * offsets page stably. `fallback` is used when no key is given.
 */
export function compileSort(
  sort: unknown, fields: FieldMap, options: CompileOptions, tieBreaker: string, fallback: string,
): string {
  if (sort === undefined || sort === null || (Array.isArray(sort) && sort.length === 0)) return fallback;
  if (!Array.isArray(sort)) fail(options.path, 'VALIDATION', 'must be a list of {fieldName, order}');
  if (sort.length > MAX_SORT_KEYS) fail(options.path, 'MAX_SIZE', `at most ${MAX_SORT_KEYS} sort keys`);
  const terms: string[] = [];
  let last = 'ASC';
  sort.forEach((key: unknown, i) => {
    const at = `${options.path}[${i}]`;
    if (!isPlainObject(key) || typeof key.fieldName !== 'string') fail(at, 'VALIDATION', 'must be {fieldName, order}');
    const field = lookUp(key.fieldName, fields, options, `${at}.fieldName`);
    if (!field.sortable) fail(`${at}.fieldName`, 'FIELD_NOT_ALLOWED', `cannot sort by "${key.fieldName}"`);
    const order = key.order ?? 'ASC';
    if (order !== 'ASC' && order !== 'DESC') fail(`${at}.order`, 'INVALID_ENUM_VALUE', 'must be ASC or DESC');
    last = order;
    // Text sorts case-insensitively in code point order (see folded()).
    terms.push(`${field.kind === 'text' ? folded(field) : field.sql} ${order}`);
  });
  terms.push(`${tieBreaker} ${last}`);
  return terms.join(', ');
}

/**
 * Plain-text search `{expression, fields}`: a case-insensitive substring of any of the fields
 * (default `defaultFields`).
 */
export function compileSearch(
  search: unknown, fields: FieldMap, params: unknown[], options: CompileOptions, defaultFields: readonly string[],
): string {
  if (search === undefined || search === null) return 'TRUE';
  if (!isPlainObject(search)) fail(options.path, 'VALIDATION', 'must be {expression, fields}');
  const expression = search.expression;
  if (expression === undefined || expression === null || expression === '') return 'TRUE';
  if (typeof expression !== 'string') fail(`${options.path}.expression`, 'VALIDATION', 'must be a string');
  if (expression.length > SEARCH_MAX_LENGTH) fail(`${options.path}.expression`, 'MAX_LENGTH', `at most ${SEARCH_MAX_LENGTH} characters`);
  const names = search.fields === undefined ? defaultFields : search.fields;
  if (!Array.isArray(names) || names.length === 0 || names.length > 6 || names.some((n) => typeof n !== 'string')) {
    fail(`${options.path}.fields`, 'VALIDATION', 'must be a list of up to 6 field names');
  }
  const pattern = pushParam(params, `%${escapeLike(expression.toLowerCase())}%`);
  const terms = (names as string[]).map((name, i) => {
    const field = lookUp(name, fields, options, `${options.path}.fields[${i}]`);
    if (!field.searchable) fail(`${options.path}.fields[${i}]`, 'FIELD_NOT_ALLOWED', `cannot search "${name}"`);
    return `lower(${field.sql}) LIKE ${pattern}`;
  });
  return `(${terms.join(' OR ')})`;
}
