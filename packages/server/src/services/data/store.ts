/**
 * SQL for the data store's tables. Every statement is scoped by site_id first; every value is a
 * parameter (filters through the query compiler). Many rows travel as one JSON parameter read with
 * jsonb_to_recordset, so a 1000-item bulk call is one statement.
 */
import type { DbContext, SiteContext } from '../../platform/context.js';
import { prepared, type Row } from '../../platform/db.js';
import { outboxInsertFrom } from '../../platform/events.js';
import type { StoredCollection, StoredField } from './collections.js';
import { compiled } from './errors.js';
import type { IndexDefinition, IndexField, IndexStatus, StoredIndex } from './indexes.js';
import type { Permissions } from './permissions.js';
import { compileFilter } from './query-filters.js';
import { readPage, type Page, type PagePlan, type PageRow } from './query-paging.js';
import type { JsonObject } from './wire-values.js';

// ---------------------------------------------------------------- collections

type CollectionRow = Row & {
  collection_id: string;
  display_name: string | null;
  display_field: string | null;
  fields: StoredField[];
  permissions: Permissions;
  revision: number;
  created_at: Date;
  updated_at: Date;
};

const toCollection = (row: CollectionRow): StoredCollection => ({
  id: row.collection_id,
  displayName: row.display_name,
  displayField: row.display_field,
  fields: row.fields,
  permissions: row.permissions,
  revision: Number(row.revision),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export async function findCollection(ctx: SiteContext, collectionId: string): Promise<StoredCollection | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<CollectionRow>('SELECT * FROM data_collections WHERE site_id = $1 AND collection_id = $2', [siteId, collectionId]);
  return rows[0] && toCollection(rows[0]);
}

export async function findCollectionForUpdate(ctx: SiteContext, collectionId: string): Promise<StoredCollection | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<CollectionRow>('SELECT * FROM data_collections WHERE site_id = $1 AND collection_id = $2 FOR UPDATE', [siteId, collectionId]);
  return rows[0] && toCollection(rows[0]);
}

export async function listCollections(
  ctx: SiteContext,
  page: { limit: number; offset: number; desc: boolean },
): Promise<{ collections: StoredCollection[]; total: number }> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<CollectionRow>(
    `SELECT * FROM data_collections WHERE site_id = $1 ORDER BY collection_id ${page.desc ? 'DESC' : 'ASC'} LIMIT $2 OFFSET $3`,
    [siteId, page.limit, page.offset],
  );
  const count = await q.query<{ total: number }>('SELECT count(*)::int AS total FROM data_collections WHERE site_id = $1', [siteId]);
  return { collections: rows.map(toCollection), total: count[0]?.total ?? 0 };
}

export interface CollectionWrite {
  id: string;
  displayName: string | null;
  displayField: string | null;
  fields: StoredField[];
  permissions: Permissions;
}

export async function insertCollection(ctx: SiteContext, collection: CollectionWrite): Promise<StoredCollection | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<CollectionRow>(
    `INSERT INTO data_collections (site_id, collection_id, display_name, display_field, fields, permissions)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb) ON CONFLICT (site_id, collection_id) DO NOTHING RETURNING *`,
    [siteId, collection.id, collection.displayName, collection.displayField, JSON.stringify(collection.fields), JSON.stringify(collection.permissions)],
  );
  return rows[0] && toCollection(rows[0]);
}

export async function updateCollection(ctx: SiteContext, collection: CollectionWrite): Promise<StoredCollection | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<CollectionRow>(
    `UPDATE data_collections SET display_name = $3, display_field = $4, fields = $5::jsonb, permissions = $6::jsonb,
       revision = revision + 1, updated_at = now()
     WHERE site_id = $1 AND collection_id = $2 RETURNING *`,
    [siteId, collection.id, collection.displayName, collection.displayField, JSON.stringify(collection.fields), JSON.stringify(collection.permissions)],
  );
  return rows[0] && toCollection(rows[0]);
}

/** Removes the collection with its items, links both ways, index records and jobs; returns its PostgreSQL indexes. */
export interface PgIndexRef {
  pgIndex: string;
  unique: boolean;
}

