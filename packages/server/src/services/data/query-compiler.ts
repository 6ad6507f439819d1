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
import { Buffer } from 'node:buffer';
import { canonicalDate, isPlainObject, isWireDate, projectFields } from './wire-values.js';

export type QueryErrorCode =
  | 'WDE0016' // filter is not an object
  | 'WDE0032' // limit or offset is not a number
  | 'WDE0033' // limit is not positive
  | 'WDE0034' // offset is negative
  | 'WDE0035' // limit or offset is not an integer
  | 'WDE0036' // a parameter exceeds its maximum (limit, list, sort keys, search terms, aggregation)
  | 'WDE0048' // invalid field name
  | 'WDE0056' // should be an object
  | 'WDE0057' // should be an array
  | 'WDE0058' // operand of the wrong type (or an invalid date)
  | 'WDE0059' // string operator without a string
  | 'WDE0060' // list item of the wrong type
  | 'WDE0065' // sort is not an array
  | 'WDE0066' // sort entry is not an object
  | 'WDE0067' // sort order is neither ASC nor DESC
  | 'WDE0070' // $regex
  | 'WDE0080' // offset together with cursor paging
  | 'WDE0094' // empty cursor
  // Bodega's own, where Wix publishes none:
  | 'WDE0901' // unknown filter operator
  | 'WDE0902' // malformed, tampered or foreign cursor
  | 'WDE0903' // invalid aggregation
  | 'WDE0904' // filter nested too deep or too large
  | 'WDE0905'; // invalid search request

