/**
 * Wire filters and sorts (`{"name": {"$startsWith": "Sh"}}`, `[{fieldName, order}]`) → parameterised
 * SQL over a fixed map of fields. Pure: the caller says which wire field is which column; anything
 * else is refused, and every operand travels as a `$n` parameter, never in the SQL text.
 */

export type FieldType = 'text' | 'bigint' | 'timestamp' | 'boolean';

export interface ColumnField {
  kind: 'column';
  /** SQL expression of the column, e.g. `p.name`. */
  sql: string;
  type: FieldType;
  sortable?: boolean;
  /** Turns a wire operand into the SQL value (e.g. a price in major units into minor units). */
  toParam?: (value: unknown) => string | boolean | Date;
}

/** A field that is not a plain column (e.g. collectionIds, kept in a join table). */
export interface CustomField {
  kind: 'custom';
  compile(operator: string, operand: unknown, params: unknown[]): string;
}

export type FieldSpec = ColumnField | CustomField;
export type FieldMap = Readonly<Record<string, FieldSpec>>;

export class FilterError extends Error {
  override readonly name = 'FilterError';
}

const MAX_DEPTH = 16;
const MAX_PARAMS = 1000;
const MAX_SORT_KEYS = 5;
const SQL_TYPE: Record<FieldType, string> = { text: 'text', bigint: 'bigint', timestamp: 'timestamptz', boolean: 'boolean' };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function push(params: unknown[], value: unknown): string {
  if (params.length >= MAX_PARAMS) throw new FilterError('The filter is too large');
  params.push(value);
  return `$${params.length}`;
}

function operandFor(field: ColumnField, name: string, value: unknown): string | boolean | Date {
  if (field.toParam) return field.toParam(value);
  switch (field.type) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      break;
    case 'bigint':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
      if (typeof value === 'string' && /^-?\d{1,18}$/.test(value)) return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'timestamp': {
      const text = isPlainObject(value) && typeof value.$date === 'string' ? value.$date : value;
      const date = typeof text === 'string' ? new Date(text) : text instanceof Date ? text : undefined;
      if (date && !Number.isNaN(date.getTime())) return date;
      break;
    }
  }
  throw new FilterError(`"${name}" cannot be compared with ${JSON.stringify(value) ?? String(value)}`);
}

function compileColumn(field: ColumnField, name: string, operator: string, operand: unknown, params: unknown[]): string {
  const column = field.sql;
  const cast = SQL_TYPE[field.type];
  switch (operator) {
    case '$eq':
      if (operand === null) return `${column} IS NULL`;
      return `${column} = ${push(params, operandFor(field, name, operand))}::${cast}`;
    case '$ne':
      if (operand === null) return `${column} IS NOT NULL`;
      return `${column} IS DISTINCT FROM ${push(params, operandFor(field, name, operand))}::${cast}`;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[operator];
      return `${column} ${sign} ${push(params, operandFor(field, name, operand))}::${cast}`;
    }
    case '$in':
    case '$hasSome': // on a one-valued field (productType), the SDK's hasSome means "one of"
    case '$nin': {
      if (!Array.isArray(operand)) throw new FilterError(`${operator} on "${name}" needs a list`);
      const values = operand.map((v) => operandFor(field, name, v));
      const list = `${push(params, values)}::${cast}[]`;
      return operator === '$nin' ? `NOT (${column} = ANY(${list}))` : `${column} = ANY(${list})`;
    }
    case '$exists':
      if (typeof operand !== 'boolean') throw new FilterError(`$exists on "${name}" needs true or false`);
      return operand ? `${column} IS NOT NULL` : `${column} IS NULL`;
    case '$startsWith':
      if (field.type !== 'text' || typeof operand !== 'string') throw new FilterError(`$startsWith on "${name}" needs a text field and a string`);
      return `starts_with(${column}, ${push(params, operand)}::text)`;
    default:
      throw new FilterError(`The operator ${operator} is not supported on "${name}"`);
  }
}

