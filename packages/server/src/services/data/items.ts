/**
 * Data items as stored and as sent, pure. An item is a JSON document whose `_id`, `_createdDate`,
 * `_updatedDate` and `_owner` the server keeps; every other field is stored as given.
 */
import type { OutboxEvent } from '../../platform/events.js';
import { DataErrors } from './errors.js';
import { canonicaliseDates, isPlainObject, type JsonObject, type JsonValue } from './wire-values.js';

export const SYSTEM_FIELDS: readonly string[] = ['_id', '_createdDate', '_updatedDate', '_owner'];
export const MAX_ITEM_ID_LENGTH = 512;
export const MAX_BULK = 1000;
/** Deeper documents are refused: the store's recursive walks must never exhaust the stack. */
export const MAX_DEPTH = 100;

/** Whether a JSON value nests objects and arrays deeper than `max` (iterative, so any depth is safe). */
export function deeperThan(value: unknown, max: number): boolean {
  // Two parallel stacks rather than an object per node: a bulk call walks a thousand items.
  const values: object[] = [];
  const depths: number[] = [];
  if (value !== null && typeof value === 'object') {
    values.push(value);
    depths.push(0);
  }
  while (values.length > 0) {
    const next = values.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth >= max) return true;
    for (const key in next) {
      const child = next[key];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export interface ItemInput {
  id: string;
  data: JsonObject;
}

/** The wire envelope of one item in a response. */
export interface WireDataItem {
  id: string;
  dataCollectionId: string;
  data: JsonObject;
}

const isItemId = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= MAX_ITEM_ID_LENGTH;

/**
 * Reads `dataItem {id?, data}`. The id is `data._id`, else `dataItem.id`; when both are absent an
 * insert gets a new one and an update (`requireId`) is refused with WDE0007.
 */
export function readItemInput(
  wire: unknown,
  collectionId: string,
  options: { requireId: boolean; newId: () => string },
): ItemInput {
  if (!isPlainObject(wire) || !isPlainObject(wire.data)) throw DataErrors.itemNotObject(collectionId);
  if (deeperThan(wire.data, MAX_DEPTH)) throw DataErrors.tooDeep(MAX_DEPTH);
  const data = wire.data as JsonObject;
  const given = data._id ?? wire.id;
  if (given === undefined || given === null) {
    if (options.requireId) throw DataErrors.updateWithoutId();
    return { id: options.newId(), data };
  }
  if (!isItemId(given)) throw options.requireId ? DataErrors.updateWithoutId() : DataErrors.itemIdNotString();
  return { id: given, data };
}

export function readItemId(value: unknown): string {
  if (!isItemId(value)) throw DataErrors.itemIdNotString();
  return value;
}

export const wireDate = (date: Date): JsonObject => ({ $date: date.toISOString() });

/**
 * A new item: the caller's fields, then the system fields; dates canonical so they sort in time
 * order. `now` may be given as its ISO text, which a bulk call then formats once, not per item.
 */
export function stampNew(input: ItemInput, now: Date | string, owner: string): JsonObject {
  const iso = typeof now === 'string' ? now : now.toISOString();
  return { ...canonicalObject(input.data), _id: input.id, _createdDate: { $date: iso }, _updatedDate: { $date: iso }, _owner: owner };
}

/** A replacement for a stored item: it keeps the stored creation date and owner. */
export function stampReplacement(input: ItemInput, stored: { createdDate: JsonValue | undefined; owner: JsonValue | undefined }, now: Date): JsonObject {
  const data: JsonObject = { ...input.data, _id: input.id, _updatedDate: wireDate(now) };
  if (stored.createdDate !== undefined) data._createdDate = stored.createdDate;
  else delete data._createdDate;
  if (stored.owner !== undefined) data._owner = stored.owner;
  else delete data._owner;
  return canonicalObject(data);
}

/** Copies only items that hold a date: most hold none, and a bulk call stamps a thousand. */
function canonicalObject(data: JsonObject): JsonObject {
  if (!holdsDate(data)) return data;
  const canonical = canonicaliseDates(data);
  return isPlainObject(canonical) ? (canonical) : data;
}

function holdsDate(value: JsonValue): boolean {
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      for (const child of next) if (child !== null && typeof child === 'object') stack.push(child);
      continue;
    }
    if (Object.hasOwn(next, '$date')) return true;
    for (const key in next) {
      const child = next[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return false;
}

export function toWireItem(collectionId: string, data: JsonObject): WireDataItem {
  return { id: typeof data._id === 'string' ? data._id : '', dataCollectionId: collectionId, data };
}

/**
 * Splits a bulk request into runs in which each id appears once, keeping order. Each run is one
 * statement; later runs see the earlier ones' writes, so a repeated id behaves as two calls in a row.
 */
export function uniqueRuns<T>(entries: readonly T[], idOf: (entry: T) => string): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let seen = new Set<string>();
  for (const entry of entries) {
    const id = idOf(entry);
    if (seen.has(id)) {
      runs.push(run);
      run = [];
      seen = new Set();
    }
    seen.add(id);
    run.push(entry);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

export function itemPayload(collectionId: string, data: JsonObject): JsonObject {
  return { dataCollectionId: collectionId, dataItemId: data._id ?? null, dataItem: data };
}

/** The entity type of item events. */
export const ITEM_ENTITY_TYPE = 'wix.data.v2.data_item';

/** An item's outbox event; item ids are unique per collection, so the entity id names both. */
export function itemEvent(siteId: string, collectionId: string, type: string, itemId: string, payload: JsonObject): OutboxEvent {
  return { siteId, type, entityType: ITEM_ENTITY_TYPE, entityId: `${collectionId}/${itemId}`, payload };
}
