/**
 * Data store HTTP: the paths of `@wix/data` (items, collections, indexes) under both prefixes the
 * official SDK uses — `/wix-data` (www and edge.wixapis.com) and `/_api/cloud-data` (a custom
 * apiBaseUrl). Item calls admit every caller and leave the per-collection permission to the
 * service; changing collections and indexes is for the back office and API keys.
 */
import type { TypedApp } from '../../platform/typed-routes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { type RequestContext } from '../../platform/caller.js';
import { toApiError } from '../../platform/errors.js';
import { DATA_COLLECTION_LIMITS } from '../../platform/field-limits.js';
import { toWireCollection } from './collections.js';
import {
  AggregatePage, AvailableIndexes, BulkDataItemsResponse, BulkReferencesResponse, CountResponse, DataCollectionFieldResponse, DataCollectionResponse,
  DataIndexesPage, DataIndexResponse, DataItemResponse, DataItemsPage, DistinctValuesPage, Empty, IsReferencedResponse, JobResponse, JobStatusResponse,
  ListDataCollectionsResponse, ReferencedItemsPage,
} from './wire-schemas.js';
import { dataError, fromDatabaseError } from './errors.js';
import { toWireIndex } from './indexes.js';
import { MAX_BULK, toWireItem } from './items.js';
import type { ListPage } from './collections-service.js';
import type { BulkAction, DataService, IncludeReference, ItemOutcome, ReferencedResult } from './service.js';
import type { Page } from './query-paging.js';
import { isPlainObject, type JsonObject } from './wire-values.js';

export const DATA_PREFIXES = ['/wix-data', '/_api/cloud-data'] as const;

const CollectionId = Type.String({ minLength: 1, maxLength: DATA_COLLECTION_LIMITS.id });
const Anything = Type.Unknown();
const Flag = Type.Optional(Type.Boolean());
const ListPaging = Type.Optional(
  Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
);

const body = <T extends Record<string, TSchema>>(properties: T) => Type.Object({ dataCollectionId: CollectionId, ...properties });

const ItemBody = body({ dataItem: Anything, condition: Type.Optional(Anything), returnEntity: Flag });
const PatchBody = body({ patch: Type.Object({ dataItemId: Anything, fieldModifications: Anything }), condition: Type.Optional(Anything) });
const RemoveBody = body({ dataItemId: Anything, condition: Type.Optional(Anything) });
const QueryBody = body({ query: Type.Optional(Anything), includeReferences: Type.Optional(Anything), referencedItemOptions: Type.Optional(Anything), includeReferencedItems: Type.Optional(Anything), returnTotalCount: Flag });
const SearchBody = body({ search: Type.Optional(Anything), includeReferences: Type.Optional(Anything), referencedItemOptions: Type.Optional(Anything), includeReferencedItems: Type.Optional(Anything), returnTotalCount: Flag });
const CountBody = body({ filter: Type.Optional(Anything) });
const DistinctBody = body({
  fieldName: Type.Optional(Anything),
  filter: Type.Optional(Anything),
  order: Type.Optional(Anything),
  paging: Type.Optional(Anything),
  cursorPaging: Type.Optional(Anything),
  returnTotalCount: Flag,
});
const AggregateBody = body({
  initialFilter: Type.Optional(Anything),
  aggregation: Type.Optional(Anything),
  finalFilter: Type.Optional(Anything),
  sort: Type.Optional(Anything),
  paging: Type.Optional(Anything),
  cursorPaging: Type.Optional(Anything),
  returnTotalCount: Flag,
});
const BulkItemsBody = body({ dataItems: Type.Array(Anything), condition: Type.Optional(Anything), returnEntity: Flag });
const BulkPatchBody = body({
  patches: Type.Array(Type.Object({ dataItemId: Anything, fieldModifications: Anything })),
  condition: Type.Optional(Anything),
  returnEntity: Flag,
});
const BulkRemoveBody = body({ dataItemIds: Type.Array(Anything), condition: Type.Optional(Anything) });
const ReferencesBody = body({ dataItemReferences: Type.Array(Anything) });
const ReplaceReferencesBody = body({ referringItemFieldName: Anything, referringItemId: Anything, newReferencedItemIds: Type.Array(Anything) });
const IsReferencedBody = body({ referringItemFieldName: Anything, referringItemId: Anything, referencedItemId: Anything });
const QueryReferencedBody = body({
  referringItemId: Type.Optional(Anything),
  referringItemIds: Type.Optional(Type.Array(Anything)),
  referringItemFieldName: Anything,
  order: Type.Optional(Type.Union([Type.Literal('ASC'), Type.Literal('DESC')])),
  paging: ListPaging,
  cursorPaging: Type.Optional(Anything),
  fields: Type.Optional(Type.Array(Type.String())),
  returnTotalCount: Flag,
});
const PatchByFilterBody = body({ filter: Anything, fieldModifications: Anything });
const RemoveByFilterBody = body({ filter: Anything });
const GetItemQuery = Type.Object({
  dataCollectionId: CollectionId,
  fields: Type.Optional(Type.Array(Type.String())),
  includeReferences: Type.Optional(Anything),
  referencedItemOptions: Type.Optional(Anything),
  includeReferencedItems: Type.Optional(Anything),
});

