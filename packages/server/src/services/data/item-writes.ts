// What every item write shares (data/service.ts): the call's shapes, reading inputs into outcomes,
// who may change a stored item, and batch writes that fail only the items the database refused.
import type { SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { isUniqueViolation } from '../../platform/db.js';
import { compiled, DataErrors, fromDatabaseError } from './errors.js';
import { readItemId, readItemInput, type ItemInput } from './items.js';
import type { Access, Operation } from './permissions.js';
import { fieldExpr } from './query-basics.js';
import { compileFilter } from './query-filters.js';
import * as store from './store.js';
import { isPlainObject, type JsonObject, type JsonValue } from './wire-values.js';

export type BulkAction = 'INSERT' | 'UPDATE' | 'PATCH' | 'DELETE';

/** One item of a bulk call: what happened to it. */
export type ItemOutcome =
  | { index: number; id: string; action: BulkAction; data: JsonObject }
  | { index: number; id: string | undefined; action: BulkAction; error: ApiError };

export interface IncludeReference {
  field: string;
  limit: number;
}

export interface PatchRequest {
  dataItemId: unknown;
  fieldModifications: unknown;
}

export interface ReferenceRequest {
  referringItemFieldName: unknown;
  referringItemId: unknown;
  referencedItemId: unknown;
}

export interface ReferencedResult {
  referringItemId: string;
  referencedCollectionId: string;
  referencedItemId: string;
  data?: JsonObject;
  unauthorized?: boolean;
}
// ---------------------------------------------------------------------------------- helpers

export type Entry = { index: number; input: ItemInput; data: JsonObject };

export const ITEM_CREATED = 'data_item.created';

export const VERBS: Record<Operation, string> = { read: 'read', insert: 'insert', update: 'update', remove: 'remove' };

export function single(outcomes: ItemOutcome[]): JsonObject {
  const [outcome] = outcomes;
  if (!outcome) throw new ApiError(500, 'INTERNAL_ERROR', 'Internal error');
  if ('error' in outcome) throw outcome.error;
  return outcome.data;
}

export function readInputs(collectionId: string, items: readonly unknown[], action: BulkAction, requireId: boolean) {
  const inputs: { index: number; input: ItemInput }[] = [];
  const outcomes: ItemOutcome[] = [];
  items.forEach((wire, index) => {
    try {
      inputs.push({ index, input: readItemInput(wire, collectionId, { requireId, newId }) });
    } catch (error) {
      outcomes.push({ index, id: undefined, action, error: asApiError(error) });
    }
  });
  return { inputs, outcomes };
}

export function byIndex(outcomes: ItemOutcome[]): ItemOutcome[] {
  return [...outcomes].sort((a, b) => a.index - b.index);
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  throw error;
}

export function ownedBy(data: JsonObject, access: Access): boolean {
  return access.kind !== 'own' || data._owner === access.ownerId;
}

/** Why a stored item may not be changed, or undefined when it may. */
export function refusal(
  collectionId: string,
  itemId: string,
  stored: { data: JsonObject; matches: boolean } | undefined,
  access: Access,
  conditional: boolean,
  operation: 'update' | 'remove',
): ApiError | undefined {
  if (!stored) return DataErrors.itemNotFound(itemId, collectionId);
  if (access.kind === 'denied' || !ownedBy(stored.data, access)) return DataErrors.permissionDenied(operation, collectionId);
  if (conditional && !stored.matches) return DataErrors.itemNotMatching(itemId, collectionId);
  return undefined;
}

export function systemOf(data: JsonObject | undefined): { createdDate: JsonValue | undefined; owner: JsonValue | undefined } {
  return { createdDate: data?._createdDate, owner: data?._owner };
}

/** Admins (back office, API keys) may set the owner, e.g. when importing; anyone else owns what they insert. */
export function ownerFor(ctx: RequestContext, data: JsonObject): string {
  const admin = ctx.caller.kind === 'WIX_USER' || ctx.caller.kind === 'APP';
  return admin && typeof data._owner === 'string' ? data._owner : ctx.caller.subjectId;
}

export function checkFilter(filter: unknown): void {
  compiled(() => compileFilter(filter, []));
}

/** `fields` of a get (a lone value when it came from a query string). */
export function readFieldList(fields: unknown): string[] {
  if (fields === undefined || fields === null) return [];
  const list: unknown[] = Array.isArray(fields) ? fields : [fields];
  return list.map((field) => {
    compiled(() => fieldExpr(String(field)));
    return String(field);
  });
}

export function jsonOf(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value ?? {})) as JsonObject;
}


