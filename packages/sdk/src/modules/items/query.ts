/** Data item queries and searches (wire-surface §5.1–5.2). */
import type { PlainObject } from '../../core/query-string.js';
import type { Transport } from '../../core/transport.js';
import { checkCollection, checkFieldName, checkOptions, describe, limitError, skipError } from './checks.js';
import { DataFilter, type FilterState } from './filter.js';
import { DEFAULT_PAGE_SIZE, makePage, type DataPage, type PageRequest } from './page.js';
import { dataRequest, queryRequest, readOptions, type DataOptions } from './request.js';
import { wde } from './wde.js';
import type { QueryDataItemsResponse, QueryDistinctValuesResponse } from '../../generated/data-items.js';

export interface DataItem {
  _id?: string;
  _owner?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  [field: string]: unknown;
}

export interface FindOptions extends DataOptions {
  returnTotalCount?: boolean;
}

export interface SortEntry {
  fieldName: string;
  order: 'ASC' | 'DESC';
}

export interface QueryState extends FilterState {
  sort: SortEntry[];
  limit?: number;
  skip: number;
  fields: string[];
  includes: { field: string; limit?: number }[];
  /** Direct queries may start from a cursor. */
  cursor?: string;
}


export function initialQueryState(): QueryState {
  return { conditions: [], sort: [], skip: 0, fields: [], includes: [] };
}

export class DataQuery<S extends QueryState = QueryState> extends DataFilter<S> {
  override readonly collection: string;
  protected readonly transport: Transport;

  constructor(transport: Transport, collection: string, state: S) {
    super(state);
    this.transport = transport;
    this.collection = collection;
  }

  private sortBy(operator: string, order: SortEntry['order'], fields: (string | string[])[]): this {
    const flat = fields.flat();
    if (flat.length === 0 || !flat.every((field) => typeof field === 'string')) {
      return this.fail(wde(`WDE0051: Invalid ${operator} parameters [${flat.map(describe).join(', ')}]. Valid ${operator} values are String, Array of String or varargs String.`));
    }
    return this.with({ sort: [...this.state.sort, ...flat.map((fieldName) => ({ fieldName, order }))] } as Partial<S>);
  }

  ascending(...fields: (string | string[])[]): this {
    return this.sortBy('ascending', 'ASC', fields);
  }
  descending(...fields: (string | string[])[]): this {
    return this.sortBy('descending', 'DESC', fields);
  }
  limit(limit: number): this {
    const error = limitError(limit);
    return error ? this.fail(error) : this.with({ limit } as Partial<S>);
  }
  skip(skip: number): this {
    const error = skipError(skip);
    return error ? this.fail(error) : this.with({ skip } as Partial<S>);
  }
  fields(...fields: string[]): this {
    if (!fields.every((field) => typeof field === 'string')) return this.fail(wde('WDE0003: FieldName must be a string.'));
    return this.with({ fields: [...this.state.fields, ...fields] } as Partial<S>);
  }
  /** `include('author', 'tags', 10)`: referenced fields to expand, optionally with a limit. */
  include(...args: (string | number)[]): this {
    const last = args[args.length - 1];
    const limit = typeof last === 'number' ? last : undefined;
    const fields = limit === undefined ? args : args.slice(0, -1);
    if (!fields.every((field) => typeof field === 'string')) return this.fail(wde('WDE0003: FieldName must be a string.'));
    const includes = (fields as string[]).map((field) => (limit === undefined ? { field } : { field, limit }));
    return this.with({ includes: [...this.state.includes, ...includes] } as Partial<S>);
  }

  /** Checks made before any request. */
  protected ready(options: unknown, extraFlags: readonly string[] = []): void {
    checkCollection(this.collection);
    if (this.state.error) throw this.state.error;
    checkOptions(options, extraFlags);
  }

  protected queryPayload(request: PageRequest, initial: boolean, options?: FindOptions): PlainObject {
    const { fields, sort, includes, limit } = this.state;
    if ('cursor' in request) {
      // A cursor carries the filter and sort: only the page is sent.
      return {
        dataCollectionId: this.collection,
        query: { fields, cursorPaging: { limit: request.limit, cursor: request.cursor } },
        ...readOptions(options),
      };
    }
    const firstPageDefault = initial && limit === undefined;
    const paging =
      firstPageDefault && request.offset === 0
        ? undefined
        : { limit: firstPageDefault ? undefined : request.limit, offset: request.offset };
    return {
      dataCollectionId: this.collection,
      query: { fields, paging, filter: this.toFilter(), sort },
      includeReferences: includes,
      returnTotalCount: options?.returnTotalCount,
      ...readOptions(options),
    };
  }