const CollectionBody = Type.Object({ collection: Anything });
const CollectionQuery = Type.Object({ dataCollectionId: Type.Optional(Type.String()) });
const ListCollectionsQuery = Type.Object({
  paging: ListPaging,
  sort: Type.Optional(Type.Object({ fieldName: Type.Optional(Type.String()), order: Type.Optional(Type.String()) })),
});
const FieldBody = body({ field: Anything });
const DeleteFieldBody = body({ fieldKey: Type.String({ minLength: 1, maxLength: 1000 }) });
const IndexBody = body({ index: Anything });
const DropIndexQuery = Type.Object({ dataCollectionId: CollectionId, indexName: Type.String({ minLength: 1, maxLength: DATA_COLLECTION_LIMITS.indexName }) });
const ListIndexesQuery = Type.Object({ dataCollectionId: CollectionId, paging: ListPaging });

const ItemParams = Type.Object({ dataItemId: Type.String() });
const JobParams = Type.Object({ jobId: Type.String() });
const CollectionParams = Type.Object({ dataCollectionId: Type.String() });

const anyCaller = { config: { access: 'shop' } } as const;
const backOffice = { config: { access: 'staff' } } as const;

export function dataRoutes(data: DataService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onReady', async () => {
      void data.jobs.resumeWaiting().catch(() => undefined);
    });
    app.addHook('onClose', async () => {
      await data.jobs.close();
    });
    // The platform's handler, plus what the database refuses about a request's values (never a 500).
    app.setErrorHandler((error: unknown, req, reply) => {
      const apiError = toApiError(fromDatabaseError(error));
      if (apiError.status >= 500) req.log.error({ err: error }, 'unhandled error');
      return reply.status(apiError.status).send(apiError.toBody());
    });
    for (const prefix of DATA_PREFIXES) registerItemRoutes(app, data, prefix);
    for (const prefix of DATA_PREFIXES) registerCollectionRoutes(app, data, prefix);
  };
}

