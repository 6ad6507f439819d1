// SQL of the catalog search (statements from search-query.ts) and the rows it reads back.
import type { DbContext, SiteContext } from '../../platform/context.js';
import type { Product } from './products.js';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from './store.js';
import { FUZZY_THRESHOLD, namePrefixQueryStatement, namePrefixStatement, nearestWordsStatement, suggestionStatement, suggestionTermsStatement, type Statement } from './search-query.js';

export interface SearchRow {
  total: number | string;
  hits: string[];
  collections?: [string, string, number | string][];
  options?: [string, number | string][];
  prices?: [number, number | string][];
  in_stock?: number | string;
  on_sale?: number | string;
  brands?: [string, number | string][];
  /** The site's index version the statement read (indexVersion, in the statement's snapshot). */
  version: number | string | null;
  [key: string]: unknown;
}

/** Runs a search statement; tx is in a transaction, which the fuzzy match's threshold is set for. */
export async function runSearch(tx: DbContext, statement: Statement): Promise<SearchRow> {
  await setFuzzyThreshold(tx);
  const rows = await tx.db.query<SearchRow>(statement.sql, statement.params);
  return rows[0];
}

/** The site's index version (migration 0900): equal versions, equal index. */
export async function indexVersion(ctx: SiteContext): Promise<number> {
  const rows = await ctx.db.query<{ version: number | string }>('SELECT version FROM product_search_versions WHERE site_id = $1', [ctx.siteId]);
  return Number(rows[0]?.version ?? 0);
}

/** The products of a page of hits, in the hits' order. */
export async function productsInOrder(ctx: SiteContext, ids: readonly string[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.site_id = $1 AND p.product_id = ANY($2::text[])`, [ctx.siteId, ids]);
  const byId = new Map(rows.map((r) => [r.product_id, toProduct(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Each query word's nearest word in the site's products (null when none is near), in order. */
export async function nearestWords(ctx: SiteContext, text: string, visibleOnly: boolean): Promise<(string | null)[]> {
  // Looser than the search's own fuzzy match, for this one transaction only.
  await setFuzzyThreshold(ctx, 0.3);
  const { sql, params } = nearestWordsStatement(ctx.siteId, text, visibleOnly);
  const rows = await ctx.db.query<{ nearest: string | null }>(sql, params);
  return rows.map((r) => r.nearest);
}

/** Products whose name starts words with the text's words (suggestions), in stock first, then by name. */
export async function namePrefixMatches(ctx: SiteContext, text: string, visibleOnly: boolean, limit: number): Promise<string[]> {
  const quick = suggestionTermsStatement(ctx.siteId, text, visibleOnly, limit);
  const found = (await ctx.db.query<{ product_id: string }>(quick.sql, quick.params)).map((r) => r.product_id);
  return found.length > 0 ? found : namePrefixFallback(ctx, text, visibleOnly, limit);
}

/** When no name has the text at a word start: every word starting a word of the name, stemmed or as typed. */
async function namePrefixFallback(ctx: SiteContext, text: string, visibleOnly: boolean, limit: number): Promise<string[]> {
  const first = namePrefixQueryStatement(ctx.siteId, text);
  const [{ tsq }] = await ctx.db.query<{ tsq: string }>(first.sql, first.params);
  const { sql, params } = namePrefixStatement(ctx.siteId, tsq, visibleOnly, limit);
  return (await ctx.db.query<{ product_id: string }>(sql, params)).map((r) => r.product_id);
}

/**
 * A suggestion's collections (up to `collections`) and products (up to `limit` with the
 * collections): the collections and the first try in one statement, the fallback when it found
 * no product.
 */
export async function suggestionMatches(ctx: SiteContext, text: string, visibleOnly: boolean, collections: number, limit: number) {
  const { sql, params } = suggestionStatement(ctx.siteId, text, visibleOnly, collections, limit);
  const [row] = await ctx.db.query<{ collections: [string, string, string][]; ids: string[] }>(sql, params);
  const found = row.collections.map(([id, slug, name]) => ({ id, slug, name }));
  const ids = row.ids.length > 0 ? row.ids : await namePrefixFallback(ctx, text, visibleOnly, limit - found.length);
  return { collections: found, ids };
}

/**
 * The trigram thresholds of `%` (a typo's word against the word list) and `<%` ("did you mean"),
 * local to the transaction, so nothing of it stays on a pooled connection.
 */
export async function setFuzzyThreshold(tx: DbContext, threshold = FUZZY_THRESHOLD): Promise<void> {
  // SET LOCAL rather than set_config: Citus passes SET LOCAL on to the worker that runs the search
  // (citus.propagate_set_commands, platform/citus.ts). One round trip for both; the value is ours.
  const value = Number(threshold);
  if (!(value >= 0 && value <= 1)) throw new Error(`a trigram threshold is between 0 and 1, not ${threshold}`);
  await tx.db.exec(`SET LOCAL pg_trgm.similarity_threshold = ${value}; SET LOCAL pg_trgm.word_similarity_threshold = ${value}`);
}