export class QueryError extends Error {
  override readonly name = 'QueryError';
  constructor(
    readonly code: QueryErrorCode,
    description: string,
  ) {
    super(description);
  }
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
const MAX_PATH_DEPTH = 16;
const MAX_FILTER_DEPTH = 32;
const MAX_LIST_LENGTH = 1000;
const MAX_SORT_KEYS = 10;
const MAX_SEARCH_TERMS = 32;
const MAX_GROUPING_FIELDS = 10;
const MAX_OPERATIONS = 20;
const MAX_PARAMS = 10_000;

// ---------------------------------------------------------------- field paths

/** One path segment. Quotes, `->`, unicode look-alikes and the like are refused outright. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_$\- ]{0,127}$/;

type Root = 'data' | 'result';

function readFieldName(path: unknown): string {
  const parts = typeof path === 'string' ? path.split('.') : [];
  if (parts.length === 0 || parts.length > MAX_PATH_DEPTH || !parts.every((part) => SEGMENT.test(part))) {
    throw new QueryError(
      'WDE0048',
      `Invalid field name ${show(path)}. A field name is made of letters, digits, "_", "$", "-" and spaces, ` +
        `with "." between nested names.`,
    );
  }
  return String(path);
}

const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

function pathExpr(root: Root, path: unknown): string {
  return [root, ...readFieldName(path).split('.').map(literal)].join('->');
}

function pathTextExpr(root: Root, path: unknown): string {
  const parts = readFieldName(path).split('.').map(literal);
  const last = parts.pop();
  return `${[root, ...parts].join('->')}->>${last}`;
}

/** `data->'a'->'b'` for "a.b": the jsonb expression every query on the field uses, and its index must. */
export function fieldExpr(path: string): string {
  return pathExpr('data', path);
}

/** `data->'a'->>'b'`: the text that $contains, $startsWith and $endsWith match (a trigram index's expression). */
export function fieldTextExpr(path: string): string {
  return pathTextExpr('data', path);
}

/** Every string value of an item as one text-search document (a GIN index's expression). */
export const SEARCH_VECTOR = `jsonb_to_tsvector('simple', data, '["string"]')`;

// ---------------------------------------------------------------- filters

export type Params = unknown[];

function bind(params: Params, value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

const bindJson = (params: Params, value: unknown): string => `${bind(params, JSON.stringify(value))}::jsonb`;

const TRUE = 'TRUE';
const FALSE = 'FALSE';

// FALSE parts are kept, not short-circuited: a dropped part could hold the only use of a parameter.
function and(parts: readonly string[]): string {
  const kept = parts.filter((part) => part !== TRUE);
  if (kept.length <= 1) return kept[0] ?? TRUE;
  return `(${kept.join(' AND ')})`;
}

function or(parts: readonly string[]): string {
  const kept = parts.filter((part) => part !== FALSE);
  if (kept.length <= 1) return kept[0] ?? FALSE;
  return `(${kept.join(' OR ')})`;
}

// A missing field makes a comparison NULL; NOT must still count the item as "not matching".
function not(condition: string): string {
  if (condition === TRUE) return FALSE;
  if (condition === FALSE) return TRUE;
  return `NOT COALESCE(${condition}, FALSE)`;
}

/** A condition on `data` for a wire filter; an absent filter is TRUE. Values go to params. */
export function compileFilter(filter: unknown, params: Params): string {
  return filterOn('data', filter, params);
}

interface FilterScope {
  root: Root;
  params: Params;
  depth: number;
}

function filterOn(root: Root, filter: unknown, params: Params): string {
  if (filter === undefined || filter === null) return TRUE;
  return compileNode(filter, { root, params, depth: 0 });
}

function compileNode(filter: unknown, scope: FilterScope): string {
  if (!isPlainObject(filter)) throw new QueryError('WDE0016', `Filter must be an object. Got ${show(filter)} instead.`);
  if (scope.depth >= MAX_FILTER_DEPTH) {
    throw new QueryError('WDE0904', `Filter is nested more than ${MAX_FILTER_DEPTH} levels deep.`);
  }
  const inner = { ...scope, depth: scope.depth + 1 };
  return and(Object.entries(filter).map(([key, value]) => compileEntry(key, value, inner)));
}

function compileEntry(key: string, value: unknown, scope: FilterScope): string {
  if (key === '$and') return and(arrayOf(key, value).map((sub) => compileNode(sub, scope)));
  if (key === '$or') return or(arrayOf(key, value).map((sub) => compileNode(sub, scope)));
  if (key === '$not') {
    // The SDK sends {"$not":[sub]}; direct callers may send {"$not":{…}}. Several subfilters are AND-ed.
    const negated = Array.isArray(value) ? and(value.map((sub) => compileNode(sub, scope))) : compileNode(value, scope);
    return not(negated);
  }
  if (key.startsWith('$')) throw unknownOperator(key);
  return compileField(key, value, scope);
}

interface Field {
  json: string;
  text: string;
}

function compileField(path: string, condition: unknown, scope: FilterScope): string {
  const field = { json: pathExpr(scope.root, path), text: pathTextExpr(scope.root, path) };
  if (!isPlainObject(condition) || isWireDate(condition)) return equals(field, condition, scope.params);
  const entries = Object.entries(condition);
  if (entries.length === 0 || entries.some(([op]) => !op.startsWith('$'))) throw operandError('$eq', condition, EQUATABLE);
  return and(entries.map(([op, operand]) => applyOperator(op, field, operand, scope.params)));
}

type Operator = (field: Field, operand: unknown, params: Params) => string;

function applyOperator(op: string, field: Field, operand: unknown, params: Params): string {
  const operator = OPERATORS.get(op);
  if (operator === undefined) throw unknownOperator(op);
  return operator(field, operand, params);
}

function unknownOperator(op: string): QueryError {
  if (op === '$regex') return new QueryError('WDE0070', '$regex keyword is not allowed.');
  return new QueryError('WDE0901', `Unknown filter operator ${show(op)}.`);
}

// ------------------------------------------------ operands

type Scalar = string | number | boolean | null | { $date: string };
type OperandKind = 'string' | 'number' | 'boolean' | 'null' | 'date';

const EQUATABLE: readonly OperandKind[] = ['string', 'number', 'boolean', 'date', 'null'];
const COMPARABLE: readonly OperandKind[] = ['string', 'number', 'date'];
const LISTABLE: readonly OperandKind[] = ['string', 'number', 'boolean', 'date'];

function toScalar(value: unknown): { kind: OperandKind; value: Scalar } | undefined {
  if (value === null) return { kind: 'null', value };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', value } : undefined;
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (!isWireDate(value)) return undefined;
  const iso = canonicalDate(value.$date);
  if (iso === undefined) throw new QueryError('WDE0058', `Invalid date ${show(value)}.`);
  return { kind: 'date', value: { $date: iso } };
}

function scalar(op: string, value: unknown, allowed: readonly OperandKind[], code: QueryErrorCode = 'WDE0058'): Scalar {
  const operand = toScalar(value);
  if (operand === undefined || !allowed.includes(operand.kind)) throw operandError(op, value, allowed, code);
  return operand.value;
}

function operandError(op: string, value: unknown, allowed: readonly OperandKind[], code: QueryErrorCode = 'WDE0058') {
  return new QueryError(code, `${op} should be one of ${allowed.join(', ')}. Got ${show(value)} instead.`);
}

function listOperands(op: string, value: unknown): Scalar[] {
  const list = arrayOf(op, value);
  if (list.length > MAX_LIST_LENGTH) throw new QueryError('WDE0036', `${op} cannot list more than ${MAX_LIST_LENGTH} values.`);
  return list.map((item) => scalar(op, item, LISTABLE, 'WDE0060'));
}

function flag(op: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new QueryError('WDE0058', `${op} should be a boolean. Got ${show(value)} instead.`);
  return value;
}

// ------------------------------------------------ operators

function equals(field: Field, value: unknown, params: Params): string {
  const operand = scalar('$eq', value, EQUATABLE);
  return operand === null ? emptiness(field, true) : `${field.json} = ${bindJson(params, operand)}`;
}

// A missing field is not equal to anything, so $ne matches items without the field too.
function notEquals(field: Field, value: unknown, params: Params): string {
  const operand = scalar('$ne', value, EQUATABLE);
  return operand === null ? emptiness(field, false) : `${field.json} IS DISTINCT FROM ${bindJson(params, operand)}`;
}

// jsonb orders null < strings < numbers < booleans < arrays < objects, so a range over one type must
// also bound the far side: by a constant where one exists (which keeps the planner's row estimate
// and the index range exact), else by a type test.
function compare(op: string, sqlOperator: string): Operator {
  return (field, value, params) => {
    const operand = scalar(op, value, COMPARABLE);
    const range = `${field.json} ${sqlOperator} ${bindJson(params, operand)}`;
    return `(${range} AND ${farBound(field.json, sqlOperator, operand)})`;
  };
}

function farBound(json: string, sqlOperator: string, operand: Scalar): string {
  const below = sqlOperator.startsWith('<');
  if (typeof operand === 'number') return below ? `jsonb_typeof(${json}) = 'number'` : `${json} < 'false'::jsonb`;
  if (typeof operand === 'string') return below ? `${json} >= '""'::jsonb` : `jsonb_typeof(${json}) = 'string'`;
  return below ? `${json} >= '{"$date": ""}'::jsonb` : `${json} < '{"$date": 0}'::jsonb`;
}

function emptiness(field: Field, empty: boolean): string {
  return empty
    ? `(${field.json} IS NULL OR ${field.json} = 'null'::jsonb)`
    : `(${field.json} IS NOT NULL AND ${field.json} <> 'null'::jsonb)`;
}

function inList(field: Field, value: unknown, params: Params): string {
  const placeholders = listOperands('$in', value).map((operand) => bindJson(params, operand));
  return placeholders.length === 0 ? FALSE : `${field.json} IN (${placeholders.join(', ')})`;
}

// A scalar field equal to a listed value, or an array field holding one.
function hasSome(field: Field, value: unknown, params: Params): string {
  const placeholders = listOperands('$hasSome', value).map((operand) => bindJson(params, operand));
  if (placeholders.length === 0) return FALSE;
  const held = placeholders.map((placeholder) => `${field.json} @> jsonb_build_array(${placeholder})`);
  return or([`${field.json} IN (${placeholders.join(', ')})`, ...held]);
}

// An array field holding every listed value; an empty list asks nothing.
function hasAll(field: Field, value: unknown, params: Params): string {
  const operands = listOperands('$hasAll', value);
  return operands.length === 0 ? TRUE : `${field.json} @> ${bindJson(params, operands)}`;
}

function matches(op: string, pattern: (escaped: string) => string): Operator {
  return (field, value, params) => {
    if (typeof value !== 'string') throw new QueryError('WDE0059', `${op} should be a string. Got ${show(value)} instead.`);
    const like = bind(params, pattern(value.replace(/[\\%_]/g, '\\$&')));
    return `(jsonb_typeof(${field.json}) = 'string' AND ${field.text} ILIKE ${like} ESCAPE '\\')`;
  };
}

const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['$eq', equals],
  ['$ne', notEquals],
  ['$gt', compare('$gt', '>')],
  ['$gte', compare('$gte', '>=')],
  ['$lt', compare('$lt', '<')],
  ['$lte', compare('$lte', '<=')],
  ['$in', inList],
  ['$hasSome', hasSome],
  ['$hasAll', hasAll],
  ['$contains', matches('$contains', (text) => `%${text}%`)],
  ['$startsWith', matches('$startsWith', (text) => `${text}%`)],
  ['$endsWith', matches('$endsWith', (text) => `%${text}`)],
  ['$exists', (field, value) => `${field.json} ${flag('$exists', value) ? 'IS NOT NULL' : 'IS NULL'}`],
  ['$isEmpty', (field, value) => emptiness(field, flag('$isEmpty', value))],
]);

