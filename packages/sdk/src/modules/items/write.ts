/** Patch builders and bulk results (wire-surface §5.1). */
import type { FieldViolation } from '../../core/errors.js';
import { checkFieldName, describe } from './checks.js';
import type { DataItem } from './query.js';
import type { DataOptions } from './request.js';
import { ITEM_ALREADY_EXISTS, ITEM_NOT_FOUND, wde } from './wde.js';
import type { DataFilter, Filter } from './filter.js';
import type { BulkDataItemResult } from '../../generated/data-items.js';

export type FieldModificationAction =
  | 'SET_FIELD' | 'INCREMENT_FIELD' | 'APPEND_TO_ARRAY' | 'REMOVE_FROM_ARRAY' | 'REMOVE_FIELD';

/** A field modification in the direct form: `{ fieldPath, action, value }`. */
export interface FieldModification {
  fieldPath: string;
  action: FieldModificationAction;
  value?: unknown;
}

const OPTION_KEY: Record<FieldModificationAction, string | undefined> = {
  SET_FIELD: 'setFieldOptions',
  INCREMENT_FIELD: 'incrementFieldOptions',
  APPEND_TO_ARRAY: 'appendToArrayOptions',
  REMOVE_FROM_ARRAY: 'removeFromArrayOptions',
  REMOVE_FIELD: undefined,
};

/** Checks a modification and returns its wire form. */
export function wireModification(modification: FieldModification): Record<string, unknown> {
  checkFieldName(modification.fieldPath);
  if (modification.action === 'INCREMENT_FIELD' && typeof modification.value !== 'number') {
    throw wde(`WDE0032: Invalid incrementField parameter [${describe(modification.value)}]. incrementField parameter must be a number.`);
  }
  const key = OPTION_KEY[modification.action];
  return {
    action: modification.action,
    fieldPath: modification.fieldPath,
    ...(key ? { [key]: { value: modification.value } } : {}),
  };
}

export interface PatchOptions extends DataOptions {
  condition?: DataFilter | Filter;
}

/** The chainable form of `patch` and `bulkPatch`; `run` sends it. */
export class DataPatch<Result> {
  readonly #modifications: FieldModification[];
  readonly #send: (modifications: FieldModification[], options?: PatchOptions) => Promise<Result>;

  constructor(
    send: (modifications: FieldModification[], options?: PatchOptions) => Promise<Result>,
    modifications: FieldModification[] = [],
  ) {
    this.#send = send;
    this.#modifications = modifications;
  }

  #add(modification: FieldModification): DataPatch<Result> {
    return new DataPatch(this.#send, [...this.#modifications, modification]);
  }

  setField(fieldPath: string, value: unknown): DataPatch<Result> {
    return this.#add({ fieldPath, action: 'SET_FIELD', value });
  }
  incrementField(fieldPath: string, by: number): DataPatch<Result> {
    return this.#add({ fieldPath, action: 'INCREMENT_FIELD', value: by });
  }
  appendToArray(fieldPath: string, value: unknown): DataPatch<Result> {
    return this.#add({ fieldPath, action: 'APPEND_TO_ARRAY', value });
  }
  removeFromArray(fieldPath: string, value: unknown): DataPatch<Result> {
    return this.#add({ fieldPath, action: 'REMOVE_FROM_ARRAY', value });
  }
  removeField(fieldPath: string): DataPatch<Result> {
    return this.#add({ fieldPath, action: 'REMOVE_FIELD' });
  }
  run(options?: PatchOptions): Promise<Result> {
    return this.#send(this.#modifications, options);
  }
}

// ─── Bulk results ────────────────────────────────────────────────────────────────────────────────

export class BulkError extends Error {
  override readonly name = 'BulkError';
  readonly code?: string;
  readonly originalIndex: number;
  readonly item?: DataItem;
  readonly violations?: FieldViolation[];

  constructor(message: string, init: { code?: string; originalIndex: number; item?: DataItem; violations?: FieldViolation[] }) {
    super(message);
    this.code = init.code;
    this.originalIndex = init.originalIndex;
    this.item = init.item;
    this.violations = init.violations;
  }
}

export interface BulkResult {
  inserted: number;
  updated: number;
  removed: number;
  skipped: number;
  errors: BulkError[];
  insertedItemIds: string[];
  updatedItemIds: string[];
  removedItemIds: string[];
}


export type BulkKind = 'insert' | 'save' | 'update' | 'remove' | 'patch';

/** Folds per-item results; "not found" (update/remove/patch) and "already exists" (insert) are skips. */
export function bulkResult(results: BulkDataItemResult[], kind: BulkKind, items: DataItem[] = []): BulkResult {
  const out: BulkResult = {
    inserted: 0, updated: 0, removed: 0, skipped: 0, errors: [],
    insertedItemIds: [], updatedItemIds: [], removedItemIds: [],
  };
  const skippable = kind === 'insert' ? ITEM_ALREADY_EXISTS : kind === 'save' ? undefined : ITEM_NOT_FOUND;
  results.forEach((result, position) => {
    const meta = result.itemMetadata;
    const id = meta.id ?? '';
    if (meta.success) {
      if (result.action === 'INSERT') {
        out.inserted += 1;
        out.insertedItemIds.push(id);
      } else if (result.action === 'DELETE') {
        out.removed += 1;
        out.removedItemIds.push(id);
      } else {
        out.updated += 1;
        out.updatedItemIds.push(id);
      }
      return;
    }
    const code = meta.error?.code;
    if (code !== undefined && code === skippable) {
      out.skipped += 1;
      return;
    }
    const originalIndex = meta.originalIndex ?? position;
    out.errors.push(
      new BulkError(meta.error?.description ?? 'Unknown error', {
        code,
        originalIndex,
        item: items[originalIndex],
        violations: fieldViolations(meta.error?.data),
      }),
    );
  });
  return out;
}

/** The field violations a failed item's error data carries (a list of {field, description}), if any. */
function fieldViolations(data: Record<string, unknown> | undefined): FieldViolation[] | undefined {
  const list = data?.fieldViolations;
  return Array.isArray(list) ? list.filter((v): v is FieldViolation => typeof v === 'object' && v !== null) : undefined;
}

/** A reference given as an id or as an item with an `_id`. */
export function referenceId(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as DataItem)._id === 'string') {
    return (value as { _id: string })._id;
  }
  throw wde('WDE0019: Reference operation takes a string ID or an object with an ID to be connected.');
}
