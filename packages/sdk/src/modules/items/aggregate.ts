/** `aggregate(collection).filter().group().sum()….having().run()` (wire-surface §5.1). */
import type { Transport } from '../../core/transport.js';
import { checkCollection, checkOptions, limitError, skipError } from './checks.js';
import { DataFilter, type Filter } from './filter.js';
import { DEFAULT_PAGE_SIZE, makePage, type DataPage, type PageRequest } from './page.js';
import { dataRequest, readOptions, type DataOptions } from './request.js';
import { wde } from './wde.js';
import type { AggregateDataItemsResponse } from '../../generated/data-items.js';

type Operation = { resultFieldName: string } & Record<string, unknown>;

interface AggregateState {
  filter?: Filter;
  having?: Filter;
  group?: string[];
  operations: Operation[];
  sort: { fieldName: string; order: 'ASC' | 'DESC' }[];
  limit?: number;
  skip: number;
  error?: Error;
}

export interface AggregateOptions extends DataOptions {
  returnTotalCount?: boolean;
}

/** A single-key `_id` object (one grouping field) is unwrapped to its value. */
function unwrapGroupId(result: Record<string, unknown>): Record<string, unknown> {
  const id = result._id;
  if (typeof id === 'object' && id !== null && !Array.isArray(id) && !(id instanceof Date)) {
    const values = Object.values(id);
    if (values.length === 1) return { ...result, _id: values[0] };
  }
  return result;
}

export class DataAggregate {
  readonly #transport: Transport;
  readonly #collection: string;
  readonly #state: AggregateState;

  constructor(transport: Transport, collection: string, state?: AggregateState) {
    this.#transport = transport;
    this.#collection = collection;
    this.#state = state ?? { operations: [], sort: [], skip: 0 };
  }

  #with(patch: Partial<AggregateState>): DataAggregate {
    return new DataAggregate(this.#transport, this.#collection, { ...this.#state, ...patch });
  }
  #fail(error: Error): DataAggregate {
    return this.#with({ error: this.#state.error ?? error });
  }
  #filterArgument(operator: string, filter: unknown, current: Filter | undefined): Filter | Error {
    if (!(filter instanceof DataFilter)) {
      return wde(`WDE0011: Invalid ${operator} usage. ${operator} requires a data filter.`);
    }
    if (current !== undefined) return wde(`WDE0012: Invalid ${operator} usage. Filter is already set.`);
    return filter.validationError ?? filter.toFilter();
  }
  #operation(kind: string, field: string, resultFieldName: string): DataAggregate {
    if (typeof field !== 'string') return this.#fail(wde('WDE0003: FieldName must be a string.'));
    return this.#with({ operations: [...this.#state.operations, { resultFieldName, [kind]: { itemFieldName: field } }] });
  }

  filter(filter: DataFilter): DataAggregate {
    const result = this.#filterArgument('filter', filter, this.#state.filter);
    return result instanceof Error ? this.#fail(result) : this.#with({ filter: result });
  }
  having(filter: DataFilter): DataAggregate {
    const result = this.#filterArgument('having', filter, this.#state.having);
    return result instanceof Error ? this.#fail(result) : this.#with({ having: result });
  }
  group(...fields: string[]): DataAggregate {
    if (this.#state.group) return this.#fail(wde('WDE0013: Invalid group usage. Group is already set.'));
    if (!fields.every((field) => typeof field === 'string')) return this.#fail(wde('WDE0003: FieldName must be a string.'));
    return this.#with({ group: fields });
  }
  sum(field: string, as = `${field}Sum`): DataAggregate {
    return this.#operation('sum', field, as);
  }
  avg(field: string, as = `${field}Avg`): DataAggregate {
    return this.#operation('average', field, as);
  }
  min(field: string, as = `${field}Min`): DataAggregate {
    return this.#operation('min', field, as);
  }
  max(field: string, as = `${field}Max`): DataAggregate {
    return this.#operation('max', field, as);
  }
  count(as = 'count'): DataAggregate {
    return this.#with({ operations: [...this.#state.operations, { resultFieldName: as, itemCount: {} }] });
  }
  ascending(...fields: string[]): DataAggregate {
    return this.#with({ sort: [...this.#state.sort, ...fields.map((fieldName) => ({ fieldName, order: 'ASC' as const }))] });
  }
  descending(...fields: string[]): DataAggregate {
    return this.#with({ sort: [...this.#state.sort, ...fields.map((fieldName) => ({ fieldName, order: 'DESC' as const }))] });
  }
  limit(limit: number): DataAggregate {
    const error = limitError(limit);
    return error ? this.#fail(error) : this.#with({ limit });
  }
  skip(skip: number): DataAggregate {
    const error = skipError(skip);
    return error ? this.#fail(error) : this.#with({ skip });
  }

  async run(options?: AggregateOptions): Promise<DataPage<Record<string, unknown>>> {
    checkCollection(this.#collection);
    if (this.#state.error) throw this.#state.error;
    checkOptions(options, ['returnTotalCount']);
    const { filter, having, group, operations, sort, limit, skip } = this.#state;
    const fetchPage = async (request: PageRequest): Promise<DataPage<Record<string, unknown>>> => {
      const paging =
        'cursor' in request
          ? { cursorPaging: { limit: request.limit, cursor: request.cursor } }
          : { paging: { limit: request.limit, offset: request.offset } };
      const body = await dataRequest<AggregateDataItemsResponse>(
        this.#transport,
        'POST',
        '/items/aggregate',
        {
          dataCollectionId: this.#collection,
          initialFilter: filter,
          aggregation: { groupingFields: group ?? [], operations },
          finalFilter: having,
          sort,
          ...paging,
          returnTotalCount: options?.returnTotalCount,
          ...readOptions(options),
        },
      );
      return makePage(this.#collection, (body.results ?? []).map(unwrapGroupId), body.pagingMetadata, request, fetchPage);
    };
    return fetchPage({ limit: limit ?? DEFAULT_PAGE_SIZE, offset: skip });
  }
}