// ---------------------------------------------------------------- requests

interface SortSpec {
  fieldName: string;
  order: 'ASC' | 'DESC';
}

function readSort(sort: unknown): SortSpec[] {
  if (!present(sort)) return [];
  if (!Array.isArray(sort)) throw new QueryError('WDE0065', `Sort should be an array. Got ${show(sort)} instead.`);
  if (sort.length > MAX_SORT_KEYS) throw new QueryError('WDE0036', `Sort cannot have more than ${MAX_SORT_KEYS} fields.`);
  return sort.map(readSortEntry);
}

function readSortEntry(entry: unknown): SortSpec {
  if (!isPlainObject(entry)) throw new QueryError('WDE0066', `Sort should contain objects only. Got ${show(entry)} instead.`);
  return { fieldName: readFieldName(entry.fieldName), order: readOrder(entry.order, 'WDE0067') };
}

function readOrder(order: unknown, code: QueryErrorCode): 'ASC' | 'DESC' {
  const upper = present(order) ? String(order).toUpperCase() : 'ASC';
  if (upper !== 'ASC' && upper !== 'DESC') throw new QueryError(code, `Order should be "ASC" or "DESC". Got ${show(order)} instead.`);
  return upper;
}

function readFields(fields: unknown): string[] {
  return present(fields) ? arrayOf('fields', fields).map(readFieldName) : [];
}

