// The catalog search: ranked, typo-tolerant text search with facet counts, suggestions as one
// types and "did you mean". The index (product_search) is kept by triggers (migration 0880) in the
// transaction of every product write, so what a search finds is what is committed.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { currencyExponent } from '../../platform/money.js';
import type { Product } from './products.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { foldText, hasSearchText, OPTION_SEPARATOR, priceEdges, searchStatement, type SearchSort, type Statement } from './search-query.js';
import * as searchStore from './search-store.js';
import { isShopper, type CatalogService } from './service.js';

export type { SearchSort } from './search-query.js';
export const SUGGESTIONS = 8;
const COLLECTION_SUGGESTIONS = 3;

export interface SearchInput {
  text: string;
  collectionIds?: string[];
  options?: Record<string, string[]>;
  /** Price bucket ids as the facets name them ("25-50", "500+"). */
  prices?: string[];
  inStock?: boolean;
  onSale?: boolean;
  brands?: string[];
  sort?: SearchSort;
  limit: number;
  offset: number;
}

export interface PriceBucket {
  id: string;
  from: bigint;
  to: bigint | null;
}

export interface SearchFacets {
  collections: { id: string; name: string; count: number }[];
  options: { name: string; values: { value: string; count: number }[] }[];
  prices: (PriceBucket & { count: number })[];
  inStock: number;
  onSale: number;
  brands: { name: string; count: number }[];
}

export interface SearchResult {
  products: Product[];
  total: number;
  facets: SearchFacets;
  /** A query near this one that finds something, when this one finds nothing. */
  didYouMean: string | null;
}

export interface Suggestions {
  products: Product[];
  collections: { id: string; slug: string; name: string }[];
}

/** The price buckets of a currency; ids are in major units, as a shopper reads them. */
export function priceBuckets(currency: string): PriceBucket[] {
  const exponent = currencyExponent(currency);
  const edges = priceEdges(exponent);
  const major = (minor: bigint) => (minor / 10n ** BigInt(exponent)).toString();
  return [0n, ...edges].map((from, i) => {
    const to = edges[i] ?? null;
    return { id: to === null ? `${major(from)}+` : `${major(from)}-${major(to)}`, from, to };
  });
}

/** The name cut where query words start its words, for highlighting (accents and case ignored). */
export function highlightName(name: string, text: string): { text: string; match: boolean }[] {
  const words = foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const found of name.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = found[0];
    const folded = foldText(word);
    const longest = Math.max(0, ...words.filter((w) => folded.startsWith(w)).map((w) => w.length));
    if (longest === 0) continue;
    // Folding keeps one letter per letter for most scripts; where it does not, the whole word is marked.
    const length = folded.length === word.length ? longest : word.length;
    const start = found.index;
    if (start > at) parts.push({ text: name.slice(at, start), match: false });
    parts.push({ text: name.slice(start, start + length), match: true });
    at = start + length;
  }
  if (at < name.length) parts.push({ text: name.slice(at), match: false });
  return parts;
}

const count = (n: number | string | null | undefined) => Number(n ?? 0);

/** How many search answers a process keeps, and how long (they are valid while the index is unchanged). */
const RESULT_CACHE = { maxSize: 1000, ttlMs: 10 * 60_000 };

/** What a suggestion keeps of its answer: the products' ids in order, and the collections. */
interface KeptSuggestion {
  ids: string[];
  collections: Suggestions['collections'];
}

export class CatalogSearch {
  private readonly results: TtlCache<string, searchStore.SearchRow>;
  private readonly suggestions: TtlCache<string, KeptSuggestion>;

  constructor(private readonly catalog: CatalogService, now: () => Date) {
    this.results = new TtlCache({ ...RESULT_CACHE, now });
    this.suggestions = new TtlCache({ ...RESULT_CACHE, now });
  }