function registerItemRoutes(app: TypedApp, data: DataService, p: string): void {
  app.get(`${p}/v2/items/:dataItemId`, { ...anyCaller, schema: { params: ItemParams, querystring: GetItemQuery, response: { 200: DataItemResponse } } }, async (req) => {
    const query = req.query;
    const { dataItemId } = req.params;
    const item = await data.get(req.ctx, query.dataCollectionId, dataItemId, { fields: query.fields, includeReferences: readIncludes(query) });
    return { dataItem: toWireItem(query.dataCollectionId, item) };
  });

  app.post(`${p}/v2/items`, { ...anyCaller, schema: { body: ItemBody, response: { 200: DataItemResponse } } }, async (req) => {
    const b = req.body;
    return { dataItem: toWireItem(b.dataCollectionId, await data.insert(req.ctx, b.dataCollectionId, b.dataItem)) };
  });

  app.post(`${p}/v2/items/update`, { ...anyCaller, schema: { body: ItemBody, response: { 200: DataItemResponse } } }, async (req) => {
    const b = req.body;
    return { dataItem: toWireItem(b.dataCollectionId, await data.update(req.ctx, b.dataCollectionId, b.dataItem, conditionOf(b.condition))) };
  });

  app.post(`${p}/v2/items/save`, { ...anyCaller, schema: { body: ItemBody, response: { 200: DataItemResponse } } }, async (req) => {
    const b = req.body;
    return { dataItem: toWireItem(b.dataCollectionId, await data.save(req.ctx, b.dataCollectionId, b.dataItem)) };
  });

  app.post(`${p}/v2/items/patch`, { ...anyCaller, schema: { body: PatchBody, response: { 200: DataItemResponse } } }, async (req) => {
    const b = req.body;
    return { dataItem: toWireItem(b.dataCollectionId, await data.patch(req.ctx, b.dataCollectionId, b.patch, conditionOf(b.condition))) };
  });

  app.post(`${p}/v2/items/remove`, { ...anyCaller, schema: { body: RemoveBody, response: { 200: DataItemResponse } } }, async (req) => {
    const b = req.body;
    return { dataItem: toWireItem(b.dataCollectionId, await data.remove(req.ctx, b.dataCollectionId, b.dataItemId, conditionOf(b.condition))) };
  });

  app.post(`${p}/v2/items/truncate`, { ...anyCaller, schema: { body: body({}), response: { 200: Empty } } }, async (req) => {
    await data.truncate(req.ctx, (req.body).dataCollectionId);
    return {};
  });

  // The SDK sends a query as GET with `.r` when the URL fits in 2048 characters, else as POST.
  const query = async (ctx: RequestContext, b: Static<typeof QueryBody>) => {
    const page = await data.query(ctx, b.dataCollectionId, { query: b.query, returnTotalCount: b.returnTotalCount, includeReferences: readIncludes(b) });
    return { dataItems: wireItems(b.dataCollectionId, page), pagingMetadata: page.pagingMetadata };
  };
  app.get(`${p}/v2/items/query`, { ...anyCaller, schema: { querystring: QueryBody, response: { 200: DataItemsPage } } }, async (req) => query(req.ctx, req.query));
  app.post(`${p}/v2/items/query`, { ...anyCaller, schema: { body: QueryBody, response: { 200: DataItemsPage } } }, async (req) => query(req.ctx, req.body));

  app.post(`${p}/v2/items/search`, { ...anyCaller, schema: { body: SearchBody, response: { 200: DataItemsPage } } }, async (req) => {
    const b = req.body;
    const page = await data.search(req.ctx, b.dataCollectionId, { search: b.search, returnTotalCount: b.returnTotalCount, includeReferences: readIncludes(b) });
    return { dataItems: wireItems(b.dataCollectionId, page), pagingMetadata: page.pagingMetadata };
  });

  app.post(`${p}/v2/items/count`, { ...anyCaller, schema: { body: CountBody, response: { 200: CountResponse } } }, async (req) => {
    const b = req.body;
    return { totalCount: await data.count(req.ctx, b.dataCollectionId, b.filter) };
  });

  app.post(`${p}/v2/items/query-distinct-values`, { ...anyCaller, schema: { body: DistinctBody, response: { 200: DistinctValuesPage } } }, async (req) => {
    const b = req.body;
    const page = await data.distinct(req.ctx, b.dataCollectionId, b);
    return { distinctValues: page.items, pagingMetadata: page.pagingMetadata };
  });

  app.post(`${p}/v2/items/aggregate`, { ...anyCaller, schema: { body: AggregateBody, response: { 200: AggregatePage } } }, async (req) => {
    const b = req.body;
    const page = await data.aggregate(req.ctx, b.dataCollectionId, b);
    // Each group is an object (the compiler builds one per row).
    return { results: page.items.filter(isPlainObject), pagingMetadata: page.pagingMetadata };
  });

  // ------------------------------------------------------------------------- bulk

  app.post(`${p}/v2/bulk/items/insert`, { ...anyCaller, schema: { body: BulkItemsBody, response: { 200: BulkDataItemsResponse } } }, async (req) => {
    const b = req.body;
    return bulkResponse(b.dataCollectionId, await data.bulkInsert(req.ctx, b.dataCollectionId, b.dataItems), b.returnEntity === true);
  });

  app.post(`${p}/v2/bulk/items/save`, { ...anyCaller, schema: { body: BulkItemsBody, response: { 200: BulkDataItemsResponse } } }, async (req) => {
    const b = req.body;
    return bulkResponse(b.dataCollectionId, await data.bulkSave(req.ctx, b.dataCollectionId, b.dataItems), b.returnEntity === true);
  });

  app.post(`${p}/v2/bulk/items/update`, { ...anyCaller, schema: { body: BulkItemsBody, response: { 200: BulkDataItemsResponse } } }, async (req) => {
    const b = req.body;
    return bulkResponse(b.dataCollectionId, await data.bulkUpdate(req.ctx, b.dataCollectionId, b.dataItems, conditionOf(b.condition)), b.returnEntity === true);
  });

  app.post(`${p}/v2/bulk/items/patch`, { ...anyCaller, schema: { body: BulkPatchBody, response: { 200: BulkDataItemsResponse } } }, async (req) => {
    const b = req.body;
    return bulkResponse(b.dataCollectionId, await data.bulkPatch(req.ctx, b.dataCollectionId, b.patches, conditionOf(b.condition)), b.returnEntity === true);
  });

  app.post(`${p}/v2/bulk/items/remove`, { ...anyCaller, schema: { body: BulkRemoveBody, response: { 200: BulkDataItemsResponse } } }, async (req) => {
    const b = req.body;
    return bulkResponse(b.dataCollectionId, await data.bulkRemove(req.ctx, b.dataCollectionId, b.dataItemIds, conditionOf(b.condition)), false);
  });

  app.post(`${p}/v2/bulk/items/async-patch-by-filter`, { ...anyCaller, schema: { body: PatchByFilterBody, response: { 200: JobResponse } } }, async (req) => {
    const b = req.body;
    return { jobId: await data.startPatchByFilter(req.ctx, b.dataCollectionId, b.filter, b.fieldModifications) };
  });

  app.post(`${p}/v2/bulk/items/async-remove-by-filter`, { ...anyCaller, schema: { body: RemoveByFilterBody, response: { 200: JobResponse } } }, async (req) => {
    const b = req.body;
    return { jobId: await data.startRemoveByFilter(req.ctx, b.dataCollectionId, b.filter) };
  });

  app.get(`${p}/v2/async-jobs/:jobId/status`, { ...anyCaller, schema: { params: JobParams, response: { 200: JobStatusResponse } } }, async (req) => {
    return data.jobStatus(req.ctx, req.params.jobId);
  });

  // ------------------------------------------------------------------------- references

  app.post(`${p}/v2/bulk/items/insert-references`, { ...anyCaller, schema: { body: ReferencesBody, response: { 200: BulkReferencesResponse } } }, async (req) => {
    const b = req.body;
    const references = b.dataItemReferences.map(readReference);
    await data.insertReferences(req.ctx, b.dataCollectionId, references);
    return referencesResponse(references, 'INSERT');
  });

  app.post(`${p}/v2/bulk/items/remove-references`, { ...anyCaller, schema: { body: ReferencesBody, response: { 200: BulkReferencesResponse } } }, async (req) => {
    const b = req.body;
    const references = b.dataItemReferences.map(readReference);
    await data.removeReferences(req.ctx, b.dataCollectionId, references);
    return referencesResponse(references, 'DELETE');
  });

  app.post(`${p}/v2/items/replace-references`, { ...anyCaller, schema: { body: ReplaceReferencesBody, response: { 200: Empty } } }, async (req) => {
    const b = req.body;
    await data.replaceReferences(req.ctx, b.dataCollectionId, b.referringItemFieldName, b.referringItemId, b.newReferencedItemIds);
    return {};
  });

  app.post(`${p}/v2/items/is-referenced`, { ...anyCaller, schema: { body: IsReferencedBody, response: { 200: IsReferencedResponse } } }, async (req) => {
    const b = req.body;
    return { isReferenced: await data.isReferenced(req.ctx, b.dataCollectionId, b.referringItemFieldName, b.referringItemId, b.referencedItemId) };
  });

  app.post(`${p}/v2/items/query-referenced`, { ...anyCaller, schema: { body: QueryReferencedBody, response: { 200: ReferencedItemsPage } } }, async (req) => {
    const b = req.body;
    if (b.cursorPaging !== undefined) {
      throw dataError(400, 'WDE0902', 'Referenced items page by offset: send paging {limit, offset} (no cursor is issued).');
    }
    const referringItemIds = b.referringItemIds ?? (b.referringItemId === undefined ? [] : [b.referringItemId]);
    if (referringItemIds.length === 0 || referringItemIds.length > MAX_BULK) {
      throw dataError(400, 'WDE0036', `Give 1 to ${MAX_BULK} referring items in referringItemId or referringItemIds.`);
    }
    const { results, pagingMetadata } = await data.queryReferenced(req.ctx, b.dataCollectionId, {
      referringItemIds,
      fieldName: b.referringItemFieldName,
      desc: b.order === 'DESC',
      limit: b.paging?.limit ?? 50,
      offset: b.paging?.offset ?? 0,
      total: b.returnTotalCount === true,
      fields: b.fields,
    });
    return { results: results.map((result) => toWireReferenced(b, result)), pagingMetadata };
  });
}

