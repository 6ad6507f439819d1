// SQL of the catalog search (statements from search-query.ts) and the rows it reads back.
import type { Queryable } from '../../platform/db.js';
import type { Product } from './products.js';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from './store.js';
import { collectionSuggestionsStatement, FUZZY_THRESHOLD, namePrefixQueryStatement, namePrefixStatement, nearestWordsStatement, type Statement } from './search-query.js';

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

/** Runs a search statement; tx is a transaction, which the fuzzy match's threshold is set for. */
export async function runSearch(tx: Queryable, statement: Statement): Promise<SearchRow> {
  await setFuzzyThreshold(tx);
  const rows = await tx.query<SearchRow>(statement.sql, statement.params);
  return rows[0];
}

/** The site's index version (migration 0900): equal versions, equal index. */
export async function indexVersion(db: Queryable, siteId: string): Promise<number> {
  const rows = await db.query<{ version: number | string }>('SELECT version FROM product_search_versions WHERE site_id = $1', [siteId]);
  return Number(rows[0]?.version ?? 0);
}

/** The products of a page of hits, in the hits' order. */
export async function productsInOrder(db: Queryable, siteId: string, ids: readonly string[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.site_id = $1 AND p.product_id = ANY($2::text[])`, [siteId, ids]);
  const byId = new Map(rows.map((r) => [r.product_id, toProduct(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Each query word's nearest word in the site's products (null when none is near), in order. */
export async function nearestWords(tx: Queryable, siteId: string, text: string, visibleOnly: boolean): Promise<(string | null)[]> {
  // Looser than the search's own fuzzy match, for this one transaction only.
  await setFuzzyThreshold(tx, 0.3);
  const { sql, params } = nearestWordsStatement(siteId, text, visibleOnly);
  const rows = await tx.query<{ nearest: string | null }>(sql, params);
  return rows.map((r) => r.nearest);
}

/** Products whose name starts words with the text's words (suggestions), in stock first, then by name. */
export async function namePrefixMatches(db: Queryable, siteId: string, text: string, visibleOnly: boolean, limit: number): Promise<string[]> {
  const first = namePrefixQueryStatement(siteId, text);
  const [{ tsq }] = await db.query<{ tsq: string }>(first.sql, first.params);
  const { sql, params } = namePrefixStatement(siteId, tsq, visibleOnly, limit);
  return (await db.query<{ product_id: string }>(sql, params)).map((r) => r.product_id);
}

export async function collectionSuggestions(db: Queryable, siteId: string, text: string, visibleOnly: boolean, limit: number) {
  const { sql, params } = collectionSuggestionsStatement(siteId, text, visibleOnly, limit);
  const rows = await db.query<{ collection_id: string; slug: string; name: string }>(sql, params);
  return rows.map((r) => ({ id: r.collection_id, slug: r.slug, name: r.name }));
}

/** Local to the transaction, so nothing of it stays on a pooled connection. */
export async function setFuzzyThreshold(tx: Queryable, threshold = FUZZY_THRESHOLD): Promise<void> {
  await tx.query(`SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)`, [String(threshold)]);
}