  async search(ctx: RequestContext, input: SearchInput): Promise<SearchResult> {
    const buckets = priceBuckets(await this.catalog.currency(ctx.siteId));
    const bucketIndexes = (input.prices ?? []).map((id, i) => {
      const index = buckets.findIndex((b) => b.id === id);
      if (index < 0) throw ApiError.validation([{ field: `filters.prices[${i}]`, rule: 'INVALID_ENUM_VALUE', description: `one of ${buckets.map((b) => b.id).join(', ')}` }]);
      return index;
    });
    const visibleOnly = isShopper(ctx);
    const statement = searchStatement({
      siteId: ctx.siteId,
      text: input.text,
      filters: { collectionIds: input.collectionIds, options: input.options, priceBuckets: bucketIndexes, inStock: input.inStock, onSale: input.onSale, brands: input.brands },
      visibleOnly,
      sort: input.sort ?? (hasSearchText(input.text) ? 'RELEVANCE' : 'NAME'),
      limit: input.limit,
      offset: input.offset,
      priceEdges: buckets.slice(0, -1).map((b) => b.to ?? 0n),
      facets: true,
    });
    const row = await this.cachedSearch(ctx, statement);
    const total = count(row.total);
    const options = new Map<string, { value: string; count: number }[]>();
    for (const [pair, n] of row.options ?? []) {
      const [name, value] = pair.split(OPTION_SEPARATOR);
      options.set(name, [...(options.get(name) ?? []), { value, count: count(n) }]);
    }
    const prices = new Map((row.prices ?? []).map(([b, n]) => [b, count(n)]));
    return {
      products: await searchStore.productsInOrder(ctx, row.hits),
      total,
      facets: {
        collections: (row.collections ?? []).map(([id, name, n]) => ({ id, name, count: count(n) })),
        options: [...options].map(([name, values]) => ({ name, values })),
        prices: buckets.map((b, i) => ({ ...b, count: prices.get(i) ?? 0 })),
        inStock: count(row.in_stock),
        onSale: count(row.on_sale),
        brands: (row.brands ?? []).map(([name, n]) => ({ name, count: count(n) })),
      },
      didYouMean: total === 0 && hasSearchText(input.text) ? await this.correct(ctx, input.text, visibleOnly) : null,
    };
  }

  /**
   * Products whose name has the typed words as word starts, in stock first (the index keeps this
   * cheap at any catalog size), and collections; when no name matches, the words are corrected
   * through the site's word list, as "did you mean" does, and looked up once more.
   */
  async suggest(ctx: RequestContext, text: string): Promise<Suggestions> {
    if (!hasSearchText(text)) return { products: [], collections: [] };
    const visibleOnly = isShopper(ctx);
    // Kept by the site's index version, as search answers are (every product, membership and
    // collection change raises it): shoppers type the same first letters, and a kept answer costs
    // the version's read and the products' instead of three to five statements. The version is
    // read first, so what is kept under it is at least as new as it.
    const key = `${ctx.siteId}\n${await searchStore.indexVersion(ctx)}\n${visibleOnly}\n${text}`;
    let kept = this.suggestions.get(key);
    if (!kept) {
      kept = await this.suggestionsNow(ctx, text, visibleOnly);
      this.suggestions.set(key, kept);
    }
    return { products: await searchStore.productsInOrder(ctx, kept.ids), collections: kept.collections };
  }

  private async suggestionsNow(ctx: RequestContext, text: string, visibleOnly: boolean): Promise<KeptSuggestion> {
    const first = await searchStore.suggestionMatches(ctx, text, visibleOnly, COLLECTION_SUGGESTIONS, SUGGESTIONS);
    const { collections } = first;
    const limit = SUGGESTIONS - collections.length;
    let { ids } = first;
    if (ids.length === 0) {
      const corrected = await this.correct(ctx, text, visibleOnly);
      if (corrected !== null) ids = await searchStore.namePrefixMatches(ctx, corrected, visibleOnly, limit);
    }
    return { ids, collections };
  }

  /**
   * A search's row, from the cache when the site's index has not changed since it was computed.
   * The version is read before and again inside the statement (the same snapshot as the counts):
   * a row is kept under the version it was computed at, so a read never gets an older index's row.
   */
  private async cachedSearch(ctx: RequestContext, statement: Statement): Promise<searchStore.SearchRow> {
    const key = (version: number) => `${ctx.siteId}\n${version}\n${statement.sql}\n${JSON.stringify(statement.params, (_, v: unknown) => typeof v === 'bigint' ? v.toString() : v)}`;
    const cached = this.results.get(key(await searchStore.indexVersion(ctx)));
    if (cached) return cached;
    const row = await withTransaction(ctx, (tx) => searchStore.runSearch(tx, statement));
    this.results.set(key(count(row.version)), row);
    return row;
  }

  /** The text with each word replaced by its nearest word in the site's word list; null when none changes. */
  private async correct(ctx: RequestContext, text: string, visibleOnly: boolean): Promise<string | null> {
    const nearest = await withTransaction(ctx, (tx) => searchStore.nearestWords(tx, text, visibleOnly));
    if (nearest.every((w) => w === null)) return null;
    const words = foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const corrected = words.map((w, i) => nearest[i] ?? w).join(' ');
    return corrected === words.join(' ') ? null : corrected;
  }
}