export async function deleteCollection(ctx: SiteContext, collectionId: string): Promise<{ deleted: boolean; pgIndexes: PgIndexRef[] }> {
  const { db: q, siteId } = ctx;
  const params = [siteId, collectionId];
  await q.query('DELETE FROM data_items WHERE site_id = $1 AND collection_id = $2', params);
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND collection_id = $2', params);
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND referenced_collection_id = $2', params);
  await q.query('DELETE FROM data_jobs WHERE site_id = $1 AND collection_id = $2', params);
  const indexes = await q.query<{ pg_index: string; is_unique: boolean }>(
    'DELETE FROM data_indexes WHERE site_id = $1 AND collection_id = $2 RETURNING pg_index, is_unique',
    params,
  );
  const deleted = await q.query('DELETE FROM data_collections WHERE site_id = $1 AND collection_id = $2 RETURNING collection_id', params);
  return { deleted: deleted.length > 0, pgIndexes: indexes.map((row) => ({ pgIndex: row.pg_index, unique: row.is_unique })) };
}

// ---------------------------------------------------------------- items

type ItemRow = Row & { item_id: string; data: JsonObject };
type LockedRow = ItemRow & { matches: boolean };

export interface ItemWrite {
  id: string;
  data: JsonObject;
}

export async function getItem(ctx: SiteContext, collectionId: string, itemId: string): Promise<JsonObject | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<ItemRow>(
    'SELECT item_id, data FROM data_items WHERE site_id = $1 AND collection_id = $2 AND item_id = $3',
    [siteId, collectionId, itemId],
  );
  return rows[0]?.data;
}

export async function getItems(ctx: SiteContext, collectionId: string, itemIds: readonly string[]): Promise<Map<string, JsonObject>> {
  const { db: q, siteId } = ctx;
  if (itemIds.length === 0) return new Map();
  const rows = await q.query<ItemRow>(
    'SELECT item_id, data FROM data_items WHERE site_id = $1 AND collection_id = $2 AND item_id = ANY($3::text[])',
    [siteId, collectionId, [...new Set(itemIds)]],
  );
  return new Map(rows.map((row) => [row.item_id, row.data]));
}

/**
 * Locks the stored items among `itemIds` (FOR UPDATE, in id order so that two bulk calls cannot
 * deadlock) and says for each whether it matches `condition` (a wire filter, absent = all match).
 */
export async function lockItems(
  ctx: SiteContext,
  collectionId: string,
  itemIds: readonly string[],
  condition: unknown,
): Promise<Map<string, { data: JsonObject; matches: boolean }>> {
  const { db: q, siteId } = ctx;
  if (itemIds.length === 0) return new Map();
  const params: unknown[] = [siteId, collectionId, [...itemIds]];
  const matches = compiled(() => compileFilter(condition, params));
  const rows = await q.query<LockedRow>(
    `SELECT item_id, data, COALESCE(${matches}, FALSE) AS matches FROM data_items
     WHERE site_id = $1 AND collection_id = $2 AND item_id = ANY($3::text[]) ORDER BY item_id FOR UPDATE`,
    params,
  );
  return new Map(rows.map((row) => [row.item_id, { data: row.data, matches: row.matches }]));
}

/** Inserts the items whose id is free; returns the ids inserted. */
export async function insertItems(ctx: SiteContext, collectionId: string, items: readonly ItemWrite[]): Promise<Set<string>> {
  const { db: q, siteId } = ctx;
  if (items.length === 0) return new Set();
  const rows = await q.query<{ item_id: string }>(
    `INSERT INTO data_items (site_id, collection_id, item_id, data)
     SELECT $1, $2, r.id, r.data FROM jsonb_to_recordset($3::jsonb) AS r(id text, data jsonb)
     ON CONFLICT (site_id, collection_id, item_id) DO NOTHING RETURNING item_id`,
    [siteId, collectionId, JSON.stringify(items)],
  );
  return new Set(rows.map((row) => row.item_id));
}