function registerCollectionRoutes(app: TypedApp, data: DataService, p: string): void {
  const collections = data.collections;

  app.post(`${p}/v2/collections`, { ...backOffice, schema: { body: CollectionBody, response: { 200: DataCollectionResponse } } }, async (req) => {
    return { collection: toWireCollection(await collections.create(req.ctx, req.body.collection)) };
  });

  app.put(`${p}/v2/collections`, { ...backOffice, schema: { body: CollectionBody, response: { 200: DataCollectionResponse } } }, async (req) => {
    return { collection: toWireCollection(await collections.update(req.ctx, req.body.collection)) };
  });

  app.get(`${p}/v2/collections/:dataCollectionId`, { ...anyCaller, schema: { params: CollectionParams, querystring: CollectionQuery, response: { 200: DataCollectionResponse } } }, async (req) => {
    return { collection: toWireCollection(await collections.get(req.ctx, req.params.dataCollectionId)) };
  });

  app.get(`${p}/v2/collections`, { ...anyCaller, schema: { querystring: ListCollectionsQuery, response: { 200: ListDataCollectionsResponse } } }, async (req) => {
    const q = req.query;
    const page = listPage(q.paging);
    const { collections: list, total } = await collections.list(req.ctx, page, q.sort?.order?.toUpperCase() === 'DESC');
    return { collections: list.map(toWireCollection), pagingMetadata: { count: list.length, offset: page.offset, total, tooManyToCount: false } };
  });

  app.delete(`${p}/v2/collections/:dataCollectionId`, { ...backOffice, schema: { params: CollectionParams, querystring: CollectionQuery, response: { 200: Empty } } }, async (req) => {
    await collections.delete(req.ctx, req.params.dataCollectionId);
    return {};
  });

  app.post(`${p}/v2/collections/create-field`, { ...backOffice, schema: { body: FieldBody, response: { 200: DataCollectionFieldResponse } } }, async (req) => {
    const b = req.body;
    return { dataCollection: toWireCollection(await collections.changeField(req.ctx, b.dataCollectionId, { kind: 'create', field: b.field })) };
  });

  app.post(`${p}/v2/collections/update-field`, { ...backOffice, schema: { body: FieldBody, response: { 200: DataCollectionFieldResponse } } }, async (req) => {
    const b = req.body;
    return { dataCollection: toWireCollection(await collections.changeField(req.ctx, b.dataCollectionId, { kind: 'update', field: b.field })) };
  });

  app.post(`${p}/v2/collections/delete-field`, { ...backOffice, schema: { body: DeleteFieldBody, response: { 200: DataCollectionFieldResponse } } }, async (req) => {
    const b = req.body;
    return { dataCollection: toWireCollection(await collections.changeField(req.ctx, b.dataCollectionId, { kind: 'delete', fieldKey: b.fieldKey })) };
  });

  // ------------------------------------------------------------------------- indexes

  app.post(`${p}/v2/indexes`, { ...backOffice, schema: { body: IndexBody, response: { 200: DataIndexResponse } } }, async (req) => {
    const b = req.body;
    return { index: toWireIndex(await collections.createIndex(req.ctx, b.dataCollectionId, b.index)) };
  });

  app.delete(`${p}/v2/indexes`, { ...backOffice, schema: { querystring: DropIndexQuery, response: { 200: Empty } } }, async (req) => {
    const q = req.query;
    await collections.dropIndex(req.ctx, q.dataCollectionId, q.indexName);
    return {};
  });

  app.get(`${p}/v2/indexes`, { ...backOffice, schema: { querystring: ListIndexesQuery, response: { 200: DataIndexesPage } } }, async (req) => {
    const q = req.query;
    const page = listPage(q.paging);
    const { indexes, total } = await collections.listIndexes(req.ctx, q.dataCollectionId, page);
    return { indexes: indexes.map(toWireIndex), pagingMetadata: { count: indexes.length, offset: page.offset, total, tooManyToCount: false } };
  });

  app.get(`${p}/v2/indexes/available`, { ...backOffice, schema: { querystring: Type.Object({ dataCollectionId: CollectionId }), response: { 200: AvailableIndexes } } }, async () => {
    return { regular1Field: 20, regular3Field: 20, unique1Field: 5, total: 25 };
  });
}

