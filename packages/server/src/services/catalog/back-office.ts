// Reads for the back office (services/backoffice): low stock, the command palette's search, the
// export's batches and collections by slug for imports. SQL on the catalog's tables only.
import type { SiteContext } from '../../platform/context.js';
import { ALL_PRODUCTS_COLLECTION_ID, type Product } from './products.js';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from './store.js';

export interface LowStock {
  productId: string;
  variantId?: string;
  name: string;
  quantity: number;
}

/**
 * Tracked products whose stock is at or below `threshold`, lowest first. bodega_stock_level(doc)
 * (migration 0701) is the product's quantity, or its lowest variant's when variants are managed;
 * an index on it keeps this a short range scan.
 */
export async function lowStock(ctx: SiteContext, threshold: number, limit: number): Promise<LowStock[]> {
  const rows = await ctx.db.query<{ product_id: string; name: string; level: number; variant_id: string | null }>(
    `SELECT p.product_id, p.name, bodega_stock_level(p.doc) AS level,
            CASE WHEN (p.doc->>'manageVariants')::boolean THEN
              (SELECT v->>'id' FROM jsonb_array_elements(p.doc->'variants') v ORDER BY (v->>'quantity')::int NULLS LAST LIMIT 1) END AS variant_id
       FROM products p
      WHERE p.site_id = $1 AND p.doc->>'trackInventory' = 'true' AND bodega_stock_level(p.doc) <= $2
      ORDER BY bodega_stock_level(p.doc), p.product_id LIMIT $3`,
    [ctx.siteId, threshold, limit],
  );
  return rows.map((r) => ({ productId: r.product_id, ...(r.variant_id ? { variantId: r.variant_id } : {}), name: r.name, quantity: Number(r.level) }));
}

/**
 * Names starting with `q` first (a range of the lower-cased name index, stopping at `limit`), then,
 * only when those do not fill the list, names containing it (a scan of the site's products).
 */
export async function findProductsBrief(ctx: SiteContext, q: string, limit: number): Promise<{ id: string; name: string }[]> {
  const needle = escapeLike(q.toLowerCase());
  const prefix = await ctx.db.query<{ product_id: string; name: string }>(
    'SELECT p.product_id, p.name FROM products p WHERE p.site_id = $1 AND lower(p.name) LIKE $2 LIMIT $3', [ctx.siteId, `${needle}%`, limit]);
  const found = prefix.sort((a, b) => a.name.localeCompare(b.name));
  if (found.length < limit) {
    const inside = await ctx.db.query<{ product_id: string; name: string }>(
      'SELECT p.product_id, p.name FROM products p WHERE p.site_id = $1 AND lower(p.name) LIKE $2 AND lower(p.name) NOT LIKE $3 LIMIT $4',
      [ctx.siteId, `%${needle}%`, `${needle}%`, limit - found.length]);
    found.push(...inside.sort((a, b) => a.name.localeCompare(b.name)));
  }
  return found.map((r) => ({ id: r.product_id, name: r.name }));
}

/** Every product, oldest first, a batch at a time (keyset paging), with its collections' slugs. */
export async function* productsForExport(ctx: SiteContext, batch = 500): AsyncGenerator<{ product: Product; collectionSlugs: string[] }[]> {
  const slugs = await collectionSlugs(ctx);
  let after: { created: Date; id: string } | undefined;
  for (;;) {
    const params: unknown[] = [ctx.siteId, batch];
    const where = after ? `AND (p.created_at, p.product_id) > ($${params.push(after.created)}, $${params.push(after.id)})` : '';
    const rows = await ctx.db.query<ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.site_id = $1 ${where} ORDER BY p.created_at, p.product_id LIMIT $2`, params);
    const products = rows.map(toProduct);
    if (products.length) yield products.map((product) => ({ product, collectionSlugs: product.collectionIds.flatMap((id) => slugs.get(id) ?? []) }));
    if (products.length < batch) return;
    const last = products[products.length - 1];
    after = { created: last.createdDate, id: last.id };
  }
}

/** Collection id → slug, without the All Products collection every product is in. */
export async function collectionSlugs(ctx: SiteContext): Promise<Map<string, string>> {
  const rows = await ctx.db.query<{ collection_id: string; slug: string }>('SELECT collection_id, slug FROM product_collections WHERE site_id = $1', [ctx.siteId]);
  return new Map(rows.filter((r) => r.collection_id !== ALL_PRODUCTS_COLLECTION_ID).map((r) => [r.collection_id, r.slug]));
}

/** Which of these product ids the site has (an import updates those and creates the rest). */
export async function existingProductIds(ctx: SiteContext, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db.query<{ product_id: string }>('SELECT product_id FROM products WHERE site_id = $1 AND product_id = ANY($2::text[])', [ctx.siteId, ids]);
  return new Set(rows.map((r) => r.product_id));
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