/**
 * Inserts items none of whose ids is stored, with each one's created event, in one statement: a
 * plain INSERT, cheaper than insertItems' ON CONFLICT (no speculative insertion); a stored id fails
 * it with a unique violation, after which the caller falls back to insertItems. The items travel
 * once: PostgreSQL writes each event from its item (the payload is items.ts itemPayload, built
 * here as jsonb; the event id a random UUID, as newEventId gives).
 */
export async function insertNewItemsWithEvents(
  ctx: SiteContext,
  collectionId: string,
  items: readonly ItemWrite[],
  event: { type: string; entityType: string },
): Promise<Set<string>> {
  const { db: q, siteId } = ctx;
  if (items.length === 0) return new Set();
  await q.query(INSERT_NEW_WITH_EVENTS, [siteId, collectionId, JSON.stringify(items), event.type, event.entityType]);
  return new Set(items.map((item) => item.id));
}

const INSERT_NEW_WITH_EVENTS = prepared(`WITH r AS (SELECT r.id, r.data FROM jsonb_to_recordset($3::jsonb) AS r(id text, data jsonb)),
  item AS (INSERT INTO data_items (site_id, collection_id, item_id, data) SELECT $1::text, $2::text, r.id, r.data FROM r)
  ${outboxInsertFrom({
    siteId: '$1::text',
    eventId: 'gen_random_uuid()::text',
    type: '$4::text',
    entityType: '$5::text',
    entityId: "$2::text || '/' || r.id",
    payload: "jsonb_build_object('dataCollectionId', $2::text, 'dataItemId', r.id, 'dataItem', r.data)",
  }, 'r')}`);

/** Replaces the data of stored items (locked by the caller). */
export async function replaceItems(ctx: SiteContext, collectionId: string, items: readonly ItemWrite[]): Promise<void> {
  const { db: q, siteId } = ctx;
  if (items.length === 0) return;
  await q.query(
    `UPDATE data_items AS t SET data = r.data FROM jsonb_to_recordset($3::jsonb) AS r(id text, data jsonb)
     WHERE t.site_id = $1 AND t.collection_id = $2 AND t.item_id = r.id`,
    [siteId, collectionId, JSON.stringify(items)],
  );
}

/** Deletes items and every reference from or to them; returns the ids deleted. */
export async function deleteItems(ctx: SiteContext, collectionId: string, itemIds: readonly string[]): Promise<Set<string>> {
  const { db: q, siteId } = ctx;
  if (itemIds.length === 0) return new Set();
  const params = [siteId, collectionId, [...itemIds]];
  const rows = await q.query<{ item_id: string }>(
    'DELETE FROM data_items WHERE site_id = $1 AND collection_id = $2 AND item_id = ANY($3::text[]) RETURNING item_id',
    params,
  );
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND collection_id = $2 AND referring_item_id = ANY($3::text[])', params);
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND referenced_collection_id = $2 AND referenced_item_id = ANY($3::text[])', params);
  return new Set(rows.map((row) => row.item_id));
}

export async function truncateItems(ctx: SiteContext, collectionId: string): Promise<number> {
  const { db: q, siteId } = ctx;
  const params = [siteId, collectionId];
  const rows = await q.query<{ total: number }>(
    'WITH gone AS (DELETE FROM data_items WHERE site_id = $1 AND collection_id = $2 RETURNING 1) SELECT count(*)::int AS total FROM gone',
    params,
  );
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND collection_id = $2', params);
  await q.query('DELETE FROM data_references WHERE site_id = $1 AND referenced_collection_id = $2', params);
  return rows[0]?.total ?? 0;
}

/** The next items matching a filter after `afterId` in id order, locked: one batch of a job. */
export async function lockBatchByFilter(
  ctx: SiteContext,
  collectionId: string,
  filter: unknown,
  afterId: string,
  limit: number,
): Promise<{ id: string; data: JsonObject }[]> {
  const { db: q, siteId } = ctx;
  const params: unknown[] = [siteId, collectionId, afterId, limit];
  const where = compiled(() => compileFilter(filter, params));
  const rows = await q.query<ItemRow>(
    `SELECT item_id, data FROM data_items WHERE site_id = $1 AND collection_id = $2 AND item_id > $3 AND ${where}
     ORDER BY item_id LIMIT $4 FOR UPDATE`,
    params,
  );
  return rows.map((row) => ({ id: row.item_id, data: row.data }));
}

