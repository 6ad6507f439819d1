/**
 * Data items: the domain rules of every item call. Writes run in one transaction per call; a bulk
 * call is split into runs in which each id appears once, each run a few set-based statements.
 * Items that will change are locked first (SELECT … FOR UPDATE in id order), so concurrent writes
 * serialise per item and none is lost; each change records its outbox event in the same transaction.
 */
import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { recordEvents } from '../../platform/events.js';
import { CollectionsService } from './collections-service.js';
import { referenceField, type StoredCollection } from './collections.js';
import { compiled, DataErrors } from './errors.js';
import { applyFieldModifications, readFieldModifications, type FieldModification } from './field-modifications.js';
import { ITEM_ENTITY_TYPE, itemEvent, itemPayload, MAX_BULK, readItemId, stampNew, stampReplacement, uniqueRuns, type ItemInput } from './items.js';
import { accessFor, restrictionOf, type Access, type Operation } from './permissions.js';
import { compileAggregate, compileCount, compileDistinct, compileQuery, compileSearch } from './query-compiler.js';
import type { Page, PagingMetadata } from './query-paging.js';
import * as store from './store.js';
import { isPlainObject, projectFields, type JsonObject, type JsonValue } from './wire-values.js';
import { DataJobs } from './jobs.js';
import { type BulkAction, type Entry, ITEM_CREATED, type IncludeReference, type ItemOutcome, type PatchRequest, type ReferenceRequest, type ReferencedResult, VERBS, asApiError, byIndex, checkFilter, groupReferences, jsonOf, ownedBy, ownerFor, readFieldList, readInputs, refusal, single, systemOf, writeGuarded } from './item-writes.js';

export { CollectionsService, DataJobs };
export type { BulkAction, IncludeReference, ItemOutcome, ReferencedResult } from './item-writes.js';


export class DataService {
  constructor(
    readonly collections: CollectionsService,
    readonly jobs: DataJobs,
  ) {}

  // ------------------------------------------------------------------------------- reads

  async get(ctx: RequestContext, collectionId: unknown, itemId: unknown, options: { fields?: unknown; includeReferences?: IncludeReference[] } = {}): Promise<JsonObject> {
    const collection = await this.collections.load(ctx, collectionId);
    const id = readItemId(itemId);
    const access = this.access(ctx, collection, 'read');
    const data = await store.getItem(ctx, collection.id, id);
    if (!data || !ownedBy(data, access)) throw DataErrors.itemNotFound(id, collection.id);
    const fields = readFieldList(options.fields);
    const [item] = await this.includeReferences(ctx, collection, [projectFields(data, fields) as JsonObject], options.includeReferences ?? []);
    return item;
  }

  async query(ctx: RequestContext, collectionId: unknown, request: { query: unknown; returnTotalCount?: unknown; includeReferences?: IncludeReference[] }): Promise<Page> {
    const collection = await this.collections.load(ctx, collectionId);
    const restrict = restrictionOf(this.access(ctx, collection, 'read'));
    const plan = compiled(() => compileQuery(ctx.siteId, collection.id, request.query, { returnTotalCount: request.returnTotalCount === true, restrict }));
    const page = await store.runPage(ctx, plan);
    return this.withReferences(ctx, collection, page, request.includeReferences ?? []);
  }

  async search(ctx: RequestContext, collectionId: unknown, request: { search: unknown; returnTotalCount?: unknown; includeReferences?: IncludeReference[] }): Promise<Page> {
    const collection = await this.collections.load(ctx, collectionId);
    const restrict = restrictionOf(this.access(ctx, collection, 'read'));
    const plan = compiled(() => compileSearch(ctx.siteId, collection.id, request.search, { returnTotalCount: request.returnTotalCount === true, restrict }));
    const page = await store.runPage(ctx, plan);
    return this.withReferences(ctx, collection, page, request.includeReferences ?? []);
  }

