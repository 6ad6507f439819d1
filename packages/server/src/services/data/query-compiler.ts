/**
 * Data-store query compiler: the wire requests of @wix/data (reference/wire-surface.md §5) →
 * parameterised PostgreSQL over
 *   data_items(site_id, collection_id, item_id, data jsonb; PRIMARY KEY (site_id, collection_id, item_id)).
 * Pure: no I/O, no clock. Every value is a `$n` parameter; field paths are validated and written as
 * literals, so an expression index built from fieldExpr() matches the queries byte for byte.
 *
 * Paged calls return a PagePlan. Run plan.sql (rows {item, sort_keys}, at most limit + 1) and, when
 * present, plan.countSql (one row {total}); readPage(plan, rows, total) then gives the response's
 * items (data items, distinct values or aggregation results) and its pagingMetadata.
 *   compileQuery(siteId, collectionId, query, {returnTotalCount})    POST /v2/items/query
 *   compileSearch(siteId, collectionId, search, {returnTotalCount})  POST /v2/items/search
 *   compileDistinct(siteId, collectionId, request)                   POST /v2/items/query-distinct-values
 *   compileAggregate(siteId, collectionId, request)                  POST /v2/items/aggregate
 *   compileCount(siteId, collectionId, filter) → one row {total}     POST /v2/items/count
 * Each also takes {restrict}: a server-side filter AND-ed in and never carried by a cursor.
 *   compileFilter(filter, params) → a condition on `data`, its values appended to params
 *   fieldExpr(path), fieldTextExpr(path), SEARCH_VECTOR → the expressions to index
 *   encodeCursor(state), decodeCursor(text, collectionId) → the opaque cursor (base64url JSON)
 * Bad input throws QueryError {code: 'WDE…', message}: answer HTTP 400 with
 * applicationError {code, description: message, data: {}}.
 *
 * Order: the requested keys, then item_id in the direction of the last key (ASC when unsorted), so
 * every order is total and paging is stable. A missing field sorts last ascending and first
 * descending (PostgreSQL's NULL placement); JSON null sorts before every other value.
 */
import { MAX_GROUPING_FIELDS, MAX_OPERATIONS, MAX_SEARCH_TERMS, QueryError, SEARCH_VECTOR, SEGMENT, type SortSpec, type SqlQuery, arrayOf, literal, objectOf, optionalObject, pathExpr, present, readFieldName, readFields, readOrder, readSort, show } from './query-basics.js';
import { type Params, bind, filterOn } from './query-filters.js';
import { type PagePlan, type PagedCall, type Scope, type Source, compilePaged, countSql, itemsSource, scopedWhere, sized, sortKeys, whereSql } from './query-paging.js';

// ---------------------------------------------------------------- the calls

export interface ScopeOption {
  /**
   * A wire filter AND-ed to every page, count and cursor continuation, decided by the server (the
   * caller's own items under SITE_MEMBER_AUTHOR). Cursors never carry it, so none can drop it.
   */
  restrict?: unknown;
}

export interface TotalOption extends ScopeOption {
  returnTotalCount?: boolean;
}

interface ItemsSpec {
  filter: unknown;
  sort: SortSpec[];
  fields: string[];
}

const readItems = (request: Record<string, unknown>): ItemsSpec => ({
  filter: request.filter,
  sort: readSort(request.sort),
  fields: readFields(request.fields),
});

const ITEMS: PagedCall<ItemsSpec> = {
  kind: 'items',
  requestKeys: ['filter', 'sort', 'fields'],
  read: readItems,
  source: (spec, scope, params) => itemsSource(spec.filter, spec.sort, scope, params),
  projection: (spec) => spec.fields,
};

/** `query`: {filter, sort, fields, paging | cursorPaging}; a cursor request needs only cursorPaging. */
export function compileQuery(siteId: string, collectionId: string, query: unknown, options: TotalOption = {}): PagePlan {
  const scope = { siteId, collectionId, restrict: options.restrict };
  return compilePaged(ITEMS, scope, optionalObject('query', query), options.returnTotalCount === true);
}

/** One row {total}: the number of items the filter matches. */
export function compileCount(siteId: string, collectionId: string, filter: unknown, options: ScopeOption = {}): SqlQuery {
  const params: Params = [];
  return sized(countSql(itemsSource(filter, [], { siteId, collectionId, restrict: options.restrict }, params)), params);
}

// ------------------------------------------------ search

interface SearchSpec extends ItemsSpec {
  terms: string[];
  fuzzy: boolean;
  mode: 'AND' | 'OR';
}

