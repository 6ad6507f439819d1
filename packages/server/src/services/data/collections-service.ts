/**
 * Data collections and their indexes: the domain rules. Collections change rarely and only from
 * the back office (WIX_USER) or an API key (APP); routes admit no one else.
 */
import { isUniqueViolation, type Db } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction } from '../../platform/context.js';
import { recordEvent } from '../../platform/events.js';
import { recordAudit, settingsChange } from '../../platform/audit.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { readCollection, readCollectionId, readField, INDEX_LIMITS, type StoredCollection, type StoredField } from './collections.js';
import { DataErrors } from './errors.js';
import { createIndexSql, dropIndexSql, pgIndexName, readIndex, readIndexName, type StoredIndex } from './indexes.js';
import { DEFAULT_PERMISSIONS } from './permissions.js';
import * as store from './store.js';

export interface ListPage {
  limit: number;
  offset: number;
}

/**
 * Every item call reads its collection's permissions. Like sites, definitions are cached for a
 * moment: a change made through this server is seen at once, one made through another server
 * within CACHE_MS. Misses are not cached, so a new collection is usable at once everywhere.
 */
const CACHE_MS = 2000;
const CACHE_SIZE = 10_000;

export class CollectionsService {
  private readonly cache: TtlCache<string, StoredCollection>;

  /** `ddl`: the pool, for index builds, which run outside any transaction (CONCURRENTLY). */
  constructor(private readonly ddl: Db, now: () => Date) {
    this.cache = new TtlCache({ ttlMs: CACHE_MS, maxSize: CACHE_SIZE, now });
  }

  /** The collection an item call names, or WDE0025. */
  async load(ctx: RequestContext, collectionId: unknown): Promise<StoredCollection> {
    const id = typeof collectionId === 'string' ? collectionId : '';
    const key = JSON.stringify([ctx.siteId, id]);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const collection = id === '' ? undefined : await store.findCollection(ctx, id);
    if (!collection) throw DataErrors.collectionNotFound(String(collectionId ?? ''));
    this.cache.set(key, collection);
    return collection;
  }

  private forget(siteId: string, collectionId: string): void {
    this.cache.delete(JSON.stringify([siteId, collectionId]));
  }

  async create(ctx: RequestContext, wire: unknown): Promise<StoredCollection> {
    const definition = readCollection(wire, DEFAULT_PERMISSIONS);
    return withTransaction(ctx, async (tx) => {
      const created = await store.insertCollection(tx, definition);
      if (!created) throw DataErrors.collectionExists(definition.id);
      await recordEvent(tx, collectionEvent(ctx, 'data_collection.created', created));
      return created;
    });
  }

  async get(ctx: RequestContext, collectionId: unknown): Promise<StoredCollection> {
    return this.load(ctx, collectionId);
  }

  async list(ctx: RequestContext, page: ListPage, desc: boolean): Promise<{ collections: StoredCollection[]; total: number }> {
    return store.listCollections(ctx, { ...page, desc });
  }

  /** Replaces the definition; a given revision must be the current one (optimistic, under a row lock). */
  async update(ctx: RequestContext, wire: unknown): Promise<StoredCollection> {
    const definition = readCollection(wire, DEFAULT_PERMISSIONS);
    const updated = await withTransaction(ctx, async (tx) => {
      const current = await store.findCollectionForUpdate(tx, definition.id);
      if (!current) throw DataErrors.collectionNotFound(definition.id);
      if (definition.revision !== undefined && definition.revision !== String(current.revision)) {
        throw DataErrors.revisionMismatch(definition.id, String(current.revision));
      }
      const saved = await store.updateCollection(tx, definition);
      if (!saved) throw DataErrors.collectionNotFound(definition.id);
      await recordEvent(tx, collectionEvent(ctx, 'data_collection.updated', saved));
      // Who may read and write a collection is access: its change is on record (other edits are not).
      const changed = settingsChange({ ...current.permissions }, { ...saved.permissions });
      if (changed) await recordAudit(tx, { action: 'data_collection.permissions_updated', objectType: 'data_collection', objectId: saved.id, ...changed });
      return saved;
    });
    this.forget(ctx.siteId, definition.id);
    return updated;
  }