  async count(ctx: RequestContext, collectionId: unknown, filter: unknown): Promise<number> {
    const collection = await this.collections.load(ctx, collectionId);
    const restrict = restrictionOf(this.access(ctx, collection, 'read'));
    return store.runCount(ctx, compiled(() => compileCount(ctx.siteId, collection.id, filter, { restrict })));
  }

  async distinct(ctx: RequestContext, collectionId: unknown, request: Record<string, unknown>): Promise<Page> {
    const collection = await this.collections.load(ctx, collectionId);
    const restrict = restrictionOf(this.access(ctx, collection, 'read'));
    return store.runPage(ctx, compiled(() => compileDistinct(ctx.siteId, collection.id, request, { restrict })));
  }

  async aggregate(ctx: RequestContext, collectionId: unknown, request: Record<string, unknown>): Promise<Page> {
    const collection = await this.collections.load(ctx, collectionId);
    const restrict = restrictionOf(this.access(ctx, collection, 'read'));
    return store.runPage(ctx, compiled(() => compileAggregate(ctx.siteId, collection.id, request, { restrict })));
  }

  // ------------------------------------------------------------------------------- writes

  async insert(ctx: RequestContext, collectionId: unknown, item: unknown): Promise<JsonObject> {
    return single(await this.bulkInsert(ctx, collectionId, [item]));
  }

  async update(ctx: RequestContext, collectionId: unknown, item: unknown, condition?: unknown): Promise<JsonObject> {
    return single(await this.bulkUpdate(ctx, collectionId, [item], condition));
  }

  async save(ctx: RequestContext, collectionId: unknown, item: unknown): Promise<JsonObject> {
    return single(await this.bulkSave(ctx, collectionId, [item]));
  }

  async patch(ctx: RequestContext, collectionId: unknown, patch: PatchRequest, condition?: unknown): Promise<JsonObject> {
    return single(await this.bulkPatch(ctx, collectionId, [patch], condition));
  }

  async remove(ctx: RequestContext, collectionId: unknown, itemId: unknown, condition?: unknown): Promise<JsonObject> {
    return single(await this.bulkRemove(ctx, collectionId, [itemId], condition));
  }