  protected async fetchPage(request: PageRequest, initial: boolean, options?: FindOptions): Promise<DataPage<DataItem>> {
    const body = await queryRequest<QueryDataItemsResponse>(this.transport, '/items/query', this.queryPayload(request, initial, options));
    return makePage(
      this.collection,
      (body.dataItems ?? []).map((entry) => entry.data),
      body.pagingMetadata,
      request,
      (next) => this.fetchPage(next, false, options),
    );
  }

  protected firstRequest(): PageRequest {
    const limit = this.state.limit ?? DEFAULT_PAGE_SIZE;
    return this.state.cursor ? { limit, cursor: this.state.cursor } : { limit, offset: this.state.skip };
  }

  async find(options?: FindOptions): Promise<DataPage<DataItem>> {
    this.ready(options, ['returnTotalCount']);
    return this.fetchPage(this.firstRequest(), true, options);
  }

  async count(options?: DataOptions): Promise<number> {
    this.ready(options);
    const body = await dataRequest<{ totalCount?: number }>(this.transport, 'POST', '/items/count', {
      dataCollectionId: this.collection,
      filter: this.toFilter(),
      ...readOptions(options),
    });
    return body.totalCount ?? 0;
  }

  async distinct(fieldName: string, options?: FindOptions): Promise<DataPage<unknown>> {
    this.ready(options, ['returnTotalCount']);
    checkFieldName(fieldName);
    const order = this.state.sort.find((entry) => entry.fieldName === fieldName)?.order;
    const fetchPage = async (request: PageRequest): Promise<DataPage<unknown>> => {
      const paging =
        'cursor' in request
          ? { cursorPaging: { limit: request.limit, cursor: request.cursor } }
          : { paging: { limit: request.limit, offset: request.offset } };
      const body = await dataRequest<QueryDistinctValuesResponse>(
        this.transport,
        'POST',
        '/items/query-distinct-values',
        {
          dataCollectionId: this.collection,
          fieldName,
          filter: 'cursor' in request ? undefined : this.toFilter(),
          order,
          ...paging,
          returnTotalCount: options?.returnTotalCount,
          ...readOptions(options),
        },
      );
      return makePage(this.collection, body.distinctValues ?? [], body.pagingMetadata, request, fetchPage);
    };
    return fetchPage(this.firstRequest());
  }
}

export interface SearchState extends QueryState {
  expression?: string;
  fuzzy?: boolean;
  mode?: 'AND' | 'OR';
}

/** `search(collection).expression('red shoe').fuzzy().orMode().run()`. */
export class DataSearch extends DataQuery<SearchState> {
  expression(text: string): this {
    if (typeof text !== 'string') return this.fail(wde('WDE0044: Invalid expression parameter value. expression parameter must be a String.'));
    return this.with({ expression: text });
  }
  fuzzy(enabled = true): this {
    return this.with({ fuzzy: enabled });
  }
  andMode(): this {
    return this.with({ mode: 'AND' });
  }
  orMode(): this {
    return this.with({ mode: 'OR' });
  }

  protected override async fetchPage(
    request: PageRequest,
    _initial: boolean,
    options?: FindOptions,
  ): Promise<DataPage<DataItem>> {
    const { fields, sort, includes, expression, fuzzy, mode } = this.state;
    const paging =
      'cursor' in request
        ? { cursorPaging: { limit: request.limit, cursor: request.cursor } }
        : { paging: { limit: request.limit, offset: request.offset } };
    const body = await dataRequest<QueryDataItemsResponse>(this.transport, 'POST', '/items/search', {
      dataCollectionId: this.collection,
      search: { filter: this.toFilter(), sort, fields, search: { expression, fuzzy, mode }, ...paging },
      includeReferences: includes,
      ...readOptions(options),
    });
    return makePage(
      this.collection,
      (body.dataItems ?? []).map((entry) => entry.data),
      body.pagingMetadata,
      request,
      (next) => this.fetchPage(next, false, options),
    );
  }

  run(options?: FindOptions): Promise<DataPage<DataItem>> {
    return this.find(options);
  }
}