function compileField(fields: FieldMap, name: string, condition: unknown, params: unknown[]): string {
  const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) throw new FilterError(`"${name}" cannot be filtered on`);
  const parts: [string, unknown][] =
    isPlainObject(condition) && Object.keys(condition).some((k) => k.startsWith('$'))
      ? Object.entries(condition)
      : [['$eq', condition]];
  const sql = parts.map(([operator, operand]) => {
    if (!operator.startsWith('$')) throw new FilterError(`"${name}" mixes operators and values`);
    return field.kind === 'custom' ? field.compile(operator, operand, params) : compileColumn(field, name, operator, operand, params);
  });
  return sql.length === 1 ? sql[0] : `(${sql.join(' AND ')})`;
}

function compileNode(node: unknown, fields: FieldMap, params: unknown[], depth: number): string {
  if (depth > MAX_DEPTH) throw new FilterError('The filter is nested too deeply');
  if (!isPlainObject(node)) throw new FilterError('A filter must be an object');
  const clauses: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw new FilterError(`${key} needs a list of filters`);
      const inner = value.map((v) => compileNode(v, fields, params, depth + 1));
      if (inner.length === 0) clauses.push(key === '$and' ? 'TRUE' : 'FALSE');
      else clauses.push(`(${inner.join(key === '$and' ? ' AND ' : ' OR ')})`);
    } else if (key === '$not') {
      const inner = Array.isArray(value) ? value.map((v) => compileNode(v, fields, params, depth + 1)).join(' AND ') : compileNode(value, fields, params, depth + 1);
      clauses.push(`NOT (${inner || 'TRUE'})`);
    } else if (key.startsWith('$')) {
      throw new FilterError(`The operator ${key} is not supported here`);
    } else {
      clauses.push(compileField(fields, key, value, params));
    }
  }
  if (clauses.length === 0) return 'TRUE';
  return clauses.length === 1 ? clauses[0] : `(${clauses.join(' AND ')})`;
}

/** The SQL condition for a wire filter; `undefined`, `null` and `{}` match everything. */
export function compileFilter(filter: unknown, fields: FieldMap, params: unknown[]): string {
  if (filter === undefined || filter === null) return 'TRUE';
  if (typeof filter === 'string') {
    // Some callers send the filter as a JSON string (older Stores APIs).
    try {
      return compileNode(JSON.parse(filter) as unknown, fields, params, 0);
    } catch (error) {
      if (error instanceof FilterError) throw error;
      throw new FilterError('The filter is not valid JSON');
    }
  }
  return compileNode(filter, fields, params, 0);
}

export interface SortKey {
  field: string;
  order: 'ASC' | 'DESC';
}

/** Validates `[{fieldName, order}]` against the sortable fields. */
export function parseSort(sort: unknown, fields: FieldMap): SortKey[] {
  if (sort === undefined || sort === null) return [];
  let list: unknown = sort;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      throw new FilterError('The sort is not valid JSON');
    }
  }
  if (!Array.isArray(list)) throw new FilterError('The sort must be a list');
  if (list.length > MAX_SORT_KEYS) throw new FilterError(`Sort by at most ${MAX_SORT_KEYS} fields`);
  return list.map((entry: unknown) => {
    if (!isPlainObject(entry) || typeof entry.fieldName !== 'string') throw new FilterError('Each sort entry needs a fieldName');
    const order = entry.order ?? 'ASC';
    if (order !== 'ASC' && order !== 'DESC') throw new FilterError(`Sort order must be ASC or DESC, got ${JSON.stringify(order)}`);
    const field = Object.hasOwn(fields, entry.fieldName) ? fields[entry.fieldName] : undefined;
    if (!field || field.kind !== 'column' || !field.sortable) throw new FilterError(`"${entry.fieldName}" cannot be sorted on`);
    return { field: entry.fieldName, order };
  });
}

/** `ORDER BY` text for sort keys, ending with the tie-breaker so the order is total. */
export function orderBy(keys: readonly SortKey[], fields: FieldMap, tieBreaker: string): string {
  const parts = keys.map((key) => `${(fields[key.field] as ColumnField).sql} ${key.order}`);
  const lastOrder = keys.length ? keys[keys.length - 1].order : 'ASC';
  parts.push(`${tieBreaker} ${lastOrder}`);
  return parts.join(', ');
}

/** Reads a non-negative integer that may come as a number or, from a query string, as text. */
export function readInteger(value: unknown, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new FilterError(`${name} must be a whole number`);
  if (n < min || n > max) throw new FilterError(`${name} must be between ${min} and ${max}`);
  return n;
}