interface PagingRequest {
  limit?: number;
  offset: number;
  cursor?: string;
}

function readPaging(request: Record<string, unknown>): PagingRequest {
  const { paging, cursorPaging } = request;
  if (present(paging) && present(cursorPaging)) throw skipWithCursor();
  if (present(cursorPaging)) {
    const cursorRequest = objectOf('cursorPaging', cursorPaging);
    if (present(cursorRequest.offset) || present(cursorRequest.skip)) throw skipWithCursor();
    return { limit: readLimit(cursorRequest.limit), offset: 0, cursor: readCursorText(cursorRequest.cursor) };
  }
  if (!present(paging)) return { offset: 0 };
  const offsetRequest = objectOf('paging', paging);
  return { limit: readLimit(offsetRequest.limit), offset: readOffset(offsetRequest.offset) };
}

function skipWithCursor(): QueryError {
  return new QueryError('WDE0080', 'Skip is not supported in cursor paging.');
}

function readLimit(value: unknown): number | undefined {
  if (!present(value)) return undefined;
  const limit = integer('limit', value);
  if (limit <= 0) throw new QueryError('WDE0033', `Invalid limit parameter [${limit}]. limit parameter must be a positive number.`);
  if (limit > MAX_LIMIT) {
    throw new QueryError('WDE0036', `Invalid limit parameter [${limit}]. limit parameter cannot exceed ${MAX_LIMIT}.`);
  }
  return limit;
}

function readOffset(value: unknown): number {
  if (!present(value)) return 0;
  const offset = integer('offset', value);
  if (offset < 0) {
    throw new QueryError('WDE0034', `Invalid offset parameter [${offset}]. offset parameter must be a non-negative number.`);
  }
  return offset;
}

function integer(name: string, value: unknown): number {
  const number = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new QueryError('WDE0032', `Invalid ${name} parameter ${show(value)}. ${name} parameter must be a number.`);
  }
  if (!Number.isSafeInteger(number)) {
    throw new QueryError('WDE0035', `Invalid ${name} parameter [${number}]. ${name} parameter must be an integer.`);
  }
  return number;
}

