// productsV3.searchProducts `aggregations` (value, range and scalar) over the products a search
// finds: a pure parser and SQL builder; the SQL runs on the catalog query's own FROM/WHERE.
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { brandId, ribbonId } from './v3-wire.js';

type Kind = 'VALUE' | 'RANGE' | 'SCALAR';

/** Field paths an aggregation may name → a SQL value per product (`many`: one row per element). */
const FIELDS: Record<string, { sql: string; many?: boolean; numeric?: boolean; toWire?: (value: string) => string }> = {
  'allCategoriesInfo.categories.id': { sql: 'collection_id', many: true },
  'directCategoriesInfo.categories.id': { sql: 'collection_id', many: true },
  // as the official package's typings spell them (it sends them as written)
  'allCategoriesInfo.categories._id': { sql: 'collection_id', many: true },
  'directCategoriesInfo.categories._id': { sql: 'collection_id', many: true },
  'brand.id': { sql: `p.doc->>'brand'`, toWire: brandId },
  'brand.name': { sql: `p.doc->>'brand'` },
  'ribbon.id': { sql: `p.doc->>'ribbon'`, toWire: ribbonId },
  'ribbon.name': { sql: `p.doc->>'ribbon'` },
  'inventory.availabilityStatus': { sql: `CASE WHEN p.in_stock THEN 'IN_STOCK' ELSE 'OUT_OF_STOCK' END` },
  productType: { sql: `upper(p.product_type)` },
  visible: { sql: `p.visible::text` },
  'actualPriceRange.minValue.amount': { sql: 'p.discounted_minor', numeric: true },
  'actualPriceRange.maxValue.amount': { sql: 'p.discounted_minor', numeric: true },
  'compareAtPriceRange.minValue.amount': { sql: 'p.price_minor', numeric: true },
  'compareAtPriceRange.maxValue.amount': { sql: 'p.price_minor', numeric: true },
};

