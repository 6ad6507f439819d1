/**
 * `@wix/data` items: data item calls with the client checks of spec §5 made before any request
 * and server errors mapped as spec §8 says. Items keep their own `_id`/`$date` form (no renaming).
 */
import { enc } from '../../core/generated.js';
import type { PlainObject } from '../../core/query-string.js';
import type { Transport } from '../../core/transport.js';
import { DataAggregate } from './aggregate.js';
import {
  checkCollection, checkFieldName, checkFilterTree, checkItem, checkItemId, checkItemIds, checkItems, checkOptions,
  checkUpdateItem, cursorError, limitError, skipError, throwIf,
} from './checks.js';
import { newFilter, resolveFilter, type DataFilter, type Filter } from './filter.js';
import { DEFAULT_PAGE_SIZE, makePage, type DataPage, type PageRequest } from './page.js';
import {
  DataQuery, DataSearch, initialQueryState, type DataItem, type FindOptions, type SortEntry,
} from './query.js';
import { dataRequest, readOptions, writeOptions, type DataOptions } from './request.js';
import { hasCode, ITEM_NOT_FOUND, wde } from './wde.js';
import type {
  BulkDataItemsResponse, CountDataItemsResponse, DataItemResponse, DataJobResponse, DataJobStatus, IsReferencedResponse, QueryDistinctValuesResponse,
  QueryReferencedDataItemsResponse,
} from '../../generated/data-items.js';
import {
  bulkResult, DataPatch, referenceId, wireModification, type BulkKind, type BulkResult, type FieldModification,
  type PatchOptions,
} from './write.js';

export interface WriteOptions extends DataOptions {
  /** Only write when the stored item matches. */
  condition?: DataFilter | Filter;
}
export interface BulkInsertOptions extends DataOptions {
  /** Replace items whose `_id` already exists (sent to bulk save). */
  overrideExisting?: boolean;
}
export interface QueryRequest {
  filter?: Filter;
  sort?: SortEntry[];
  paging?: { limit?: number; offset?: number };
  cursorPaging?: { limit?: number; cursor: string };
  fields?: string[];
}
export interface QueryReferencedOptions extends DataOptions {
  limit?: number;
  skip?: number;
  order?: 'ASC' | 'DESC';
  returnTotalCount?: boolean;
  fields?: string[];
}
export interface DistinctRequest {
  filter?: Filter;
  order?: 'ASC' | 'DESC';
  paging?: { limit?: number; offset?: number };
  cursorPaging?: { limit?: number; cursor: string };
  returnTotalCount?: boolean;
}
export type { DataJobResponse as AsyncJob, DataJobStatus as AsyncJobStatus } from '../../generated/data-items.js';


const wireItem = (item: DataItem): PlainObject => ({ id: item._id, data: item });

function conditionOf(options: WriteOptions | undefined): PlainObject {
  return options?.condition === undefined ? {} : { condition: { filter: resolveFilter(options.condition) } };
}

/** `{ limit, offset }` or `{ limit, cursor }` from a direct request, checked. */
function directPage(
  paging: { limit?: number; offset?: number } | undefined,
  cursorPaging: { limit?: number; cursor: string } | undefined,
): PageRequest {
  if (cursorPaging) {
    if (paging?.offset) throw wde('WDE0080: Skip is not supported in cursor paging.');
    if (cursorPaging.limit !== undefined) throwIf(limitError(cursorPaging.limit));
    throwIf(cursorError(cursorPaging.cursor));
    return { limit: cursorPaging.limit ?? DEFAULT_PAGE_SIZE, cursor: cursorPaging.cursor };
  }
  if (paging?.limit !== undefined) throwIf(limitError(paging.limit));
  if (paging?.offset !== undefined) throwIf(skipError(paging.offset));
  return { limit: paging?.limit ?? DEFAULT_PAGE_SIZE, offset: paging?.offset ?? 0 };
}