export function groupReferences(references: readonly ReferenceRequest[]): Map<string, store.ReferencePair[]> {
  const groups = new Map<string, store.ReferencePair[]>();
  for (const reference of references) {
    if (!isPlainObject(reference)) throw DataErrors.invalidModification('Each reference is an object with referringItemFieldName, referringItemId and referencedItemId.');
    const field = typeof reference.referringItemFieldName === 'string' ? reference.referringItemFieldName : String(reference.referringItemFieldName);
    const pair = { referringItemId: readItemId(reference.referringItemId), referencedItemId: readItemId(reference.referencedItemId) };
    groups.set(field, [...(groups.get(field) ?? []), pair]);
  }
  return groups;
}

/**
 * Writes a batch under a savepoint. When the database refuses one of its rows (a unique index, an
 * index row too large, an unstorable value), the batch is rolled back and its rows are written one
 * by one, each under its own savepoint, so only the offending items fail. With `optimistic`, a
 * cheaper statement that fails on any conflict is tried first, and `write` only when it fails.
 */
export async function writeGuarded<T extends { id: string }>(
  tx: SiteContext,
  rows: readonly T[],
  write: (batch: readonly T[]) => Promise<Set<string>>,
  uniqueViolation: (id: string) => ApiError,
  optimistic?: (batch: readonly T[]) => Promise<Set<string>>,
): Promise<{ written: Set<string>; failed: Map<string, ApiError> }> {
  if (optimistic) {
    await tx.db.query('SAVEPOINT data_write_all');
    try {
      const written = await optimistic(rows);
      await tx.db.query('RELEASE SAVEPOINT data_write_all');
      return { written, failed: new Map() };
    } catch (error) {
      if (itemError(error, '') === undefined) throw error;
      await tx.db.query('ROLLBACK TO SAVEPOINT data_write_all');
      await tx.db.query('RELEASE SAVEPOINT data_write_all');
    }
  }
  await tx.db.query('SAVEPOINT data_write');
  try {
    const written = await write(rows);
    await tx.db.query('RELEASE SAVEPOINT data_write');
    return { written, failed: new Map() };
  } catch (error) {
    if (itemError(error, '') === undefined) throw error;
    await tx.db.query('ROLLBACK TO SAVEPOINT data_write');
    await tx.db.query('RELEASE SAVEPOINT data_write');
  }
  const written = new Set<string>();
  const failed = new Map<string, ApiError>();
  for (const row of rows) {
    await tx.db.query('SAVEPOINT data_write_one');
    try {
      for (const id of await write([row])) written.add(id);
      await tx.db.query('RELEASE SAVEPOINT data_write_one');
    } catch (error) {
      const refused = itemError(error, row.id, uniqueViolation);
      if (refused === undefined) throw error;
      await tx.db.query('ROLLBACK TO SAVEPOINT data_write_one');
      await tx.db.query('RELEASE SAVEPOINT data_write_one');
      failed.set(row.id, refused);
    }
  }
  return { written, failed };
}

/** The item's error for what the database refused about it, or undefined for any other failure. */
function itemError(error: unknown, id: string, uniqueViolation?: (id: string) => ApiError): ApiError | undefined {
  if (isUniqueViolation(error)) return uniqueViolation?.(id) ?? DataErrors.uniqueViolation(id, '');
  const mapped = fromDatabaseError(error);
  return mapped instanceof ApiError ? mapped : undefined;
}
