// SQL of the recommendation algorithms: read-only scans of the catalog (products, collection
// membership) and of placed orders' lines. Every query is scoped to the site ($1) and returns
// visible products only, best first, never one of the items asked about.
import type { SiteContext } from '../../platform/context.js';

const ALL_PRODUCTS_COLLECTION_ID = '00000000-000000-000000-000000000001';

/** Lines of the site's orders that count as sales (a canceled order sold nothing). */
const SOLD_LINES = `SELECT o.order_id, l->>'productId' AS product_id, COALESCE((l->>'quantity')::int, 1) AS quantity
  FROM orders o, jsonb_array_elements(o.doc->'lines') AS l
  WHERE o.site_id = $1 AND o.status <> 'CANCELED' AND l->>'productId' IS NOT NULL`;

async function productIds(ctx: SiteContext, sql: string, params: unknown[]): Promise<string[]> {
  const rows = await ctx.db.query<{ product_id: string }>(sql, [ctx.siteId, ...params]);
  return rows.map((r) => r.product_id);
}

/** Products sharing the most collections with `items` (then the newest). */
export function sameCollections(ctx: SiteContext, items: readonly string[], limit: number): Promise<string[]> {
  return productIds(ctx, `
    SELECT p.product_id FROM collection_products mine
    JOIN collection_products other ON other.site_id = mine.site_id AND other.collection_id = mine.collection_id
    JOIN products p ON p.site_id = other.site_id AND p.product_id = other.product_id
    WHERE mine.site_id = $1 AND mine.product_id = ANY($2::text[]) AND mine.collection_id <> $4
      AND p.visible AND NOT (p.product_id = ANY($2::text[]))
    GROUP BY p.product_id, p.created_at
    ORDER BY count(DISTINCT other.collection_id) DESC, p.created_at DESC, p.product_id
    LIMIT $3`, [items, limit, ALL_PRODUCTS_COLLECTION_ID]);
}

/** Products found in the same orders as the first of `items`, most orders together first. */
export function boughtTogether(ctx: SiteContext, item: string, exclude: readonly string[], limit: number): Promise<string[]> {
  return productIds(ctx, `
    WITH sold AS (${SOLD_LINES}),
    with_item AS (SELECT DISTINCT order_id FROM sold WHERE product_id = $2)
    SELECT p.product_id FROM sold JOIN with_item USING (order_id)
    JOIN products p ON p.site_id = $1 AND p.product_id = sold.product_id
    WHERE p.visible AND NOT (p.product_id = ANY($3::text[]))
    GROUP BY p.product_id
    ORDER BY count(DISTINCT sold.order_id) DESC, p.product_id
    LIMIT $4`, [item, exclude, limit]);
}

/** The site's products with the most units sold. */
export function bestSellers(ctx: SiteContext, exclude: readonly string[], limit: number): Promise<string[]> {
  return productIds(ctx, `
    WITH sold AS (${SOLD_LINES})
    SELECT p.product_id FROM sold JOIN products p ON p.site_id = $1 AND p.product_id = sold.product_id
    WHERE p.visible AND NOT (p.product_id = ANY($2::text[]))
    GROUP BY p.product_id
    ORDER BY sum(sold.quantity) DESC, p.product_id
    LIMIT $3`, [exclude, limit]);
}