/** Runs a compiled page: the rows, and the total when the plan counts one. */
export async function runPage(ctx: SiteContext, plan: PagePlan): Promise<Page> {
  const q = ctx.db;
  const [rows, counted] = await Promise.all([
    q.query<PageRow>(plan.sql.sql, plan.sql.params),
    plan.countSql ? q.query<{ total: number }>(plan.countSql.sql, plan.countSql.params) : Promise.resolve(undefined),
  ]);
  return readPage(plan, rows, counted?.[0]?.total);
}

export async function runCount(ctx: SiteContext, sql: { sql: string; params: unknown[] }): Promise<number> {
  const q = ctx.db;
  const rows = await q.query<{ total: number }>(sql.sql, sql.params);
  return rows[0]?.total ?? 0;
}

// ---------------------------------------------------------------- references

export interface ReferenceKey {
  collectionId: string;
  fieldName: string;
  referencedCollectionId: string;
}

export interface ReferencePair {
  referringItemId: string;
  referencedItemId: string;
}

export async function insertReferences(ctx: SiteContext, key: ReferenceKey, pairs: readonly ReferencePair[]): Promise<void> {
  const { db: q, siteId } = ctx;
  if (pairs.length === 0) return;
  // Rows go in request order, so positions follow it.
  await q.query(
    `INSERT INTO data_references (site_id, collection_id, referring_item_id, field_name, referenced_item_id, referenced_collection_id)
     SELECT $1, $2, r.pair->>'referring', $3, r.pair->>'referenced', $4
     FROM jsonb_array_elements($5::jsonb) WITH ORDINALITY AS r(pair, n) ORDER BY r.n
     ON CONFLICT (site_id, collection_id, referring_item_id, field_name, referenced_item_id) DO NOTHING`,
    [siteId, key.collectionId, key.fieldName, key.referencedCollectionId, JSON.stringify(pairs.map((p) => ({ referring: p.referringItemId, referenced: p.referencedItemId })))],
  );
}

export async function removeReferences(ctx: SiteContext, key: ReferenceKey, pairs: readonly ReferencePair[]): Promise<void> {
  const { db: q, siteId } = ctx;
  if (pairs.length === 0) return;
  await q.query(
    `DELETE FROM data_references AS d USING jsonb_to_recordset($4::jsonb) AS r(referring text, referenced text)
     WHERE d.site_id = $1 AND d.collection_id = $2 AND d.field_name = $3
       AND d.referring_item_id = r.referring AND d.referenced_item_id = r.referenced`,
    [siteId, key.collectionId, key.fieldName, JSON.stringify(pairs.map((p) => ({ referring: p.referringItemId, referenced: p.referencedItemId })))],
  );
}

export async function clearReferences(ctx: SiteContext, key: ReferenceKey, referringItemId: string): Promise<void> {
  const { db: q, siteId } = ctx;
  await q.query(
    'DELETE FROM data_references WHERE site_id = $1 AND collection_id = $2 AND referring_item_id = $3 AND field_name = $4',
    [siteId, key.collectionId, referringItemId, key.fieldName],
  );
}

export interface ReferencedRow {
  referringItemId: string;
  referencedItemId: string;
  /** Absent when the referenced item is gone. */
  data?: JsonObject;
}

type ReferencedDbRow = Row & { referring_item_id: string; referenced_item_id: string; data: JsonObject | null };

const toReferenced = (row: ReferencedDbRow): ReferencedRow => ({
  referringItemId: row.referring_item_id,
  referencedItemId: row.referenced_item_id,
  ...(row.data ? { data: row.data } : {}),
});

const REFERENCED_FROM = `FROM data_references r LEFT JOIN data_items i
  ON i.site_id = r.site_id AND i.collection_id = r.referenced_collection_id AND i.item_id = r.referenced_item_id
  WHERE r.site_id = $1 AND r.collection_id = $2 AND r.field_name = $3 AND r.referring_item_id = ANY($4::text[])`;