function readCursorText(value: unknown): string | undefined {
  if (!present(value)) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new QueryError('WDE0094', 'Invalid cursor parameter. cursor parameter must be non-empty string.');
  }
  return value;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

function arrayOf(name: string, value: unknown, code: QueryErrorCode = 'WDE0057'): unknown[] {
  if (!Array.isArray(value)) throw new QueryError(code, `${name} should be an array. Got ${show(value)} instead.`);
  return value;
}

function objectOf(name: string, value: unknown, code: QueryErrorCode = 'WDE0056'): Record<string, unknown> {
  if (!isPlainObject(value)) throw new QueryError(code, `${name} should be an object. Got ${show(value)} instead.`);
  return value;
}

const optionalObject = (name: string, value: unknown): Record<string, unknown> =>
  present(value) ? objectOf(name, value) : {};

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `[${text.length > 100 ? `${text.slice(0, 100)}…` : text}]`;
}

// ---------------------------------------------------------------- sources and sort keys

interface SortKey {
  expr: string;
  desc: boolean;
  /** item_id, a text column; every other key is jsonb. */
  text: boolean;
  /** May be SQL NULL: a field missing from the item. */
  nullable: boolean;
}

/** What a paged call selects from: `payload` per row, ordered by `keys` (the last key unique). */
interface Source {
  from: string;
  where: string[];
  payload: string;
  keys: SortKey[];
}

interface Scope {
  siteId: string;
  collectionId: string;
  /** A filter the server adds (e.g. the caller's own items); never carried in a cursor. */
  restrict?: unknown;
}

/**
 * The conditions on the items of the scope matching `filter`: site and collection, then the
 * prefilters of the equalities the server filter and the filter require, then both filters.
 */
function scopedWhere(scope: Scope, filter: unknown, params: Params): string[] {
  const conditions = [`site_id = ${bind(params, scope.siteId)}`, `collection_id = ${bind(params, scope.collectionId)}`];
  const filters = [...(scope.restrict === undefined ? [] : [compileFilter(scope.restrict, params)]), compileFilter(filter, params)];
  const cheap = [...prefilters(scope.restrict, params), ...prefilters(filter, params)];
  return [...conditions, ...cheap, ...filters];
}

/**
 * For each equality the filter requires of every matching item (a field's value or $eq, at the
 * top level or inside a top-level $and), a cheaper condition every item equal to the value meets.
 * They come first because PostgreSQL evaluates a scan's conditions cheapest first and, among
 * equals, in the written order except for an equality `expr = $n`, which it rebuilds from its
 * equivalence class and so evaluates last: without them an unindexed scan extracts every other
 * compared field (`->`, which builds a jsonb value) of every row before the selective equality.
 * A string needs the field's text (`->>`, no jsonb value built) to be the string; any other value
 * needs the item to contain it (`@>`). Each is wrapped in COALESCE, which the planner estimates
 * to keep half the rows (bare, it would guess 0.5% or 0.1% and prefer sorting a bitmap scan to
 * reading an index in order). Only necessary conditions are added, so the exact jsonb
 * equality (which an index matches) still decides: a number whose text is the string, or an array
 * holding the value, pass the prefilter and fail the equality. The filter is compiled (validated)
 * before this reads it.
 */
function prefilters(filter: unknown, params: Params): string[] {
  if (!isPlainObject(filter)) return [];
  return Object.entries(filter).flatMap(([key, value]): string[] => {
    if (key === '$and') return Array.isArray(value) ? value.flatMap((sub) => prefilters(sub, params)) : [];
    if (key.startsWith('$')) return [];
    const condition = isPlainObject(value) && !isWireDate(value) ? value : { $eq: value };
    const operand = Object.hasOwn(condition, '$eq') ? toScalar(condition.$eq) : undefined;
    if (operand === undefined || operand.value === null) return [];
    if (typeof operand.value === 'string') return [`COALESCE(${pathTextExpr('data', key)} = ${bind(params, operand.value)}, FALSE)`];
    const contained = key.split('.').reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), operand.value);
    return [`COALESCE(data @> ${bindJson(params, contained)}, FALSE)`];
  });
}

