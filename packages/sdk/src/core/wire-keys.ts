/**
 * The request/response transforms of generated-style modules, kept in one place
 * (wire-surface §1.6): system keys `id/createdDate/updatedDate` ↔ `_id/_createdDate/_updatedDate`,
 * ISO timestamps → `Date`. Data items do not use these (they have their own `$date` form).
 */
import { isPlainObject } from './query-string.js';

export const TO_SDK: Record<string, string> = { id: '_id', createdDate: '_createdDate', updatedDate: '_updatedDate' };
const TO_WIRE: Record<string, string> = { _id: 'id', _createdDate: 'createdDate', _updatedDate: 'updatedDate' };

/** Keys (SDK names) whose ISO string values become `Date` in responses. */
export const DATE_KEYS: ReadonlySet<string> = new Set([
  '_createdDate',
  '_updatedDate',
  'lastLoginDate',
  'purchasedDate',
  'lastUpdated',
  'scheduledDate',
  'deliverByDate',
  'dateValue',
]);
/** Keys whose `from`/`to` children are timestamps (order delivery time slots). */
const DATE_RANGE_PARENTS = new Set(['deliveryTimeSlot']);

function toDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date;
}

function renameKeys(source: Record<string, unknown>, names: Record<string, string>): [string, unknown][] {
  return Object.entries(source).map(([key, value]) => {
    const target = names[key];
    // A key is not renamed when the target key already exists.
    return [target !== undefined && !(target in source) ? target : key, value];
  });
}

/** Response transform: system keys renamed recursively, known timestamps as `Date`. */
export function fromWire<T>(value: unknown, parentKey = ''): T {
  if (Array.isArray(value)) return value.map((entry) => fromWire(entry, parentKey)) as T;
  if (!isPlainObject(value)) return value as T;
  const out: Record<string, unknown> = {};
  const dateRange = DATE_RANGE_PARENTS.has(parentKey);
  for (const [key, entry] of renameKeys(value, TO_SDK)) {
    out[key] =
      DATE_KEYS.has(key) || (dateRange && (key === 'from' || key === 'to')) ? toDate(entry) : fromWire(entry, key);
  }
  return out as T;
}

/** Request transform: system keys back to wire names, including `sort[].fieldName` values. */
export function toWire<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((entry) => toWire(entry)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of renameKeys(value, TO_WIRE)) {
    out[key] = key === 'fieldName' && typeof entry === 'string' ? wireFieldPath(entry) : toWire(entry);
  }
  return out as T;
}

/** A field path in SDK names (`_id`, `profile._createdDate`) in wire names. */
export function wireFieldPath(path: string): string {
  return path
    .split('.')
    .map((segment) => TO_WIRE[segment] ?? segment)
    .join('.');
}

/** A wire field path (`lineItems[0].id`) with its system-key segments in SDK names. */
export function sdkFieldPath(path: string): string {
  return path.replace(/(^|\.)(id|createdDate|updatedDate)(?=$|[.[])/g, (_, dot: string, key: string) => `${dot}_${key}`);
}