/** One page of the items referenced by some items through one field, in the order they were added. */
export async function referencedPage(
  ctx: SiteContext,
  key: ReferenceKey,
  referringItemIds: readonly string[],
  page: { desc: boolean; limit: number; offset: number; total: boolean },
): Promise<{ rows: ReferencedRow[]; total?: number }> {
  const { db: q, siteId } = ctx;
  const params = [siteId, key.collectionId, key.fieldName, [...referringItemIds]];
  const rows = await q.query<ReferencedDbRow>(
    `SELECT r.referring_item_id, r.referenced_item_id, i.data ${REFERENCED_FROM}
     ORDER BY r.position ${page.desc ? 'DESC' : 'ASC'} LIMIT $5 OFFSET $6`,
    [...params, page.limit, page.offset],
  );
  if (!page.total) return { rows: rows.map(toReferenced) };
  const counted = await q.query<{ total: number }>(`SELECT count(*)::int AS total ${REFERENCED_FROM}`, params);
  return { rows: rows.map(toReferenced), total: counted[0]?.total ?? 0 };
}

/** For includeReferences: the first `limit` referenced items of each referring item, in order. */
export async function referencedByItem(
  ctx: SiteContext,
  key: ReferenceKey,
  referringItemIds: readonly string[],
  limit: number,
): Promise<ReferencedRow[]> {
  const { db: q, siteId } = ctx;
  if (referringItemIds.length === 0) return [];
  const rows = await q.query<ReferencedDbRow>(
    `SELECT referring_item_id, referenced_item_id, data FROM (
       SELECT r.referring_item_id, r.referenced_item_id, i.data, r.position,
         row_number() OVER (PARTITION BY r.referring_item_id ORDER BY r.position) AS n
       ${REFERENCED_FROM}) AS ranked
     WHERE n <= $5 ORDER BY referring_item_id, position`,
    [siteId, key.collectionId, key.fieldName, [...referringItemIds], limit],
  );
  return rows.map(toReferenced);
}

export async function isReferenced(ctx: SiteContext, key: ReferenceKey, pair: ReferencePair): Promise<boolean> {
  const { db: q, siteId } = ctx;
  const rows = await q.query(
    `SELECT 1 FROM data_references WHERE site_id = $1 AND collection_id = $2 AND referring_item_id = $3
       AND field_name = $4 AND referenced_item_id = $5`,
    [siteId, key.collectionId, pair.referringItemId, key.fieldName, pair.referencedItemId],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------- indexes

type IndexRow = Row & {
  index_name: string;
  pg_index: string;
  fields: IndexField[];
  is_unique: boolean;
  case_insensitive: boolean;
  status: IndexStatus;
  failure: { code: string; description: string } | null;
};

const toIndex = (row: IndexRow): StoredIndex & { pgIndex: string } => ({
  name: row.index_name,
  fields: row.fields,
  unique: row.is_unique,
  caseInsensitive: row.case_insensitive,
  status: row.status,
  failure: row.failure,
  pgIndex: row.pg_index,
});

export async function listIndexes(ctx: SiteContext, collectionId: string): Promise<(StoredIndex & { pgIndex: string })[]> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<IndexRow>(
    'SELECT * FROM data_indexes WHERE site_id = $1 AND collection_id = $2 ORDER BY created_at, index_name',
    [siteId, collectionId],
  );
  return rows.map(toIndex);
}

export async function insertIndex(ctx: SiteContext, collectionId: string, index: IndexDefinition, pgIndex: string): Promise<boolean> {
  const { db: q, siteId } = ctx;
  const rows = await q.query(
    `INSERT INTO data_indexes (site_id, collection_id, index_name, pg_index, fields, is_unique, case_insensitive, status)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, 'BUILDING') ON CONFLICT (site_id, collection_id, index_name) DO NOTHING RETURNING index_name`,
    [siteId, collectionId, index.name, pgIndex, JSON.stringify(index.fields), index.unique, index.caseInsensitive],
  );
  return rows.length > 0;
}

export async function setIndexStatus(
  ctx: SiteContext,
  collectionId: string,
  name: string,
  status: IndexStatus,
  failure: { code: string; description: string } | null,
): Promise<void> {
  const { db: q, siteId } = ctx;
  await q.query(
    'UPDATE data_indexes SET status = $4, failure = $5::jsonb WHERE site_id = $1 AND collection_id = $2 AND index_name = $3',
    [siteId, collectionId, name, status, failure === null ? null : JSON.stringify(failure)],
  );
}

export async function deleteIndex(ctx: SiteContext, collectionId: string, name: string): Promise<PgIndexRef | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<{ pg_index: string; is_unique: boolean }>(
    'DELETE FROM data_indexes WHERE site_id = $1 AND collection_id = $2 AND index_name = $3 RETURNING pg_index, is_unique',
    [siteId, collectionId, name],
  );
  return rows[0] && { pgIndex: rows[0].pg_index, unique: rows[0].is_unique };
}