// ---------------------------------------------------------------------------------- wire helpers

function listPage(paging: { limit?: number; offset?: number } | undefined): ListPage {
  return { limit: paging?.limit ?? 50, offset: paging?.offset ?? 0 };
}

/** `condition: {filter}` as the SDK sends it; an absent condition changes nothing. */
function conditionOf(condition: unknown): unknown {
  if (condition === undefined || condition === null) return undefined;
  if (!isPlainObject(condition)) throw dataError(400, 'WDE0016', 'condition should be an object {filter}.');
  return condition.filter ?? undefined;
}

interface IncludeSpellings {
  /** Current @wix/data: `[{field, limit?}]`. */
  includeReferences?: unknown;
  /** The REST reference of 2024–25: `[{fieldName, limit?}]`. */
  referencedItemOptions?: unknown;
  /** @wix/data of 2024 (1.0.168): field names, up to 50 items each (`includeReferencedItems=pages` on a GET). */
  includeReferencedItems?: unknown;
}

/** Reference inclusion in every generation's spelling, one entry per field (the first one naming it wins). */
function readIncludes(source: IncludeSpellings): IncludeReference[] {
  const list = [source.includeReferences, source.referencedItemOptions, source.includeReferencedItems]
    .flatMap((value): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? (value as unknown[]) : [value]));
  const byField = new Map<string, IncludeReference>();
  for (const entry of list) {
    const field = isPlainObject(entry) ? entry.field ?? entry.fieldName : entry;
    const limit = isPlainObject(entry) && entry.limit !== undefined && entry.limit !== null ? Number(entry.limit) : 50;
    if (typeof field !== 'string' || field === '' || !Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
      throw dataError(400, 'WDE0019', 'includeReferences lists {field, limit?} (referencedItemOptions {fieldName, limit?}, includeReferencedItems field names) with a field name and a limit from 1 to 1000.');
    }
    if (!byField.has(field)) byField.set(field, { field, limit });
  }
  return [...byField.values()];
}