function readSearch(request: Record<string, unknown>): SearchSpec {
  const text = present(request.search) ? objectOf('search.search', request.search, 'WDE0905') : {};
  const { expression = '', fuzzy = false, mode = 'OR' } = text;
  if (typeof expression !== 'string' || typeof fuzzy !== 'boolean' || (mode !== 'AND' && mode !== 'OR')) {
    throw new QueryError('WDE0905', `Invalid search ${show(text)}: expression is a string, fuzzy a boolean, mode AND or OR.`);
  }
  const terms = expression.toLowerCase().match(/[\p{L}\p{Nd}]+/gu) ?? [];
  if (terms.length > MAX_SEARCH_TERMS) throw new QueryError('WDE0036', `Search cannot have more than ${MAX_SEARCH_TERMS} words.`);
  return { ...readItems(request), terms, fuzzy, mode };
}

// Terms are letters and digits only, so the tsquery text is always well formed.
function searchSource(spec: SearchSpec, scope: Scope, params: Params): Source {
  const source = itemsSource(spec.filter, spec.sort, scope, params);
  if (spec.terms.length === 0) return source;
  const words = spec.terms.map((term) => `'${term}'${spec.fuzzy ? ':*' : ''}`);
  const query = bind(params, words.join(spec.mode === 'AND' ? ' & ' : ' | '));
  return { ...source, where: [...source.where, `${SEARCH_VECTOR} @@ to_tsquery('simple', ${query})`] };
}

const SEARCH: PagedCall<SearchSpec> = {
  kind: 'search',
  requestKeys: ['filter', 'sort', 'fields', 'search'],
  read: readSearch,
  source: searchSource,
  projection: (spec) => spec.fields,
};

/**
 * `search`: {filter, sort, fields, search: {expression, fuzzy, mode}, paging | cursorPaging}. Words
 * of the expression match words of the item's string values (all of them in AND mode, any in OR mode,
 * the default); fuzzy matches words starting with them. Ordered like a query, not by relevance.
 */
export function compileSearch(siteId: string, collectionId: string, search: unknown, options: TotalOption = {}): PagePlan {
  const scope = { siteId, collectionId, restrict: options.restrict };
  return compilePaged(SEARCH, scope, optionalObject('search', search), options.returnTotalCount === true);
}

// ------------------------------------------------ distinct values

interface DistinctSpec {
  fieldName: string;
  filter: unknown;
  desc: boolean;
}

const DISTINCT: PagedCall<DistinctSpec> = {
  kind: 'distinct',
  requestKeys: ['fieldName', 'filter', 'order'],
  read: (request) => ({
    fieldName: readFieldName(request.fieldName),
    filter: request.filter,
    desc: readOrder(request.order, 'WDE0067') === 'DESC',
  }),
  source: distinctSource,
  projection: () => [],
};

// Items without the field (or with null) have no value to count.
function distinctSource(spec: DistinctSpec, scope: Scope, params: Params): Source {
  const value = pathExpr('data', spec.fieldName);
  const where = whereSql([...scopedWhere(scope, spec.filter, params), `${value} <> 'null'::jsonb`]);
  return {
    from: `(SELECT DISTINCT ${value} AS value FROM data_items${where}) AS distinct_values`,
    where: [],
    payload: 'value',
    keys: [{ expr: 'value', desc: spec.desc, text: false, nullable: false }],
  };
}

/** `request`: {fieldName, filter, order, paging | cursorPaging, returnTotalCount}; items are the values. */
export function compileDistinct(siteId: string, collectionId: string, request: unknown, options: ScopeOption = {}): PagePlan {
  const body = optionalObject('request', request);
  return compilePaged(DISTINCT, { siteId, collectionId, restrict: options.restrict }, body, body.returnTotalCount === true);
}

// ------------------------------------------------ aggregation

type AggregateFunction = 'sum' | 'average' | 'min' | 'max';
type Operation =
  | { resultFieldName: string; fn: 'itemCount' }
  | { resultFieldName: string; fn: AggregateFunction; itemFieldName: string };

interface AggregateSpec {
  initialFilter: unknown;
  groupingFields: string[];
  operations: Operation[];
  finalFilter: unknown;
  sort: SortSpec[];
}

const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set<AggregateFunction>(['sum', 'average', 'min', 'max']);
const isAggregateFunction = (name: string): name is AggregateFunction => AGGREGATE_FUNCTIONS.has(name);