// ---------------------------------------------------------------- jobs

export type JobKind = 'PATCH_BY_FILTER' | 'REMOVE_BY_FILTER';
export type JobStatus = 'INITIALIZED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';

export interface JobRecord {
  siteId: string;
  jobId: string;
  collectionId: string;
  kind: JobKind;
  request: JsonObject;
  status: JobStatus;
  successCount: number;
}

type JobRow = Row & {
  site_id: string;
  job_id: string;
  collection_id: string;
  kind: JobKind;
  request: JsonObject;
  status: JobStatus;
  success_count: number;
};

const toJob = (row: JobRow): JobRecord => ({
  siteId: row.site_id,
  jobId: row.job_id,
  collectionId: row.collection_id,
  kind: row.kind,
  request: row.request,
  status: row.status,
  successCount: row.success_count,
});

export async function insertJob(ctx: SiteContext, job: Pick<JobRecord, 'jobId' | 'collectionId' | 'kind' | 'request'>): Promise<void> {
  await ctx.db.query(
    `INSERT INTO data_jobs (site_id, job_id, collection_id, kind, request, status) VALUES ($1, $2, $3, $4, $5::jsonb, 'INITIALIZED')`,
    [ctx.siteId, job.jobId, job.collectionId, job.kind, JSON.stringify(job.request)],
  );
}

export async function getJob(ctx: SiteContext, jobId: string): Promise<JobRecord | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<JobRow>('SELECT * FROM data_jobs WHERE site_id = $1 AND job_id = $2', [siteId, jobId]);
  return rows[0] && toJob(rows[0]);
}

/** Claims a waiting job for this transaction; undefined when it is done or another worker holds it. */
export async function claimJob(ctx: SiteContext, jobId: string): Promise<JobRecord | undefined> {
  const { db: q, siteId } = ctx;
  const rows = await q.query<JobRow>(
    `SELECT * FROM data_jobs WHERE site_id = $1 AND job_id = $2 AND status = 'INITIALIZED' FOR UPDATE SKIP LOCKED`,
    [siteId, jobId],
  );
  return rows[0] && toJob(rows[0]);
}

export async function finishJob(ctx: SiteContext, jobId: string, status: JobStatus, successCount: number, failure?: JsonObject): Promise<void> {
  const { db: q, siteId } = ctx;
  await q.query(
    'UPDATE data_jobs SET status = $3, success_count = $4, failure = $5::jsonb, updated_at = now() WHERE site_id = $1 AND job_id = $2',
    [siteId, jobId, status, successCount, failure === undefined ? null : JSON.stringify(failure)],
  );
}

/** Jobs nobody finished (their server stopped), oldest first. */
export async function waitingJobs(pool: DbContext, limit: number): Promise<{ siteId: string; jobId: string }[]> {
  const rows = await pool.db.query<{ site_id: string; job_id: string }>(
    `SELECT site_id, job_id FROM data_jobs WHERE status = 'INITIALIZED' ORDER BY created_at LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ siteId: row.site_id, jobId: row.job_id }));
}