function sortKeys(
  sort: readonly SortSpec[],
  keyOf: (fieldName: string) => string,
  nullable: boolean,
  last: Omit<SortKey, 'desc'>,
): SortKey[] {
  const keys: SortKey[] = sort.map((entry) => ({
    expr: keyOf(entry.fieldName),
    desc: entry.order === 'DESC',
    text: false,
    nullable,
  }));
  return [...keys, { ...last, desc: keys.at(-1)?.desc ?? false }];
}

const ITEM_ID: Omit<SortKey, 'desc'> = { expr: 'item_id', text: true, nullable: false };

function itemsSource(filter: unknown, sort: readonly SortSpec[], scope: Scope, params: Params): Source {
  return {
    from: 'data_items',
    where: scopedWhere(scope, filter, params),
    payload: 'data',
    keys: sortKeys(sort, (field) => pathExpr('data', field), true, ITEM_ID),
  };
}

const whereSql = (conditions: readonly string[]): string => {
  const kept = conditions.filter((condition) => condition !== TRUE);
  return kept.length === 0 ? '' : ` WHERE ${kept.join(' AND ')}`;
};

// ---------------------------------------------------------------- paged calls

type Kind = 'items' | 'search' | 'distinct' | 'aggregate';
type Direction = 'next' | 'prev';
/** One entry per sort key of a row: [] when the value is missing, [value] otherwise. */
type Position = unknown[][];

interface PagedCall<Spec> {
  kind: Kind;
  /** The request members a cursor carries to the next page. */
  requestKeys: readonly string[];
  read(request: Record<string, unknown>): Spec;
  source(spec: Spec, scope: Scope, params: Params): Source;
  projection(spec: Spec): string[];
}

/** What readPage needs from the request; opaque to the service. */
export interface PageState {
  kind: Kind;
  collectionId: string;
  request: Record<string, unknown>;
  limit: number;
  offset: number;
  total: boolean;
  direction: Direction;
  position?: Position;
  fields: string[];
}

export interface PagePlan {
  /** Rows {item, sort_keys}, at most limit + 1 (the extra row only says there is more). */
  sql: SqlQuery;
  /** One row {total}; present when a total was asked for. */
  countSql?: SqlQuery;
  state: PageState;
}

function compilePaged<Spec>(
  call: PagedCall<Spec>,
  scope: Scope,
  request: Record<string, unknown>,
  countTotal: boolean,
): PagePlan {
  const paging = readPaging(request);
  const cursor = paging.cursor === undefined ? undefined : decodeCursor(paging.cursor, scope.collectionId);
  if (cursor !== undefined && cursor.kind !== call.kind) throw badCursor();
  const kept = cursor?.request ?? pick(request, call.requestKeys);
  const spec = call.read(kept);
  const state: PageState = {
    kind: call.kind,
    collectionId: scope.collectionId,
    request: kept,
    limit: paging.limit ?? cursor?.limit ?? DEFAULT_LIMIT,
    offset: cursor?.offset ?? paging.offset,
    total: countTotal || cursor?.total === true,
    direction: cursor?.direction ?? 'next',
    position: cursor?.position,
    fields: call.projection(spec),
  };
  const params: Params = [];
  const sql = pageSql(call.source(spec, scope, params), state, params);
  const plan: PagePlan = { sql: sized(sql, params), state };
  if (state.total) {
    const countParams: Params = [];
    plan.countSql = sized(countSql(call.source(spec, scope, countParams)), countParams);
  }
  return plan;
}

function pick(request: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => present(request[key])).map((key) => [key, request[key]]));
}

function sized(sql: string, params: Params): SqlQuery {
  if (params.length > MAX_PARAMS) throw new QueryError('WDE0904', `The request is too large (more than ${MAX_PARAMS} values).`);
  return { sql, params };
}

const countSql = (source: Source): string => `SELECT count(*)::int AS total FROM ${source.from}${whereSql(source.where)}`;

