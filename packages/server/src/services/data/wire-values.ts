/**
 * Data-item wire values, pure.
 *
 *   canonicalDate(text)        → `Date.toISOString()` text, or undefined when it names no instant
 *   canonicaliseDates(value)   → copy with every `{"$date": …}` canonicalised; run on every item
 *                                before it is stored, so that jsonb orders dates in time order
 *   projectFields(item, paths) → the item cut down to `query.fields` (always keeping `_id`)
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return isPlainObject(value);
}

/** A wire date is an object whose only key is `$date`. */
export function isWireDate(value: unknown): value is { $date: unknown } {
  return isPlainObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, '$date');
}

// Years outside 0000–9999 print as "+010000-…", which would sort before "2024-…" as text.
const FOUR_DIGIT_YEAR = /^\d{4}-/;

export function canonicalDate(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const time = new Date(text).getTime();
  if (Number.isNaN(time)) return undefined;
  const iso = new Date(time).toISOString();
  return FOUR_DIGIT_YEAR.test(iso) ? iso : undefined;
}

/** Dates that name no instant are kept as given: the item is stored, it just never compares as a date. */
export function canonicaliseDates(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonicaliseDates);
  if (!isJsonObject(value)) return value;
  if (isWireDate(value)) {
    const iso = canonicalDate(value.$date);
    return iso === undefined ? value : { $date: iso };
  }
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) setOwn(copy, key, canonicaliseDates(child));
  return copy;
}

type Fields = Record<string, unknown>;

/** Dotted paths keep their nesting (`a.b` → `{a:{b}}`); missing fields stay missing. */
export function projectFields(item: Fields, fields: readonly string[]): Fields {
  if (fields.length === 0) return item;
  const projected: Fields = {};
  for (const field of ['_id', ...fields]) {
    const path = field.split('.');
    const found = valueAt(item, path);
    if (found !== undefined) place(projected, path, found.value);
  }
  return projected;
}

function valueAt(from: unknown, path: readonly string[]): { value: unknown } | undefined {
  let value = from;
  for (const key of path) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return { value };
}

function place(to: Fields, path: readonly string[], value: unknown): void {
  const parents = path.slice(0, -1);
  let target = to;
  for (const key of parents) {
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    const child = isPlainObject(existing) ? existing : {};
    setOwn(target, key, child);
    target = child;
  }
  setOwn(target, path[path.length - 1] ?? '', value);
}

// Plain assignment of a "__proto__" key would replace the prototype instead of adding a field.
function setOwn(target: Fields, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