function readReference(value: unknown) {
  if (!isPlainObject(value)) {
    throw dataError(400, 'WDE0019', 'Each reference is an object with referringItemFieldName, referringItemId and referencedItemId.');
  }
  return { referringItemFieldName: value.referringItemFieldName, referringItemId: value.referringItemId, referencedItemId: value.referencedItemId };
}

function wireItems(collectionId: string, page: Page) {
  return page.items.filter(isPlainObject).map((item) => toWireItem(collectionId, item as JsonObject));
}

function bulkResponse(collectionId: string, outcomes: ItemOutcome[], returnEntity: boolean) {
  const results = outcomes.map((outcome) => {
    const metadata = { originalIndex: outcome.index, ...(outcome.id === undefined ? {} : { id: outcome.id }) };
    if ('error' in outcome) {
      const { code, description, data } = outcome.error;
      return { action: outcome.action, itemMetadata: { ...metadata, success: false, error: { code, description, data } } };
    }
    return {
      action: outcome.action,
      itemMetadata: { ...metadata, success: true },
      ...(returnEntity ? { dataItem: toWireItem(collectionId, outcome.data) } : {}),
    };
  });
  const totalSuccesses = outcomes.filter((outcome) => !('error' in outcome)).length;
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: outcomes.length - totalSuccesses, undetailedFailures: 0 } };
}

function referencesResponse(references: ReturnType<typeof readReference>[], action: BulkAction) {
  return {
    results: references.map((reference, index) => ({ action, referenceMetadata: { originalIndex: index, success: true }, dataItemReference: reference })),
    bulkActionMetadata: { totalSuccesses: references.length, totalFailures: 0, undetailedFailures: 0 },
  };
}

function toWireReferenced(request: { dataCollectionId: string; referringItemFieldName: unknown }, result: ReferencedResult) {
  if (result.data) {
    return { referringItemId: result.referringItemId, dataItem: toWireItem(result.referencedCollectionId, result.data) };
  }
  return {
    referringItemId: result.referringItemId,
    unresolvedReference: {
      referringItemId: result.referringItemId,
      referringItemFieldName: request.referringItemFieldName,
      referencedItemId: result.referencedItemId,
      unauthorized: result.unauthorized === true,
    },
  };
}