function pageSql(source: Source, state: PageState, params: Params): string {
  const keys = state.direction === 'prev' ? source.keys.map((key) => ({ ...key, desc: !key.desc })) : source.keys;
  if (state.position === undefined) {
    const limit = bind(params, state.limit + 1);
    const offset = state.offset > 0 ? ` OFFSET ${bind(params, state.offset)}` : '';
    return `${selectSql(source, keys, source.where)} LIMIT ${limit}${offset}`;
  }
  const branches = keysetBranches(keys, state.position, params);
  const limit = bind(params, state.limit + 1);
  if (branches.length === 1) return `${selectSql(source, keys, [...source.where, ...branches])} LIMIT ${limit}`;
  // Two index-ordered runs (present values, then missing ones or the reverse), merged by one sort.
  const columns = keys.map((key, index) => `, ${key.expr} AS k${index}`).join('');
  const runs = branches.map((branch) => `(${selectSql(source, keys, [...source.where, branch], columns)} LIMIT ${limit})`);
  const outer = keys.map((key, index) => ({ ...key, expr: `k${index}` }));
  return `SELECT item, sort_keys FROM (${runs.join(' UNION ALL ')}) AS page ORDER BY ${orderSql(outer)} LIMIT ${limit}`;
}

function selectSql(source: Source, keys: readonly SortKey[], where: readonly string[], columns = ''): string {
  return (
    `SELECT ${source.payload} AS item, ${positionSql(keys)} AS sort_keys${columns} ` +
    `FROM ${source.from}${whereSql(where)} ORDER BY ${orderSql(keys)}`
  );
}

const orderSql = (keys: readonly SortKey[]): string =>
  keys.map((key) => `${key.expr} ${key.desc ? 'DESC' : 'ASC'}`).join(', ');

function positionSql(keys: readonly SortKey[]): string {
  const entries = keys.map((key) =>
    key.nullable
      ? `CASE WHEN ${key.expr} IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(${key.expr}) END`
      : `jsonb_build_array(${key.expr})`,
  );
  return `jsonb_build_array(${entries.join(', ')})`;
}

// ------------------------------------------------ keyset

/**
 * Conditions for the rows after `position`, the row comparison expanded for mixed directions. Each
 * condition bounds the leading key (`k0 >= $v`, `k0 IS NULL`, …) so that an index on it starts there;
 * when the leading key's missing values fall on the far side of the position, they are a second run.
 */
function keysetBranches(keys: readonly SortKey[], position: Position, params: Params): string[] {
  if (position.length !== keys.length) throw badCursor();
  const values = keys.map((key, index) => bindPosition(key, position[index], params));
  const [lead, ...rest] = keys;
  const [leadValue, ...restValues] = values;
  if (lead === undefined) throw badCursor();
  const tail = afterSql(rest, restValues);
  if (leadValue === undefined) {
    const missing = tail === FALSE ? FALSE : and([`${lead.expr} IS NULL`, tail]);
    const branches = lead.desc ? [missing, `${lead.expr} IS NOT NULL`] : [missing];
    return withoutFalse(branches);
  }
  const op = lead.desc ? '<' : '>';
  const beyond = `${lead.expr} ${op} ${leadValue}`;
  const within =
    tail === FALSE
      ? beyond
      : and([`${lead.expr} ${op}= ${leadValue}`, or([beyond, and([`${lead.expr} = ${leadValue}`, tail])])]);
  return lead.nullable && !lead.desc ? [within, `${lead.expr} IS NULL`] : [within];
}

function withoutFalse(branches: string[]): string[] {
  const kept = branches.filter((branch) => branch !== FALSE);
  return kept.length === 0 ? [FALSE] : kept;
}

/** Rows strictly after the position on these keys: OR over i of (keys before i equal AND key i beyond). */
function afterSql(keys: readonly SortKey[], values: readonly (string | undefined)[]): string {
  const [key, ...rest] = keys;
  if (key === undefined) return FALSE;
  const value = values[0];
  const tail = afterSql(rest, values.slice(1));
  const tie = tail === FALSE ? FALSE : and([value === undefined ? `${key.expr} IS NULL` : `${key.expr} = ${value}`, tail]);
  return or([beyondSql(key, value), tie]);
}

function beyondSql(key: SortKey, value: string | undefined): string {
  if (value === undefined) return key.desc ? `${key.expr} IS NOT NULL` : FALSE;
  const strict = `${key.expr} ${key.desc ? '<' : '>'} ${value}`;
  return key.nullable && !key.desc ? or([strict, `${key.expr} IS NULL`]) : strict;
}

function bindPosition(key: SortKey, entry: unknown[] | undefined, params: Params): string | undefined {
  if (entry === undefined || entry.length > 1) throw badCursor();
  if (entry.length === 0) {
    if (!key.nullable) throw badCursor();
    return undefined;
  }
  const [value] = entry;
  if (!key.text) return bindJson(params, value);
  if (typeof value !== 'string') throw badCursor();
  return bind(params, value);
}

