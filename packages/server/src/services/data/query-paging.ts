// Paged calls of the query compiler (query-compiler.ts): sources and sort keys, the page's SQL,
// keyset positions, reading a page back, and the opaque cursors. Pure.
import { Buffer } from 'node:buffer';
import { isPlainObject, isWireDate, projectFields } from './wire-values.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PARAMS, QueryError, type SortSpec, type SqlQuery, pathExpr, pathTextExpr, present, readPaging } from './query-basics.js';
import { FALSE, type Params, TRUE, and, bind, bindJson, compileFilter, or, toScalar } from './query-filters.js';

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
export interface Source {
  from: string;
  where: string[];
  payload: string;
  keys: SortKey[];
}

export interface Scope {
  siteId: string;
  collectionId: string;
  /** A filter the server adds (e.g. the caller's own items); never carried in a cursor. */
  restrict?: unknown;
}

/**
 * The conditions on the items of the scope matching `filter`: site and collection, then the
 * prefilters of the equalities the server filter and the filter require, then both filters.
 */
export function scopedWhere(scope: Scope, filter: unknown, params: Params): string[] {
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

export function sortKeys(
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

export function itemsSource(filter: unknown, sort: readonly SortSpec[], scope: Scope, params: Params): Source {
  return {
    from: 'data_items',
    where: scopedWhere(scope, filter, params),
    payload: 'data',
    keys: sortKeys(sort, (field) => pathExpr('data', field), true, ITEM_ID),
  };
}

export const whereSql = (conditions: readonly string[]): string => {
  const kept = conditions.filter((condition) => condition !== TRUE);
  return kept.length === 0 ? '' : ` WHERE ${kept.join(' AND ')}`;
};

// ---------------------------------------------------------------- paged calls

type Kind = 'items' | 'search' | 'distinct' | 'aggregate';
type Direction = 'next' | 'prev';
/** One entry per sort key of a row: [] when the value is missing, [value] otherwise. */
type Position = unknown[][];

export interface PagedCall<Spec> {
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

export function compilePaged<Spec>(
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

export function sized(sql: string, params: Params): SqlQuery {
  if (params.length > MAX_PARAMS) throw new QueryError('WDE0904', `The request is too large (more than ${MAX_PARAMS} values).`);
  return { sql, params };
}

export const countSql = (source: Source): string => `SELECT count(*)::int AS total FROM ${source.from}${whereSql(source.where)}`;

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