  async bulkInsert(ctx: RequestContext, collectionId: unknown, items: readonly unknown[]): Promise<ItemOutcome[]> {
    const collection = await this.collections.load(ctx, collectionId);
    if (items.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    const access = this.access(ctx, collection, 'insert');
    const { inputs, outcomes } = readInputs(collection.id, items, 'INSERT', false);
    return withTransaction(ctx, async (tx) => {
      for (const run of uniqueRuns(inputs, (entry) => entry.input.id)) {
        outcomes.push(...(await this.insertRun(tx, ctx, collection, access, run)));
      }
      return byIndex(outcomes);
    });
  }

  async bulkUpdate(ctx: RequestContext, collectionId: unknown, items: readonly unknown[], condition?: unknown): Promise<ItemOutcome[]> {
    const collection = await this.collections.load(ctx, collectionId);
    if (items.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    checkFilter(condition);
    const access = this.access(ctx, collection, 'update');
    const { inputs, outcomes } = readInputs(collection.id, items, 'UPDATE', true);
    return withTransaction(ctx, async (tx) => {
      for (const run of uniqueRuns(inputs, (entry) => entry.input.id)) {
        const locked = await store.lockItems(tx, collection.id, run.map((entry) => entry.input.id), condition);
        const replacements: Entry[] = [];
        for (const entry of run) {
          const stored = locked.get(entry.input.id);
          const refused = refusal(collection.id, entry.input.id, stored, access, condition !== undefined, 'update');
          if (refused) outcomes.push({ index: entry.index, id: entry.input.id, action: 'UPDATE', error: refused });
          else replacements.push({ ...entry, data: stampReplacement(entry.input, systemOf(stored?.data), ctx.now()) });
        }
        outcomes.push(...(await this.replaceRun(tx, ctx, collection, replacements, 'UPDATE')));
      }
      return byIndex(outcomes);
    });
  }

  /** Inserts new ids and replaces stored ones; each side needs its own permission. */
  async bulkSave(ctx: RequestContext, collectionId: unknown, items: readonly unknown[]): Promise<ItemOutcome[]> {
    const collection = await this.collections.load(ctx, collectionId);
    if (items.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    const insertAccess = this.access(ctx, collection, 'insert', false);
    const updateAccess = this.access(ctx, collection, 'update', false);
    if (insertAccess.kind === 'denied' && updateAccess.kind === 'denied') throw DataErrors.permissionDenied('save', collection.id);
    const { inputs, outcomes } = readInputs(collection.id, items, 'INSERT', false);
    return withTransaction(ctx, async (tx) => {
      for (const run of uniqueRuns(inputs, (entry) => entry.input.id)) {
        const locked = await store.lockItems(tx, collection.id, run.map((entry) => entry.input.id), undefined);
        const fresh = run.filter((entry) => !locked.has(entry.input.id));
        const replacements: Entry[] = [];
        for (const entry of run.filter((candidate) => locked.has(candidate.input.id))) {
          const stored = locked.get(entry.input.id);
          const refused = refusal(collection.id, entry.input.id, stored, updateAccess, false, 'update');
          if (refused) outcomes.push({ index: entry.index, id: entry.input.id, action: 'UPDATE', error: refused });
          else replacements.push({ ...entry, data: stampReplacement(entry.input, systemOf(stored?.data), ctx.now()) });
        }
        outcomes.push(...(await this.replaceRun(tx, ctx, collection, replacements, 'UPDATE')));
        outcomes.push(...(await this.insertRun(tx, ctx, collection, insertAccess, fresh)));
      }
      return byIndex(outcomes);
    });
  }

  async bulkPatch(ctx: RequestContext, collectionId: unknown, patches: readonly PatchRequest[], condition?: unknown): Promise<ItemOutcome[]> {
    const collection = await this.collections.load(ctx, collectionId);
    if (patches.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    checkFilter(condition);
    const access = this.access(ctx, collection, 'update');
    const outcomes: ItemOutcome[] = [];
    const requests: { index: number; id: string; modifications: FieldModification[] }[] = [];
    patches.forEach((patch, index) => {
      try {
        requests.push({ index, id: readItemId(patch.dataItemId), modifications: readFieldModifications(patch.fieldModifications) });
      } catch (error) {
        outcomes.push({ index, id: typeof patch.dataItemId === 'string' ? patch.dataItemId : undefined, action: 'PATCH', error: asApiError(error) });
      }
    });
    return withTransaction(ctx, async (tx) => {
      for (const run of uniqueRuns(requests, (request) => request.id)) {
        // Row lock: the patch is computed from the locked item, so concurrent increments add up.
        const locked = await store.lockItems(tx, collection.id, run.map((request) => request.id), condition);
        const patched: Entry[] = [];
        for (const request of run) {
          const stored = locked.get(request.id);
          const refused = refusal(collection.id, request.id, stored, access, condition !== undefined, 'update');
          if (refused || !stored) {
            outcomes.push({ index: request.index, id: request.id, action: 'PATCH', error: refused ?? DataErrors.itemNotFound(request.id, collection.id) });
            continue;
          }
          try {
            const data = applyFieldModifications(stored.data, request.modifications);
            data._updatedDate = { $date: ctx.now().toISOString() };
            patched.push({ index: request.index, input: { id: request.id, data }, data });
          } catch (error) {
            outcomes.push({ index: request.index, id: request.id, action: 'PATCH', error: asApiError(error) });
          }
        }
        outcomes.push(...(await this.replaceRun(tx, ctx, collection, patched, 'PATCH')));
      }
      return byIndex(outcomes);
    });
  }

  async bulkRemove(ctx: RequestContext, collectionId: unknown, itemIds: readonly unknown[], condition?: unknown): Promise<ItemOutcome[]> {
    const collection = await this.collections.load(ctx, collectionId);
    if (itemIds.length > MAX_BULK) throw DataErrors.tooManyIds(collection.id);
    checkFilter(condition);
    const access = this.access(ctx, collection, 'remove');
    const outcomes: ItemOutcome[] = [];
    const requests: { index: number; id: string }[] = [];
    itemIds.forEach((itemId, index) => {
      try {
        requests.push({ index, id: readItemId(itemId) });
      } catch (error) {
        outcomes.push({ index, id: undefined, action: 'DELETE', error: asApiError(error) });
      }
    });
    return withTransaction(ctx, async (tx) => {
      for (const run of uniqueRuns(requests, (request) => request.id)) {
        const locked = await store.lockItems(tx, collection.id, run.map((request) => request.id), condition);
        const removable: { index: number; id: string; data: JsonObject }[] = [];
        for (const request of run) {
          const stored = locked.get(request.id);
          const refused = refusal(collection.id, request.id, stored, access, condition !== undefined, 'remove');
          if (refused || !stored) outcomes.push({ index: request.index, id: request.id, action: 'DELETE', error: refused ?? DataErrors.itemNotFound(request.id, collection.id) });
          else removable.push({ ...request, data: stored.data });
        }
        await store.deleteItems(tx, collection.id, removable.map((entry) => entry.id));
        await recordEvents(tx, removable.map((entry) => itemEvent(ctx.siteId, collection.id, 'data_item.deleted', entry.id, { dataCollectionId: collection.id, dataItemId: entry.id })));
        outcomes.push(...removable.map((entry) => ({ index: entry.index, id: entry.id, action: 'DELETE' as const, data: entry.data })));
      }
      return byIndex(outcomes);
    });
  }

  /** Removes every item of the collection (one event for the collection, not one per item). */
  async truncate(ctx: RequestContext, collectionId: unknown): Promise<number> {
    const collection = await this.collections.load(ctx, collectionId);
    if (this.access(ctx, collection, 'remove').kind !== 'all') throw DataErrors.permissionDenied('remove', collection.id);
    return withTransaction(ctx, async (tx) => {
      const removed = await store.truncateItems(tx, collection.id);
      await recordEvents(tx, [
        { siteId: ctx.siteId, type: 'data_items.truncated', entityType: 'wix.data.v2.data_collection', entityId: collection.id, payload: { dataCollectionId: collection.id, removed } },
      ]);
      return removed;
    });
  }

  // ------------------------------------------------------------------------------- async by filter

  async startPatchByFilter(ctx: RequestContext, collectionId: unknown, filter: unknown, fieldModifications: unknown): Promise<string> {
    const collection = await this.collections.load(ctx, collectionId);
    checkFilter(filter);
    readFieldModifications(fieldModifications);
    const restrict = this.jobRestriction(ctx, collection, 'update');
    return this.jobs.start(ctx.siteId, collection.id, 'PATCH_BY_FILTER', { filter: jsonOf(filter), fieldModifications: jsonOf(fieldModifications), ...restrict });
  }

  async startRemoveByFilter(ctx: RequestContext, collectionId: unknown, filter: unknown): Promise<string> {
    const collection = await this.collections.load(ctx, collectionId);
    checkFilter(filter);
    const restrict = this.jobRestriction(ctx, collection, 'remove');
    return this.jobs.start(ctx.siteId, collection.id, 'REMOVE_BY_FILTER', { filter: jsonOf(filter), ...restrict });
  }

  async jobStatus(ctx: RequestContext, jobId: unknown): Promise<{ status: store.JobStatus; successCount: number }> {
    const job = typeof jobId === 'string' ? await store.getJob(ctx, jobId) : undefined;
    if (!job) throw DataErrors.jobNotFound(String(jobId));
    return { status: job.status, successCount: job.successCount };
  }

  private jobRestriction(ctx: RequestContext, collection: StoredCollection, operation: Operation): { restrict?: JsonObject } {
    const access = this.access(ctx, collection, operation);
    const restrict = restrictionOf(access);
    return restrict ? { restrict: jsonOf(restrict) } : {};
  }

  // ------------------------------------------------------------------------------- references

  async insertReferences(ctx: RequestContext, collectionId: unknown, references: readonly ReferenceRequest[]): Promise<void> {
    const collection = await this.collections.load(ctx, collectionId);
    if (references.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    await withTransaction(ctx, async (tx) => {
      for (const [fieldName, pairs] of groupReferences(references)) {
        const key = this.referenceKey(collection, fieldName);
        await this.checkReferring(tx, ctx, collection, pairs.map((pair) => pair.referringItemId));
        const referenced = await store.getItems(tx, key.referencedCollectionId, pairs.map((pair) => pair.referencedItemId));
        const missing = pairs.find((pair) => !referenced.has(pair.referencedItemId));
        if (missing) throw DataErrors.itemNotFound(missing.referencedItemId, key.referencedCollectionId);
        await store.insertReferences(tx, key, pairs);
      }
    });
  }

  async removeReferences(ctx: RequestContext, collectionId: unknown, references: readonly ReferenceRequest[]): Promise<void> {
    const collection = await this.collections.load(ctx, collectionId);
    if (references.length > MAX_BULK) throw DataErrors.tooManyIds(collection.id);
    await withTransaction(ctx, async (tx) => {
      for (const [fieldName, pairs] of groupReferences(references)) {
        const key = this.referenceKey(collection, fieldName);
        await this.checkReferring(tx, ctx, collection, pairs.map((pair) => pair.referringItemId));
        await store.removeReferences(tx, key, pairs);
      }
    });
  }

  async replaceReferences(ctx: RequestContext, collectionId: unknown, fieldName: unknown, referringItemId: unknown, newReferencedItemIds: readonly unknown[]): Promise<void> {
    const collection = await this.collections.load(ctx, collectionId);
    if (newReferencedItemIds.length > MAX_BULK) throw DataErrors.tooManyItems(collection.id);
    const key = this.referenceKey(collection, fieldName);
    const referring = readItemId(referringItemId);
    const referencedIds = [...new Set(newReferencedItemIds.map(readItemId))];
    await withTransaction(ctx, async (tx) => {
      await this.checkReferring(tx, ctx, collection, [referring]);
      const referenced = await store.getItems(tx, key.referencedCollectionId, referencedIds);
      const missing = referencedIds.find((id) => !referenced.has(id));
      if (missing !== undefined) throw DataErrors.itemNotFound(missing, key.referencedCollectionId);
      await store.clearReferences(tx, key, referring);
      await store.insertReferences(tx, key, referencedIds.map((referencedItemId) => ({ referringItemId: referring, referencedItemId })));
    });
  }

  async isReferenced(ctx: RequestContext, collectionId: unknown, fieldName: unknown, referringItemId: unknown, referencedItemId: unknown): Promise<boolean> {
    const collection = await this.collections.load(ctx, collectionId);
    const key = this.referenceKey(collection, fieldName);
    const pair = { referringItemId: readItemId(referringItemId), referencedItemId: readItemId(referencedItemId) };
    await this.checkReadable(ctx, collection, [pair.referringItemId]);
    return store.isReferenced(ctx, key, pair);
  }

  /**
   * The items referenced through a multi-reference field, in the order they were added. Items the
   * caller may not read come back as unresolved references marked unauthorized.
   */
  async queryReferenced(
    ctx: RequestContext,
    collectionId: unknown,
    request: { referringItemIds: readonly unknown[]; fieldName: unknown; desc: boolean; limit: number; offset: number; total: boolean; fields?: unknown },
  ): Promise<{ results: ReferencedResult[]; pagingMetadata: PagingMetadata }> {
    const collection = await this.collections.load(ctx, collectionId);
    const key = this.referenceKey(collection, request.fieldName);
    const referringIds = request.referringItemIds.map(readItemId);
    await this.checkReadable(ctx, collection, referringIds);
    const referencedCollection = await this.collections.load(ctx, key.referencedCollectionId);
    const readAccess = this.access(ctx, referencedCollection, 'read', false);
    const fields = readFieldList(request.fields);
    const { rows, total } = await store.referencedPage(ctx, key, referringIds, {
      desc: request.desc,
      limit: request.limit + 1,
      offset: request.offset,
      total: request.total,
    });
    const page = rows.slice(0, request.limit);
    const results = page.map((row): ReferencedResult => {
      const base = { referringItemId: row.referringItemId, referencedCollectionId: key.referencedCollectionId, referencedItemId: row.referencedItemId };
      if (!row.data) return base;
      if (readAccess.kind === 'denied' || !ownedBy(row.data, readAccess)) return { ...base, unauthorized: true };
      return { ...base, data: projectFields(row.data, fields) as JsonObject };
    });
    const counted = total === undefined ? {} : { total, tooManyToCount: false };
    return { results, pagingMetadata: { count: page.length, offset: request.offset, ...counted, hasNext: rows.length > request.limit, cursors: {} } };
  }

  // ------------------------------------------------------------------------------- helpers

  private access(ctx: RequestContext, collection: StoredCollection, operation: Operation, refuse = true): Access {
    const access = accessFor(collection.permissions, operation, ctx.caller);
    if (refuse && access.kind === 'denied') throw DataErrors.permissionDenied(VERBS[operation], collection.id);
    return access;
  }

  private referenceKey(collection: StoredCollection, fieldName: unknown): store.ReferenceKey {
    const name = typeof fieldName === 'string' ? fieldName : String(fieldName);
    const field = referenceField(collection.fields, name);
    if (!field || field.kind !== 'MULTI_REFERENCE') throw DataErrors.notMultiReference(name);
    return { collectionId: collection.id, fieldName: name, referencedCollectionId: field.referencedCollectionId };
  }

  /** Changing an item's references is updating it: it must exist and the caller may update it. */
  private async checkReferring(tx: SiteContext, ctx: RequestContext, collection: StoredCollection, itemIds: readonly string[]): Promise<void> {
    const access = this.access(ctx, collection, 'update');
    const stored = await store.getItems(tx, collection.id, itemIds);
    for (const id of itemIds) {
      const data = stored.get(id);
      if (!data) throw DataErrors.itemNotFound(id, collection.id);
      if (!ownedBy(data, access)) throw DataErrors.permissionDenied('update', collection.id);
    }
  }

  private async checkReadable(ctx: RequestContext, collection: StoredCollection, itemIds: readonly string[]): Promise<void> {
    const access = this.access(ctx, collection, 'read');
    if (access.kind === 'all') return;
    const stored = await store.getItems(ctx, collection.id, itemIds);
    for (const id of itemIds) {
      const data = stored.get(id);
      if (!data || !ownedBy(data, access)) throw DataErrors.itemNotFound(id, collection.id);
    }
  }

  private async insertRun(tx: SiteContext, ctx: RequestContext, collection: StoredCollection, access: Access, run: readonly { index: number; input: ItemInput }[]): Promise<ItemOutcome[]> {
    if (run.length === 0) return [];
    if (access.kind === 'denied') return run.map((entry) => ({ index: entry.index, id: entry.input.id, action: 'INSERT', error: DataErrors.permissionDenied('insert', collection.id) }));
    const now = ctx.now().toISOString();
    const rows = run.map((entry) => ({ index: entry.index, id: entry.input.id, data: stampNew(entry.input, now, ownerFor(ctx, entry.input.data)) }));
    // The common case, no id taken yet: items and events in one statement. Otherwise the guarded
    // write finds the items that fail, and the events of those written follow.
    let recorded = false;
    const { written, failed } = await writeGuarded(
      tx,
      rows,
      (batch) => store.insertItems(tx, collection.id, batch),
      (id) => DataErrors.uniqueViolation(id, collection.id),
      async (batch) => {
        const ids = await store.insertNewItemsWithEvents(tx, collection.id, batch, { type: ITEM_CREATED, entityType: ITEM_ENTITY_TYPE });
        recorded = true;
        return ids;
      },
    );
    if (!recorded) {
      await recordEvents(tx, rows.filter((row) => written.has(row.id)).map((row) => itemEvent(ctx.siteId, collection.id, ITEM_CREATED, row.id, itemPayload(collection.id, row.data))));
    }
    return rows.map((row): ItemOutcome => {
      if (written.has(row.id)) return { index: row.index, id: row.id, action: 'INSERT', data: row.data };
      return { index: row.index, id: row.id, action: 'INSERT', error: failed.get(row.id) ?? DataErrors.itemExists(row.id, collection.id) };
    });
  }

  private async replaceRun(tx: SiteContext, ctx: RequestContext, collection: StoredCollection, entries: readonly Entry[], action: BulkAction): Promise<ItemOutcome[]> {
    if (entries.length === 0) return [];
    const rows = entries.map((entry) => ({ index: entry.index, id: entry.input.id, data: entry.data }));
    const replace = async (batch: readonly typeof rows[number][]) => {
      await store.replaceItems(tx, collection.id, batch);
      return new Set(batch.map((row) => row.id));
    };
    const { written, failed } = await writeGuarded(tx, rows, replace, (id) => DataErrors.uniqueViolation(id, collection.id));
    await recordEvents(tx, rows.filter((row) => written.has(row.id)).map((row) => itemEvent(ctx.siteId, collection.id, 'data_item.updated', row.id, itemPayload(collection.id, row.data))));
    return rows.map((row): ItemOutcome =>
      written.has(row.id)
        ? { index: row.index, id: row.id, action, data: row.data }
        : { index: row.index, id: row.id, action, error: failed.get(row.id) ?? DataErrors.itemNotFound(row.id, collection.id) },
    );
  }

  /** includeReferences: REFERENCE fields become the referenced item, MULTI_REFERENCE fields the list of them. */
  private async includeReferences(ctx: RequestContext, collection: StoredCollection, items: JsonObject[], include: readonly IncludeReference[]): Promise<JsonObject[]> {
    if (include.length === 0 || items.length === 0) return items;
    const result = items.map((item) => ({ ...item }));
    for (const { field, limit } of include) {
      const reference = referenceField(collection.fields, field);
      if (!reference) continue;
      const target = await store.findCollection(ctx, reference.referencedCollectionId);
      if (!target) continue;
      const access = this.access(ctx, target, 'read', false);
      if (access.kind === 'denied') continue;
      if (reference.kind === 'REFERENCE') {
        const ids = result.map((item) => item[field]).filter((value): value is string => typeof value === 'string');
        const found = await store.getItems(ctx, target.id, ids);
        for (const item of result) {
          const referenced = typeof item[field] === 'string' ? found.get(item[field]) : undefined;
          if (referenced && ownedBy(referenced, access)) item[field] = referenced;
        }
        continue;
      }
      const key = { collectionId: collection.id, fieldName: field, referencedCollectionId: target.id };
      const ids = result.map((item) => item._id).filter((value): value is string => typeof value === 'string');
      const rows = await store.referencedByItem(ctx, key, ids, limit);
      const byItem = new Map<string, JsonValue[]>();
      for (const row of rows) {
        if (!row.data || !ownedBy(row.data, access)) continue;
        byItem.set(row.referringItemId, [...(byItem.get(row.referringItemId) ?? []), row.data]);
      }
      for (const item of result) if (typeof item._id === 'string') item[field] = byItem.get(item._id) ?? [];
    }
    return result;
  }

  private async withReferences(ctx: RequestContext, collection: StoredCollection, page: Page, include: readonly IncludeReference[]): Promise<Page> {
    if (include.length === 0) return page;
    const items = page.items.filter((item): item is JsonObject => isPlainObject(item)) as JsonObject[];
    return { ...page, items: await this.includeReferences(ctx, collection, items, include) };
  }
}
