/** Data store checks made before any request (spec §5, wire-surface §5.4). */
import { isPlainObject } from '../../core/query-string.js';
import { wde } from './wde.js';

export const MAX_BULK = 1000;
export const MAX_LIMIT = 1000;

export const BASE_FLAGS = ['suppressAuth', 'suppressHooks', 'showDrafts', 'consistentRead'] as const;

export function describe(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function checkCollection(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw wde('WDE0001: Collection name must be a string.');
}

export function checkItemId(id: unknown): asserts id is string {
  if (typeof id !== 'string') throw wde('WDE0002: ItemId must be a string.');
}

export function checkFieldName(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw wde('WDE0003: FieldName must be a string.');
}

export function checkItem(item: unknown, collection: string): asserts item is Record<string, unknown> {
  if (!isPlainObject(item) || (item._id !== undefined && typeof item._id !== 'string')) {
    throw wde(`WDE0004: Failed to save [${describe(item)}] into [${collection}]. Items must be objects with a string _id when present.`);
  }
}

export function checkUpdateItem(item: Record<string, unknown>): void {
  if (typeof item._id !== 'string') throw wde('WDE0007: Invalid update. Updated object must have a string _id property.');
}

export function checkItems(items: unknown, collection: string): asserts items is Record<string, unknown>[] {
  const valid =
    Array.isArray(items) &&
    items.every((item) => isPlainObject(item) && (item._id === undefined || typeof item._id === 'string'));
  if (!valid) {
    throw wde(`WDE0005: Failed to bulk save items into [${collection}]. Items must be an array of objects and their _id must be a string when present.`);
  }
  if (items.length > MAX_BULK) {
    throw wde(`WDE0006: Failed to bulk save items into [${collection}]. Cannot save more than ${MAX_BULK} items in one request.`);
  }
}

export function checkItemIds(ids: unknown, collection: string): asserts ids is string[] {
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
    throw wde(`WDE0068: Failed to process items of [${collection}]. ItemIds must be an array of strings.`);
  }
  if (ids.length > MAX_BULK) {
    throw wde(`WDE0069: Failed to process items of [${collection}]. Cannot process more than ${MAX_BULK} items in one request.`);
  }
}

/**
 * Options may only hold the known boolean flags (plus `extraFlags` for this call), a non-empty
 * `language` and, where the call has one, a `condition` filter.
 */
export function checkOptions(
  options: unknown,
  extraFlags: readonly string[] = [],
  extraKeys: readonly string[] = [],
): void {
  if (options === undefined || options === null) return;
  const flags = [...BASE_FLAGS, ...extraFlags];
  const invalid = (): Error =>
    wde(`WDE0018: Options must be an object with one or all of the following boolean properties: ${flags.join(', ')}, and a non-empty language.`);
  if (!isPlainObject(options)) throw invalid();
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || extraKeys.includes(key)) continue;
    if (key === 'language') {
      if (typeof value !== 'string' || value === '') throw invalid();
    } else if (!flags.includes(key) || typeof value !== 'boolean') {
      throw invalid();
    }
  }
}

/** `limit`: a number, an integer, positive, at most 1000. Returns the first violation. */
export function limitError(limit: unknown, operator = 'limit'): Error | undefined {
  if (typeof limit !== 'number' || Number.isNaN(limit)) {
    return wde(`WDE0032: Invalid ${operator} parameter [${describe(limit)}]. ${operator} parameter must be a number.`);
  }
  if (!Number.isInteger(limit)) {
    return wde(`WDE0035: Invalid ${operator} parameter [${limit}]. ${operator} parameter must be an integer.`);
  }
  if (limit <= 0) {
    return wde(`WDE0033: Invalid ${operator} parameter [${limit}]. ${operator} parameter must be a positive number.`);
  }
  if (limit > MAX_LIMIT) {
    return wde(`WDE0036: Invalid ${operator} parameter [${limit}]. ${operator} parameter cannot exceed ${MAX_LIMIT}.`);
  }
  return undefined;
}

/** `skip`: a number, an integer, not negative. */
export function skipError(skip: unknown): Error | undefined {
  if (typeof skip !== 'number' || Number.isNaN(skip)) {
    return wde(`WDE0032: Invalid skip parameter [${describe(skip)}]. skip parameter must be a number.`);
  }
  if (!Number.isInteger(skip)) return wde(`WDE0035: Invalid skip parameter [${skip}]. skip parameter must be an integer.`);
  if (skip < 0) return wde(`WDE0034: Invalid skip parameter [${skip}]. skip parameter must be a non-negative number.`);
  return undefined;
}

export function cursorError(cursor: unknown): Error | undefined {
  if (typeof cursor !== 'string' || cursor === '') {
    return wde('WDE0094: Invalid cursor parameter. cursor parameter must be non-empty string.');
  }
  return undefined;
}

export function throwIf(error: Error | undefined): void {
  if (error) throw error;
}

// ─── Filter operands ─────────────────────────────────────────────────────────────────────────────

const isDateValue = (value: unknown): boolean =>
  value instanceof Date || (isPlainObject(value) && Object.keys(value).length === 1 && typeof value.$date === 'string');

export const isComparable = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && !Number.isNaN(value)) || isDateValue(value);

const COMPARISON = new Set(['$gt', '$gte', '$lt', '$lte']);
const STRING_OPERATORS = new Set(['$startsWith', '$endsWith', '$contains']);
const SET_OPERATORS = new Set(['$hasSome', '$hasAll', '$in']);
const LOGICAL = new Set(['$and', '$or', '$not']);

/** Validates a filter given as a plain object (direct calls), including `$regex` (WDE0070). */
export function checkFilterTree(filter: unknown): void {
  if (!isPlainObject(filter)) throw wde('WDE0016: Filter must be an object.');
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$regex') throw wde('WDE0070: $regex keyword is not allowed.');
    if (LOGICAL.has(key)) {
      if (key === '$not' && isPlainObject(value)) {
        checkFilterTree(value);
        continue;
      }
      if (!Array.isArray(value)) throw wde(`WDE0057: ${key} should be an Array. Got ${describe(value)} instead`);
      value.forEach(checkFilterTree);
      continue;
    }
    if (!isPlainObject(value) || isDateValue(value)) continue;
    for (const [operator, operand] of Object.entries(value)) {
      if (operator === '$regex') throw wde('WDE0070: $regex keyword is not allowed.');
      if (COMPARISON.has(operator) && !isComparable(operand)) {
        throw wde(`WDE0058: ${operator} should be a Date, Number, or String. Got ${describe(operand)} instead`);
      }
      if (STRING_OPERATORS.has(operator) && typeof operand !== 'string') {
        throw wde(`WDE0059: ${operator} should be a String. Got ${describe(operand)} instead`);
      }
      if (SET_OPERATORS.has(operator)) {
        if (!Array.isArray(operand)) throw wde(`WDE0057: ${operator} should be an Array. Got ${describe(operand)} instead`);
        if (!operand.every(isComparable)) {
          throw wde(`WDE0060: ${operator} Array should only contain values of types Date, Number, and String. Got ${describe(operand)} instead`);
        }
      }
    }
  }
}