function readAggregate(request: Record<string, unknown>): AggregateSpec {
  const aggregation = present(request.aggregation) ? objectOf('aggregation', request.aggregation, 'WDE0903') : {};
  const grouping = aggregation.groupingFields;
  const groupingFields = present(grouping) ? arrayOf('groupingFields', grouping, 'WDE0903').map(readFieldName) : [];
  const operations = present(aggregation.operations)
    ? arrayOf('operations', aggregation.operations, 'WDE0903').map(readOperation)
    : [];
  if (groupingFields.length > MAX_GROUPING_FIELDS || operations.length > MAX_OPERATIONS) {
    const most = `at most ${MAX_GROUPING_FIELDS} grouping fields and ${MAX_OPERATIONS} operations`;
    throw new QueryError('WDE0036', `An aggregation has ${most}.`);
  }
  const names = ['_id', ...groupingFields, ...operations.map((operation) => operation.resultFieldName)];
  if (new Set(names).size !== names.length) {
    throw new QueryError('WDE0903', 'Result field names must differ from each other, from "_id" and from the grouping fields.');
  }
  const { initialFilter, finalFilter } = request;
  return { initialFilter, groupingFields, operations, finalFilter, sort: readSort(request.sort) };
}

function readOperation(value: unknown): Operation {
  const { resultFieldName, ...rest } = objectOf('operation', value, 'WDE0903');
  const entries = Object.entries(rest);
  const [name, args] = entries[0] ?? [];
  if (typeof resultFieldName !== 'string' || !SEGMENT.test(resultFieldName) || entries.length !== 1 || name === undefined) {
    const expected = 'a resultFieldName and one of sum, average, min, max, itemCount';
    throw new QueryError('WDE0903', `Invalid operation ${show(value)}: give ${expected}.`);
  }
  if (name === 'itemCount') return { resultFieldName, fn: 'itemCount' };
  if (!isAggregateFunction(name)) throw new QueryError('WDE0903', `Unknown aggregation operation ${show(name)}.`);
  return { resultFieldName, fn: name, itemFieldName: readFieldName(objectOf(name, args, 'WDE0903').itemFieldName) };
}

// Non-numbers are skipped rather than cast, so no stored value can make the query fail.
function operationSql(operation: Operation): string {
  if (operation.fn === 'itemCount') return 'count(*)::int';
  const json = pathExpr('data', operation.itemFieldName);
  const number = `CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json})::numeric END`;
  if (operation.fn === 'sum') return `COALESCE(sum(${number}), 0)`;
  if (operation.fn === 'average') return `avg(${number})::float8`;
  return `${operation.fn}(${number})`;
}

/**
 * One jsonb object per group: {_id: {field: value, …} (null with no grouping), each grouping field,
 * each result}; missing and null group values form one group. finalFilter and sort apply to it.
 */
function aggregateSource(spec: AggregateSpec, scope: Scope, params: Params): Source {
  const where = whereSql(scopedWhere(scope, spec.initialFilter, params));
  const groupValue = (field: string) => `COALESCE(${pathExpr('data', field)}, 'null'::jsonb)`;
  const groups = spec.groupingFields.map((field) => `${literal(field)}, ${groupValue(field)}`);
  const id = groups.length === 0 ? `'null'::jsonb` : `jsonb_build_object(${groups.join(', ')})`;
  const pairs = [
    `'_id', ${id}`,
    ...groups,
    ...spec.operations.map((operation) => `${literal(operation.resultFieldName)}, ${operationSql(operation)}`),
  ];
  const groupBy = groups.length === 0 ? '' : ` GROUP BY ${spec.groupingFields.map(groupValue).join(', ')}`;
  return {
    from: `(SELECT jsonb_build_object(${pairs.join(', ')}) AS result FROM data_items${where}${groupBy}) AS aggregated`,
    where: [filterOn('result', spec.finalFilter, params)],
    payload: 'result',
    // Computed rows match no index, so a missing result value may sort as JSON null.
    keys: sortKeys(spec.sort, (field) => `COALESCE(${pathExpr('result', field)}, 'null'::jsonb)`, false, {
      expr: `result->'_id'`,
      text: false,
      nullable: false,
    }),
  };
}

const AGGREGATE: PagedCall<AggregateSpec> = {
  kind: 'aggregate',
  requestKeys: ['initialFilter', 'aggregation', 'finalFilter', 'sort'],
  read: readAggregate,
  source: aggregateSource,
  projection: () => [],
};

/**
 * `request`: {initialFilter, aggregation: {groupingFields, operations: [{resultFieldName,
 * sum | average | min | max: {itemFieldName} | itemCount: {}}]}, finalFilter, sort, paging | cursorPaging,
 * returnTotalCount}; items are the result objects.
 */
export function compileAggregate(siteId: string, collectionId: string, request: unknown, options: ScopeOption = {}): PagePlan {
  const body = optionalObject('request', request);
  return compilePaged(AGGREGATE, { siteId, collectionId, restrict: options.restrict }, body, body.returnTotalCount === true);
}
