/**
 * Patch field modifications (SET_FIELD, INCREMENT_FIELD, APPEND_TO_ARRAY, REMOVE_FROM_ARRAY,
 * REMOVE_FIELD), pure: read from the wire once, then applied to a stored item in order.
 * Paths are dotted (`address.city`); a SET or APPEND creates the objects on its way.
 */
import { DataErrors } from './errors.js';
import { fieldExpr } from './query-basics.js';
import { deeperThan, MAX_DEPTH, SYSTEM_FIELDS } from './items.js';
import { canonicaliseDates, isPlainObject, type JsonObject, type JsonValue } from './wire-values.js';

export type FieldModification =
  | { action: 'SET_FIELD'; path: string[]; value: JsonValue }
  | { action: 'INCREMENT_FIELD'; path: string[]; value: number }
  | { action: 'APPEND_TO_ARRAY'; path: string[]; value: JsonValue }
  | { action: 'REMOVE_FROM_ARRAY'; path: string[]; value: JsonValue }
  | { action: 'REMOVE_FIELD'; path: string[] };

const OPTIONS_KEY = {
  SET_FIELD: 'setFieldOptions',
  INCREMENT_FIELD: 'incrementFieldOptions',
  APPEND_TO_ARRAY: 'appendToArrayOptions',
  REMOVE_FROM_ARRAY: 'removeFromArrayOptions',
} as const;

export const MAX_MODIFICATIONS = 100;

const invalid = DataErrors.invalidModification;

export function readFieldModifications(wire: unknown): FieldModification[] {
  if (!Array.isArray(wire) || wire.length === 0) throw invalid('fieldModifications should be a non-empty array.');
  if (wire.length > MAX_MODIFICATIONS) throw invalid(`A patch has at most ${MAX_MODIFICATIONS} field modifications.`);
  return wire.map(readFieldModification);
}

function readFieldModification(wire: unknown): FieldModification {
  if (!isPlainObject(wire)) throw invalid('Each field modification should be an object.');
  const { action, fieldPath } = wire;
  const path = readPath(fieldPath);
  if (action === 'REMOVE_FIELD') return { action, path };
  if (action !== 'SET_FIELD' && action !== 'INCREMENT_FIELD' && action !== 'APPEND_TO_ARRAY' && action !== 'REMOVE_FROM_ARRAY') {
    throw invalid(`Unknown field modification action [${String(action)}]. Use SET_FIELD, INCREMENT_FIELD, APPEND_TO_ARRAY, REMOVE_FROM_ARRAY or REMOVE_FIELD.`);
  }
  const options = wire[OPTIONS_KEY[action]];
  const value = isPlainObject(options) ? (options.value as JsonValue | undefined) : undefined;
  if (value === undefined) throw invalid(`${action} on [${path.join('.')}] needs ${OPTIONS_KEY[action]}.value.`);
  if (deeperThan(value, MAX_DEPTH - path.length)) throw DataErrors.tooDeep(MAX_DEPTH);
  if (action === 'INCREMENT_FIELD') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw invalid(`INCREMENT_FIELD on [${path.join('.')}] needs a number. Got ${JSON.stringify(value)} instead.`);
    }
    return { action, path, value };
  }
  return { action, path, value };
}

function readPath(fieldPath: unknown): string[] {
  try {
    fieldExpr(String(fieldPath));
  } catch {
    throw invalid(`Invalid field path [${String(fieldPath)}].`);
  }
  if (typeof fieldPath !== 'string') throw invalid(`Invalid field path [${String(fieldPath)}].`);
  const path = fieldPath.split('.');
  if (SYSTEM_FIELDS.includes(path[0] ?? '')) throw invalid(`The system field [${path[0]}] cannot be patched.`);
  return path;
}

/** The item after the modifications, in order; the stored item is not changed. */
export function applyFieldModifications(item: JsonObject, modifications: readonly FieldModification[]): JsonObject {
  const result = structuredClone(item);
  for (const modification of modifications) apply(result, modification);
  const canonical = canonicaliseDates(result);
  return isPlainObject(canonical) ? (canonical) : result;
}

function apply(item: JsonObject, modification: FieldModification): void {
  const { path } = modification;
  const name = path.join('.');
  if (modification.action === 'REMOVE_FIELD') {
    const parent = parentOf(item, path, false);
    if (parent) delete parent[path[path.length - 1]];
    return;
  }
  const parent = parentOf(item, path, true);
  if (!parent) throw invalid(`Cannot patch [${name}]: a field on its path is not an object.`);
  const key = path[path.length - 1];
  const current = Object.hasOwn(parent, key) ? parent[key] : undefined;
  switch (modification.action) {
    case 'SET_FIELD':
      setOwn(parent, key, structuredClone(modification.value));
      return;
    case 'INCREMENT_FIELD': {
      if (current !== undefined && current !== null && typeof current !== 'number') {
        throw invalid(`Cannot increment [${name}]: it holds ${JSON.stringify(current)}, not a number.`);
      }
      const sum = (typeof current === 'number' ? current : 0) + modification.value;
      if (!Number.isFinite(sum)) throw invalid(`Cannot increment [${name}]: the result is not a finite number.`);
      setOwn(parent, key, sum);
      return;
    }
    case 'APPEND_TO_ARRAY': {
      if (current !== undefined && current !== null && !Array.isArray(current)) {
        throw invalid(`Cannot append to [${name}]: it is not an array.`);
      }
      setOwn(parent, key, [...(Array.isArray(current) ? current : []), structuredClone(modification.value)]);
      return;
    }
    case 'REMOVE_FROM_ARRAY': {
      if (current === undefined || current === null) return;
      if (!Array.isArray(current)) throw invalid(`Cannot remove from [${name}]: it is not an array.`);
      const removed = canonicaliseDates(modification.value);
      setOwn(parent, key, current.filter((element) => !jsonEqual(canonicaliseDates(element), removed)));
      return;
    }
  }
}

/** The object holding the path's last key; with `create`, missing objects on the way are made. */
function parentOf(item: JsonObject, path: readonly string[], create: boolean): JsonObject | undefined {
  let node = item;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (isPlainObject(next)) {
      node = next;
    } else if (create && (next === undefined || next === null)) {
      const child: JsonObject = {};
      setOwn(node, key, child);
      node = child;
    } else {
      return undefined;
    }
  }
  return node;
}

function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, i) => jsonEqual(value, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}
