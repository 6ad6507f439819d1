// The catalog's V1 product and collection queries, read from the wire: the fields a filter or sort
// may name (as SQL over products p / product_collections c), the back office's stock filter, and
// paging. Pure: no I/O.
import { ApiError } from '../../platform/errors.js';
import { formatDecimal, parseAmount, parseDecimal } from '../../platform/money.js';
import { FilterError, readInteger, type FieldMap } from '../../platform/query-filter.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  filter?: unknown;
  sort?: unknown;
  paging?: { limit?: unknown; offset?: unknown };
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export function filterError(error: unknown): never {
  if (error instanceof FilterError) throw new ApiError(400, 'INVALID_QUERY', error.message);
  throw error;
}

/**
 * The product fields a query may name. A filter's SQL names the site as `$1` (every product query's
 * first parameter) in its subqueries on collection_products, not `p.site_id`: on Citus a correlated
 * site join inside an OR or a scalar subquery is sent to every shard, the constant only to the site's.
 */
export function productFields(currency: string): FieldMap {
  const price = (value: unknown) => {
    const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new FilterError('A price filter needs a number');
    try {
      return parseAmount(formatDecimal(parseDecimal(n)), currency, { round: true }).toString();
    } catch {
      throw new FilterError(`${JSON.stringify(value)} is not a price`);
    }
  };
  return {
    id: { kind: 'column', sql: 'p.product_id', type: 'text', sortable: true },
    name: { kind: 'column', sql: 'p.name', type: 'text', sortable: true },
    slug: { kind: 'column', sql: 'p.slug', type: 'text', sortable: true },
    productType: { kind: 'column', sql: 'p.product_type', type: 'text', sortable: true },
    description: { kind: 'column', sql: `(p.doc->>'description')`, type: 'text' },
    sku: { kind: 'column', sql: 'p.sku', type: 'text', sortable: true },
    price: { kind: 'column', sql: 'p.discounted_minor', type: 'bigint', sortable: true, toParam: price },
    'priceData.price': { kind: 'column', sql: 'p.price_minor', type: 'bigint', sortable: true, toParam: price },
    numericId: { kind: 'column', sql: 'p.numeric_id', type: 'bigint', sortable: true },
    lastUpdated: { kind: 'column', sql: 'p.updated_at', type: 'timestamp', sortable: true },
    createdDate: { kind: 'column', sql: 'p.created_at', type: 'timestamp', sortable: true },
    visible: { kind: 'column', sql: 'p.visible', type: 'boolean', sortable: true },
    collectionIds: {
      kind: 'custom',
      compile(operator, operand, params) {
        const ids = (v: unknown): string[] => {
          const list = Array.isArray(v) ? v : [v];
          if (!list.every((x): x is string => typeof x === 'string')) throw new FilterError('collectionIds takes collection ids');
          return list;
        };
        const member = (list: string[]) => {
          params.push(list);
          return `EXISTS (SELECT 1 FROM collection_products cp WHERE cp.site_id = $1 AND cp.product_id = p.product_id AND cp.collection_id = ANY($${params.length}::text[]))`;
        };
        switch (operator) {
          case '$eq':
          case '$hasSome':
          case '$in':
            return member(ids(operand));
          case '$hasAll': {
            const list = [...new Set(ids(operand))];
            params.push(list);
            return `(SELECT count(*) FROM collection_products cp WHERE cp.site_id = $1 AND cp.product_id = p.product_id AND cp.collection_id = ANY($${params.length}::text[])) = ${list.length}`;
          }
          case '$exists':
            return operand ? 'TRUE' : 'FALSE';
          default:
            throw new FilterError(`The operator ${operator} is not supported on "collectionIds"`);
        }
      },
    },
  };
}

export const COLLECTION_FIELDS: FieldMap = {
  id: { kind: 'column', sql: 'c.collection_id', type: 'text', sortable: true },
  name: { kind: 'column', sql: 'c.name', type: 'text', sortable: true },
  slug: { kind: 'column', sql: 'c.slug', type: 'text', sortable: true },
  visible: { kind: 'column', sql: 'c.visible', type: 'boolean', sortable: true },
};

export type StockStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'LOW_STOCK';
export interface StockFilter {
  status: StockStatus;
  /** LOW_STOCK: the most units a product may have to count as low. */
  lowStockAtMost?: number;
}
export const DEFAULT_LOW_STOCK = 5;

/** Columns and functions of migrations 0701 and 0710; each form matches an index (see 0710). */
export function stockCondition(stock: StockFilter, params: unknown[]): string {
  switch (stock.status) {
    case 'IN_STOCK':
      return 'p.in_stock';
    case 'OUT_OF_STOCK':
      return 'NOT p.in_stock';
    case 'LOW_STOCK':
      params.push(stock.lowStockAtMost ?? DEFAULT_LOW_STOCK);
      return `(p.doc->>'trackInventory' = 'true' AND bodega_stock_level(p.doc) <= $${params.length}::integer)`;
  }
}

export function readPaging(paging: PageQuery['paging']): { limit: number; offset: number } {
  try {
    const limit = readInteger(paging?.limit, 'paging.limit', { min: 1, max: MAX_PAGE_SIZE }) ?? DEFAULT_PAGE_SIZE;
    const offset = readInteger(paging?.offset, 'paging.offset', { min: 0, max: 1_000_000 }) ?? 0;
    return { limit, offset };
  } catch (error) {
    return filterError(error);
  }
}