export function items(t: Transport) {
  async function single(path: string, payload: PlainObject): Promise<DataItem> {
    const body = await dataRequest<DataItemResponse>(t, 'POST', path, payload);
    return body.dataItem?.data as DataItem;
  }

  async function bulk(path: string, payload: PlainObject, kind: BulkKind, sent: DataItem[] = []): Promise<BulkResult> {
    const body = await dataRequest<BulkDataItemsResponse>(t, 'POST', path, payload);
    return bulkResult(body.results ?? [], kind, sent);
  }

  async function patchRequest(collection: string, itemId: string, modifications: FieldModification[], options?: PatchOptions) {
    checkCollection(collection);
    checkItemId(itemId);
    checkOptions(options, [], ['condition']);
    return single('/items/patch', {
      dataCollectionId: collection,
      patch: { dataItemId: itemId, fieldModifications: modifications.map(wireModification) },
      ...writeOptions(options),
      ...conditionOf(options),
    });
  }

  async function bulkPatchRequest(collection: string, ids: string[], modifications: FieldModification[], options?: PatchOptions) {
    checkCollection(collection);
    checkItemIds(ids, collection);
    checkOptions(options, [], ['condition']);
    const fieldModifications = modifications.map(wireModification);
    return bulk(
      '/bulk/items/patch',
      {
        dataCollectionId: collection,
        patches: ids.map((dataItemId) => ({ dataItemId, fieldModifications })),
        ...writeOptions(options),
        ...conditionOf(options),
      },
      'patch',
    );
  }

  async function references(
    path: string,
    collection: string,
    field: string,
    left: string | DataItem,
    right: string | DataItem | (string | DataItem)[],
    options?: DataOptions,
  ): Promise<void> {
    checkCollection(collection);
    checkFieldName(field);
    checkOptions(options);
    const referringItemId = referenceId(left);
    const dataItemReferences = (Array.isArray(right) ? right : [right]).map((entry) => ({
      referringItemFieldName: field,
      referringItemId,
      referencedItemId: referenceId(entry),
    }));
    await dataRequest(t, 'POST', path, { dataCollectionId: collection, dataItemReferences });
  }

  function query(collection: string): DataQuery;
  function query(collection: string, request: QueryRequest, options?: FindOptions): Promise<DataPage<DataItem>>;
  function query(collection: string, request?: QueryRequest, options?: FindOptions): DataQuery | Promise<DataPage<DataItem>> {
    if (request === undefined) return new DataQuery(t, collection, initialQueryState());
    return (async () => {
      checkCollection(collection);
      if (request.filter !== undefined) checkFilterTree(request.filter);
      const page = directPage(request.paging, request.cursorPaging);
      const state = {
        ...initialQueryState(),
        conditions: request.filter && Object.keys(request.filter).length ? [request.filter] : [],
        sort: request.sort ?? [],
        fields: request.fields ?? [],
        limit: page.limit,
        skip: 'offset' in page ? page.offset : 0,
        cursor: 'cursor' in page ? page.cursor : undefined,
      };
      return new DataQuery(t, collection, state).find(options);
    })();
  }

  function patch(collection: string, itemId: string): DataPatch<DataItem>;
  function patch(
    collection: string,
    itemId: string,
    modifications: FieldModification[],
    options?: PatchOptions,
  ): Promise<DataItem>;
  function patch(
    collection: string,
    itemId: string,
    modifications?: FieldModification[],
    options?: PatchOptions,
  ): DataPatch<DataItem> | Promise<DataItem> {
    if (modifications === undefined) {
      return new DataPatch((mods, runOptions) => patchRequest(collection, itemId, mods, runOptions));
    }
    return (async () => patchRequest(collection, itemId, modifications, options))();
  }

  function bulkPatch(collection: string, itemIds: string[]): DataPatch<BulkResult>;
  function bulkPatch(
    collection: string,
    itemIds: string[],
    modifications: FieldModification[],
    options?: PatchOptions,
  ): Promise<BulkResult>;
  function bulkPatch(
    collection: string,
    itemIds: string[],
    modifications?: FieldModification[],
    options?: PatchOptions,
  ): DataPatch<BulkResult> | Promise<BulkResult> {
    if (modifications === undefined) {
      return new DataPatch((mods, runOptions) => bulkPatchRequest(collection, itemIds, mods, runOptions));
    }
    return (async () => bulkPatchRequest(collection, itemIds, modifications, options))();
  }

  return {
    /** A filter builder for `and/or/not`, aggregation and conditions. */
    filter: newFilter,
    query,
    patch,
    bulkPatch,

    async get(collection: string, itemId: string, options?: DataOptions): Promise<DataItem | null> {
      checkCollection(collection);
      checkItemId(itemId);
      checkOptions(options);
      try {
        const body = await dataRequest<DataItemResponse>(t, 'GET', `/items/${enc(itemId)}`, {
          dataCollectionId: collection,
          dataItemId: itemId,
          ...readOptions(options),
        });
        return body.dataItem?.data ?? null;
      } catch (error) {
        if (hasCode(error, ITEM_NOT_FOUND)) return null;
        throw error;
      }
    },

    async insert(collection: string, item: DataItem, options?: DataOptions): Promise<DataItem> {
      checkCollection(collection);
      checkItem(item, collection);
      checkOptions(options);
      return single('/items', { dataCollectionId: collection, dataItem: wireItem(item), ...writeOptions(options) });
    },

    async update(collection: string, item: DataItem, options?: WriteOptions): Promise<DataItem> {
      checkCollection(collection);
      checkItem(item, collection);
      checkUpdateItem(item);
      checkOptions(options, [], ['condition']);
      return single('/items/update', {
        dataCollectionId: collection,
        dataItem: wireItem(item),
        ...writeOptions(options),
        ...conditionOf(options),
      });
    },

    async save(collection: string, item: DataItem, options?: DataOptions): Promise<DataItem> {
      checkCollection(collection);
      checkItem(item, collection);
      checkOptions(options);
      return single('/items/save', { dataCollectionId: collection, dataItem: wireItem(item), ...writeOptions(options) });
    },

    async remove(collection: string, itemId: string, options?: WriteOptions): Promise<DataItem | null> {
      checkCollection(collection);
      checkItemId(itemId);
      checkOptions(options, [], ['condition']);
      try {
        return await single('/items/remove', {
          dataCollectionId: collection,
          dataItemId: itemId,
          ...writeOptions(options),
          ...conditionOf(options),
        });
      } catch (error) {
        if (hasCode(error, ITEM_NOT_FOUND)) return null;
        throw error;
      }
    },

    async truncate(collection: string, options?: DataOptions): Promise<void> {
      checkCollection(collection);
      checkOptions(options);
      await dataRequest(t, 'POST', '/items/truncate', { dataCollectionId: collection, ...writeOptions(options) });
    },

    async count(collection: string, request: { filter?: Filter } = {}, options?: DataOptions): Promise<number> {
      checkCollection(collection);
      if (request.filter !== undefined) checkFilterTree(request.filter);
      checkOptions(options);
      const body = await dataRequest<CountDataItemsResponse>(t, 'POST', '/items/count', {
        dataCollectionId: collection,
        filter: request.filter ?? {},
        ...readOptions(options),
      });
      return body.totalCount ?? 0;
    },

    async distinct(
      collection: string,
      fieldName: string,
      request: DistinctRequest = {},
      options?: DataOptions,
    ): Promise<DataPage<unknown>> {
      checkCollection(collection);
      checkFieldName(fieldName);
      if (request.filter !== undefined) checkFilterTree(request.filter);
      checkOptions(options);
      const first = directPage(request.paging, request.cursorPaging);
      const fetchPage = async (page: PageRequest): Promise<DataPage<unknown>> => {
        const paging =
          'cursor' in page
            ? { cursorPaging: { limit: page.limit, cursor: page.cursor } }
            : { paging: { limit: page.limit, offset: page.offset } };
        const body = await dataRequest<QueryDistinctValuesResponse>(
          t,
          'POST',
          '/items/query-distinct-values',
          {
            dataCollectionId: collection,
            fieldName,
            filter: 'cursor' in page ? undefined : (request.filter ?? {}),
            order: request.order,
            ...paging,
            returnTotalCount: request.returnTotalCount,
            ...readOptions(options),
          },
        );
        return makePage(collection, body.distinctValues ?? [], body.pagingMetadata, page, fetchPage);
      };
      return fetchPage(first);
    },

    aggregate: (collection: string) => new DataAggregate(t, collection),
    search: (collection: string) => new DataSearch(t, collection, initialQueryState()),

    async queryReferenced(
      collection: string,
      item: string | DataItem,
      field: string,
      options: QueryReferencedOptions = {},
    ): Promise<DataPage<DataItem>> {
      checkCollection(collection);
      checkFieldName(field);
      const { limit, skip, order, returnTotalCount, fields, ...rest } = options;
      checkOptions(rest);
      if (limit !== undefined) throwIf(limitError(limit));
      if (skip !== undefined) throwIf(skipError(skip));
      const referringItemId = referenceId(item);
      const fetchPage = async (page: PageRequest): Promise<DataPage<DataItem>> => {
        // Later pages send only the cursor.
        const paging =
          'cursor' in page
            ? { cursorPaging: { limit: page.limit, cursor: page.cursor } }
            : { order, returnTotalCount, paging: { limit: page.limit, offset: page.offset }, fields };
        const body = await dataRequest<QueryReferencedDataItemsResponse>(t, 'POST', '/items/query-referenced', {
          dataCollectionId: collection,
          referringItemId,
          referringItemFieldName: field,
          ...paging,
          ...readOptions(rest),
        });
        const found = (body.results ?? []).flatMap((result) => (result.dataItem ? [result.dataItem.data] : []));
        return makePage(collection, found, body.pagingMetadata, page, fetchPage);
      };
      return fetchPage({ limit: limit ?? DEFAULT_PAGE_SIZE, offset: skip ?? 0 });
    },

    async isReferenced(
      collection: string,
      field: string,
      left: string | DataItem,
      right: string | DataItem,
      options?: DataOptions,
    ): Promise<boolean> {
      checkCollection(collection);
      checkFieldName(field);
      checkOptions(options);
      const body = await dataRequest<IsReferencedResponse>(t, 'POST', '/items/is-referenced', {
        dataCollectionId: collection,
        referringItemFieldName: field,
        referringItemId: referenceId(left),
        referencedItemId: referenceId(right),
        consistentRead: options?.consistentRead,
      });
      return body.isReferenced === true;
    },

    insertReference: (
      collection: string,
      field: string,
      left: string | DataItem,
      right: string | DataItem | (string | DataItem)[],
      options?: DataOptions,
    ) => references('/bulk/items/insert-references', collection, field, left, right, options),

    removeReference: (
      collection: string,
      field: string,
      left: string | DataItem,
      right: string | DataItem | (string | DataItem)[],
      options?: DataOptions,
    ) => references('/bulk/items/remove-references', collection, field, left, right, options),

    async replaceReferences(
      collection: string,
      field: string,
      left: string | DataItem,
      rights: (string | DataItem)[],
      options?: DataOptions,
    ): Promise<void> {
      checkCollection(collection);
      checkFieldName(field);
      checkOptions(options);
      await dataRequest(t, 'POST', '/items/replace-references', {
        dataCollectionId: collection,
        referringItemFieldName: field,
        referringItemId: referenceId(left),
        newReferencedItemIds: rights.map(referenceId),
      });
    },

    async bulkInsert(collection: string, list: DataItem[], options?: BulkInsertOptions): Promise<BulkResult> {
      checkCollection(collection);
      checkItems(list, collection);
      checkOptions(options, ['overrideExisting']);
      const path = options?.overrideExisting ? '/bulk/items/save' : '/bulk/items/insert';
      const payload = { dataCollectionId: collection, dataItems: list.map(wireItem), ...writeOptions(options) };
      return bulk(path, payload, options?.overrideExisting ? 'save' : 'insert', list);
    },

    async bulkSave(collection: string, list: DataItem[], options?: DataOptions): Promise<BulkResult> {
      checkCollection(collection);
      checkItems(list, collection);
      checkOptions(options);
      const payload = { dataCollectionId: collection, dataItems: list.map(wireItem), ...writeOptions(options) };
      return bulk('/bulk/items/save', payload, 'save', list);
    },

    async bulkUpdate(collection: string, list: DataItem[], options?: WriteOptions): Promise<BulkResult> {
      checkCollection(collection);
      checkItems(list, collection);
      list.forEach(checkUpdateItem);
      checkOptions(options, [], ['condition']);
      const payload = {
        dataCollectionId: collection,
        dataItems: list.map(wireItem),
        ...writeOptions(options),
        ...conditionOf(options),
      };
      return bulk('/bulk/items/update', payload, 'update', list);
    },

    async bulkRemove(collection: string, itemIds: string[], options?: DataOptions): Promise<BulkResult> {
      checkCollection(collection);
      checkItemIds(itemIds, collection);
      checkOptions(options);
      const payload = { dataCollectionId: collection, dataItemIds: itemIds, ...writeOptions(options) };
      return bulk('/bulk/items/remove', payload, 'remove');
    },

    async asyncPatchByFilter(
      collection: string,
      filter: DataFilter | Filter,
      modifications: FieldModification[],
      options?: DataOptions,
    ): Promise<DataJobResponse> {
      checkCollection(collection);
      const wireFilter = resolveFilter(filter);
      checkFilterTree(wireFilter);
      checkOptions(options);
      return dataRequest<DataJobResponse>(t, 'POST', '/bulk/items/async-patch-by-filter', {
        dataCollectionId: collection,
        filter: wireFilter,
        fieldModifications: modifications.map(wireModification),
        ...writeOptions(options),
      });
    },

    async asyncRemoveByFilter(collection: string, filter: DataFilter | Filter, options?: DataOptions): Promise<DataJobResponse> {
      checkCollection(collection);
      const wireFilter = resolveFilter(filter);
      checkFilterTree(wireFilter);
      checkOptions(options);
      return dataRequest<DataJobResponse>(t, 'POST', '/bulk/items/async-remove-by-filter', {
        dataCollectionId: collection,
        filter: wireFilter,
        ...writeOptions(options),
      });
    },

    async getAsyncJobStatus(jobId: string): Promise<DataJobStatus> {
      if (typeof jobId !== 'string' || jobId === '') throw wde('WDE0094: Invalid jobId parameter. jobId parameter must be non-empty string.');
      return dataRequest<DataJobStatus>(t, 'GET', `/async-jobs/${enc(jobId)}/status`, { jobId });
    },
  };
}

export type { DataItem, FindOptions, SortEntry } from './query.js';
export type { DataPage, PagingMetadata } from './page.js';
export type { BulkResult, FieldModification, PatchOptions } from './write.js';
export type { DataOptions } from './request.js';
export type { Filter } from './filter.js';
export { BulkError, DataPatch } from './write.js';
export { DataFilter } from './filter.js';
export { DataQuery, DataSearch } from './query.js';
export { DataAggregate } from './aggregate.js';