  async delete(ctx: RequestContext, collectionId: unknown): Promise<void> {
    const id = readCollectionId(collectionId);
    const { pgIndexes } = await withTransaction(ctx, async (tx) => {
      const current = await store.findCollectionForUpdate(tx, id);
      if (!current) throw DataErrors.collectionNotFound(id);
      const removed = await store.deleteCollection(tx, id);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'data_collection.deleted', entityType: 'wix.data.v2.data_collection', entityId: id, payload: { dataCollectionId: id } });
      return removed;
    });
    this.forget(ctx.siteId, id);
    await this.dropPgIndexes(pgIndexes);
  }

  /** create-field, update-field, delete-field: one field of the definition, under a row lock. */
  async changeField(
    ctx: RequestContext,
    collectionId: unknown,
    change: { kind: 'create' | 'update'; field: unknown } | { kind: 'delete'; fieldKey: unknown },
  ): Promise<StoredCollection> {
    const id = readCollectionId(collectionId);
    const updated = await withTransaction(ctx, async (tx) => {
      const current = await store.findCollectionForUpdate(tx, id);
      if (!current) throw DataErrors.collectionNotFound(id);
      const fields = applyFieldChange(current.fields, change);
      const saved = await store.updateCollection(tx, { ...current, fields });
      if (!saved) throw DataErrors.collectionNotFound(id);
      await recordEvent(tx, collectionEvent(ctx, 'data_collection.updated', saved));
      // Who may read and write a collection is access: its change is on record (other edits are not).
      const changed = settingsChange({ ...current.permissions }, { ...saved.permissions });
      if (changed) await recordAudit(tx, { action: 'data_collection.permissions_updated', objectType: 'data_collection', objectId: saved.id, ...changed });
      return saved;
    });
    this.forget(ctx.siteId, id);
    return updated;
  }

  // ------------------------------------------------------------------------------- indexes

  /**
   * Builds the index before answering. On PostgreSQL it is built CONCURRENTLY (outside a
   * transaction) so that writes to other collections go on meanwhile; a build that fails (a
   * duplicate under a unique index) leaves the index FAILED with WDE0113, as the official API does.
   */
  async createIndex(ctx: RequestContext, collectionId: unknown, wire: unknown): Promise<StoredIndex> {
    const collection = await this.load(ctx, collectionId);
    const index = readIndex(wire);
    const existing = await store.listIndexes(ctx, collection.id);
    const unique = existing.filter((candidate) => candidate.unique).length + (index.unique ? 1 : 0);
    if (existing.length >= INDEX_LIMITS.total || unique > INDEX_LIMITS.unique) {
      throw DataErrors.indexProblem(400, `Collection [${collection.id}] already has the most indexes allowed (${INDEX_LIMITS.total}, ${INDEX_LIMITS.unique} unique).`);
    }
    const pgIndex = pgIndexName(ctx.siteId, collection.id, index.name);
    if (!(await store.insertIndex(ctx, collection.id, index, pgIndex))) {
      throw DataErrors.indexProblem(409, `Collection [${collection.id}] already has an index named [${index.name}].`);
    }
    const concurrently = this.ddl.kind === 'postgres';
    try {
      for (const statement of createIndexSql(pgIndex, ctx.siteId, collection.id, index, concurrently)) await this.ddl.exec(statement);
      await store.setIndexStatus(ctx, collection.id, index.name, 'ACTIVE', null);
      return { ...index, status: 'ACTIVE', failure: null };
    } catch (error) {
      await this.dropPgIndexes([{ pgIndex, unique: index.unique }]).catch(() => undefined);
      const failure = isUniqueViolation(error)
        ? { code: 'WDE0113', description: `Duplicate key error while building index [${index.name}]: two items share a value.` }
        : (error as { code?: unknown }).code === '54000'
          ? { code: 'WDE0114', description: `An item holds a value too large for index [${index.name}].` }
          : { code: 'WDE0112', description: `Unknown error while building index [${index.name}].` };
      await store.setIndexStatus(ctx, collection.id, index.name, 'FAILED', failure);
      return { ...index, status: 'FAILED', failure };
    }
  }

  async dropIndex(ctx: RequestContext, collectionId: unknown, indexName: unknown): Promise<void> {
    const collection = await this.load(ctx, collectionId);
    const name = readIndexName(indexName);
    const dropped = await store.deleteIndex(ctx, collection.id, name);
    if (dropped === undefined) throw DataErrors.indexProblem(404, `Collection [${collection.id}] has no index named [${name}].`);
    await this.dropPgIndexes([dropped]);
  }

  /** On PostgreSQL concurrently, so that other collections' writes go on meanwhile. */
  private async dropPgIndexes(indexes: readonly store.PgIndexRef[]): Promise<void> {
    for (const { pgIndex, unique } of indexes) {
      for (const statement of dropIndexSql(pgIndex, unique, this.ddl.kind === 'postgres')) await this.ddl.exec(statement);
    }
  }

  async listIndexes(ctx: RequestContext, collectionId: unknown, page: ListPage): Promise<{ indexes: StoredIndex[]; total: number }> {
    const collection = await this.load(ctx, collectionId);
    const all = await store.listIndexes(ctx, collection.id);
    return { indexes: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
}

function applyFieldChange(
  fields: readonly StoredField[],
  change: { kind: 'create' | 'update'; field: unknown } | { kind: 'delete'; fieldKey: unknown },
): StoredField[] {
  if (change.kind === 'delete') {
    const kept = fields.filter((field) => field.key !== change.fieldKey);
    if (kept.length === fields.length) throw DataErrors.invalidCollection(`There is no field [${String(change.fieldKey)}].`);
    return kept;
  }
  const field = readField(change.field);
  const at = fields.findIndex((candidate) => candidate.key === field.key);
  if (change.kind === 'create') {
    if (at >= 0) throw DataErrors.invalidCollection(`Field [${field.key}] already exists.`);
    return [...fields, field];
  }
  if (at < 0) throw DataErrors.invalidCollection(`There is no field [${field.key}].`);
  return fields.map((candidate, i) => (i === at ? field : candidate));
}

function collectionEvent(ctx: RequestContext, type: string, collection: StoredCollection) {
  return {
    siteId: ctx.siteId,
    type,
    entityType: 'wix.data.v2.data_collection',
    entityId: collection.id,
    payload: { dataCollectionId: collection.id, revision: String(collection.revision) },
  };
}