export interface V3Aggregation {
  name: string;
  fieldPath: string;
  kind: Kind;
  limit: number;
  sortByValue: boolean;
  ascending: boolean;
  buckets: { from: number | null; to: number | null }[];
  scalar: 'MIN' | 'MAX' | 'COUNT_DISTINCT';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function parseAggregations(input: unknown): V3Aggregation[] {
  if (input === undefined || input === null) return [];
  const violations: FieldViolation[] = [];
  const bad = (i: number, description: string) => violations.push({ field: `search.aggregations[${i}]`, rule: 'VALIDATION', description });
  if (!Array.isArray(input) || input.length > 20) throw ApiError.validation([{ field: 'search.aggregations', rule: 'MAX_SIZE', description: 'a list of at most 20' }]);
  const parsed = input.flatMap((a: unknown, i): V3Aggregation[] => {
    if (!isObject(a) || typeof a.fieldPath !== 'string' || !Object.hasOwn(FIELDS, a.fieldPath)) {
      bad(i, `fieldPath must be one of ${Object.keys(FIELDS).join(', ')}`);
      return [];
    }
    const kind = (a.type ?? (a.range ? 'RANGE' : a.scalar ? 'SCALAR' : 'VALUE')) as Kind;
    if (!['VALUE', 'RANGE', 'SCALAR'].includes(kind)) {
      bad(i, 'type must be VALUE, RANGE or SCALAR');
      return [];
    }
    const value = isObject(a.value) ? a.value : {};
    const range = isObject(a.range) && Array.isArray(a.range.buckets) ? a.range.buckets : [];
    const scalar = isObject(a.scalar) ? a.scalar.type : 'COUNT_DISTINCT';
    if ((kind !== 'VALUE' && !FIELDS[a.fieldPath].numeric && !(kind === 'SCALAR' && scalar === 'COUNT_DISTINCT')) || (kind === 'RANGE' && (range.length === 0 || range.length > 50))) {
      bad(i, kind === 'RANGE' ? 'a range aggregation needs 1 to 50 buckets on a price' : 'MIN and MAX need a price');
      return [];
    }
    if (scalar !== 'MIN' && scalar !== 'MAX' && scalar !== 'COUNT_DISTINCT') {
      bad(i, 'scalar.type must be MIN, MAX or COUNT_DISTINCT');
      return [];
    }
    const limit = num(value.limit) ?? 10;
    return [{
      name: typeof a.name === 'string' ? a.name : a.fieldPath,
      fieldPath: a.fieldPath,
      kind,
      limit: Math.min(250, Math.max(1, Math.trunc(limit))),
      sortByValue: value.sortType === 'VALUE',
      ascending: value.sortDirection === 'ASC',
      buckets: range.map((b: unknown) => ({ from: isObject(b) ? num(b.from) : null, to: isObject(b) ? num(b.to) : null })),
      scalar,
    }];
  });
  if (violations.length) throw ApiError.validation(violations);
  return parsed;
}

/**
 * One statement answering every aggregation as a JSON column a0, a1, …; `from` is the catalog
 * query's `FROM products p … WHERE p.site_id = $1 …` (params already bound, the site first), `exponent`
 * the currency's. The collections' subquery names the site as `$1`: correlated (`cp.site_id =
 * p.site_id`) Citus sent the whole statement to every shard.
 */
export function aggregationsSql(aggregations: readonly V3Aggregation[], from: string, params: unknown[], exponent: number): string {
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const major = (sql: string) => `(${sql}::numeric / ${bind(String(10 ** exponent))}::numeric)`;
  const columns = aggregations.map((a, i) => {
    const field = FIELDS[a.fieldPath];
    const source = field.many
      ? `m CROSS JOIN LATERAL unnest(m.collection_ids) AS collection_id`
      : 'm';
    const value = field.many ? field.sql : field.sql.replace(/\bp\./g, 'm.');
    if (a.kind === 'VALUE') {
      const order = a.sortByValue ? `v ${a.ascending ? 'ASC' : 'DESC'}` : `n ${a.ascending ? 'ASC' : 'DESC'}, v`;
      return `(SELECT coalesce(json_agg(json_build_array(v, n) ORDER BY ${order}), '[]') FROM (
        SELECT ${value} AS v, count(*) AS n FROM ${source} WHERE ${value} IS NOT NULL GROUP BY 1 ORDER BY ${order} LIMIT ${bind(a.limit)}) x) AS a${i}`;
    }
    if (a.kind === 'RANGE') {
      const counts = a.buckets.map((b) => {
        const lower = b.from === null ? 'true' : `${major(value)} >= ${bind(String(b.from))}::numeric`;
        const upper = b.to === null ? 'true' : `${major(value)} < ${bind(String(b.to))}::numeric`;
        return `count(*) FILTER (WHERE ${lower} AND ${upper})`;
      });
      return `(SELECT json_build_array(${counts.join(', ')}) FROM m) AS a${i}`;
    }
    if (a.scalar === 'COUNT_DISTINCT') return `(SELECT count(DISTINCT ${value}) FROM ${source}) AS a${i}`;
    return `(SELECT ${a.scalar === 'MIN' ? 'min' : 'max'}(${major(value)}) FROM m) AS a${i}`;
  });
  return `WITH m AS MATERIALIZED (
  SELECT p.product_id, p.doc, p.in_stock, p.product_type, p.visible, p.discounted_minor, p.price_minor,
    ARRAY(SELECT cp.collection_id FROM collection_products cp WHERE cp.site_id = $1 AND cp.product_id = p.product_id) AS collection_ids
  ${from}
) SELECT ${columns.join(',\n  ')}`;
}

/** The wire's aggregationData from the statement's row. */
export function toWireAggregations(aggregations: readonly V3Aggregation[], row: Record<string, unknown>) {
  return {
    results: aggregations.map((a, i) => {
      const base = { name: a.name, type: a.kind, fieldPath: a.fieldPath };
      const data = row[`a${i}`];
      if (a.kind === 'VALUE') {
        const toWire = FIELDS[a.fieldPath].toWire ?? ((v: string) => v);
        return { ...base, values: { results: (data as [string, number | string][]).map(([v, n]) => ({ value: toWire(v), count: Number(n) })) } };
      }
      if (a.kind === 'RANGE') {
        const counts = data as (number | string)[];
        return { ...base, ranges: { results: a.buckets.map((b, j) => ({ ...(b.from !== null && { from: b.from }), ...(b.to !== null && { to: b.to }), count: Number(counts[j]) })) } };
      }
      return { ...base, scalar: { type: a.scalar, value: data === null ? 0 : Number(data) } };
    }),
  };
}