// ------------------------------------------------ reading a page

// A type, not an interface, so that it fits the db layer's Record<string, unknown> rows.
export type PageRow = {
  item: unknown;
  sort_keys: unknown;
};

export interface PagingMetadata {
  count: number;
  offset: number;
  total?: number;
  tooManyToCount?: boolean;
  hasNext: boolean;
  cursors: { next?: string; prev?: string };
}

export interface Page {
  items: unknown[];
  pagingMetadata: PagingMetadata;
}

/**
 * The page of a plan from the rows plan.sql returned (jsonb columns parsed, as pg and PGlite do) and
 * the count plan.countSql returned. Cursors continue from the page's last (next) or first (prev) row.
 */
export function readPage(plan: PagePlan, rows: readonly PageRow[], total?: number): Page {
  const { state } = plan;
  const backward = state.direction === 'prev';
  const page = rows.slice(0, state.limit);
  if (backward) page.reverse();
  const more = rows.length > state.limit;
  const first = page[0];
  const last = page.at(-1);
  const cursors: PagingMetadata['cursors'] = {};
  const hasNext = backward ? last !== undefined : more;
  if (hasNext && last !== undefined) cursors.next = cursorAt(state, 'next', last, state.offset + page.length);
  const hasPrev = backward ? more : state.position !== undefined || state.offset > 0;
  if (hasPrev && first !== undefined) cursors.prev = cursorAt(state, 'prev', first, Math.max(0, state.offset - state.limit));
  const counted = total === undefined ? {} : { total, tooManyToCount: false };
  return {
    items: page.map((row) => (isPlainObject(row.item) ? projectFields(row.item, state.fields) : row.item)),
    pagingMetadata: { count: page.length, offset: state.offset, ...counted, hasNext, cursors },
  };
}

function cursorAt(state: PageState, direction: Direction, row: PageRow, offset: number): string {
  if (!isPosition(row.sort_keys)) throw new Error('readPage: a row has no sort_keys column from plan.sql');
  const { kind, collectionId, request, limit, total } = state;
  return encodeCursor({ v: 1, kind, collectionId, request, limit, total, direction, position: row.sort_keys, offset });
}

// ------------------------------------------------ cursors

export interface CursorState {
  v: 1;
  kind: Kind;
  collectionId: string;
  /** The request members (filter, sort, …) the cursor continues; validated again on every use. */
  request: Record<string, unknown>;
  limit: number;
  /** Count the total on every page. */
  total: boolean;
  direction: Direction;
  /** sort_keys of the row the page starts after (next) or before (prev). */
  position: Position;
  /** Offset of the page the cursor opens; reported, never used to skip rows. */
  offset: number;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KINDS: ReadonlySet<string> = new Set<Kind>(['items', 'search', 'distinct', 'aggregate']);

export function decodeCursor(text: string, collectionId: string): CursorState {
  const state = BASE64URL.test(text) ? parseJson(Buffer.from(text, 'base64url').toString('utf8')) : undefined;
  if (!isCursorState(state) || state.collectionId !== collectionId) throw badCursor();
  return state;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isCursorState(value: unknown): value is CursorState {
  if (!isPlainObject(value)) return false;
  const { v, kind, collectionId, request, limit, total, direction, position, offset } = value;
  return (
    v === 1 &&
    typeof kind === 'string' &&
    KINDS.has(kind) &&
    typeof collectionId === 'string' &&
    isPlainObject(request) &&
    typeof limit === 'number' &&
    Number.isSafeInteger(limit) &&
    limit >= 1 &&
    limit <= MAX_LIMIT &&
    typeof total === 'boolean' &&
    (direction === 'next' || direction === 'prev') &&
    isPosition(position) &&
    typeof offset === 'number' &&
    Number.isSafeInteger(offset) &&
    offset >= 0
  );
}

function isPosition(value: unknown): value is Position {
  return Array.isArray(value) && value.every((entry) => Array.isArray(entry) && entry.length <= 1);
}

function badCursor(): QueryError {
  return new QueryError('WDE0902', 'Invalid cursor: it is malformed or belongs to another query or collection.');
}

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
