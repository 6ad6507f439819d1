/**
 * Bodega's catalog search for storefronts (`/_api/bodega/v1/catalog/…`): ranked, typo-tolerant
 * results with facet counts and "did you mean", and suggestions as one types. Shoppers find
 * visible products only; the back office (owner, contributor, API key) finds hidden ones too.
 */
import { call } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { Product } from '../types.js';

const SEARCH = '/_api/bodega/v1/catalog/search';
const SUGGEST = '/_api/bodega/v1/catalog/suggest';

export type CatalogSearchSort = 'RELEVANCE' | 'PRICE_ASC' | 'PRICE_DESC' | 'NEWEST' | 'NAME';

/** OR within a facet, AND across facets. */
export interface CatalogSearchFilters {
  collectionIds?: string[];
  /** Option name → values, e.g. `{ Colour: ['Oat', 'Charcoal'] }`. */
  options?: Record<string, string[]>;
  /** Price bucket ids as `facets.prices` names them (`"25-50"`, `"500+"`). */
  prices?: string[];
  inStock?: boolean;
  onSale?: boolean;
  brands?: string[];
}

export interface CatalogSearchRequest {
  text?: string;
  filters?: CatalogSearchFilters;
  /** RELEVANCE when there is text, else NAME. */
  sort?: CatalogSearchSort;
  paging?: { limit?: number; offset?: number };
}

/** A product's name cut into the parts the query matched and the rest. */
export type NameHighlight = { text: string; match: boolean }[];

export interface CatalogSearchHit {
  product: Product;
  nameHighlight: NameHighlight;
}

/** Each facet's counts are taken with every OTHER facet's filters applied. */
export interface CatalogSearchFacets {
  collections: { _id: string; name: string; count: number }[];
  options: { name: string; values: { value: string; count: number }[] }[];
  /** `from` inclusive, `to` exclusive (null: no upper bound); decimal strings of the site currency. */
  prices: { _id: string; from: string; to: string | null; count: number }[];
  inStock: number;
  onSale: number;
  brands: { name: string; count: number }[];
}

export interface CatalogSearchResponse {
  items: CatalogSearchHit[];
  metadata: { count: number; offset: number; limit: number; total: number };
  facets: CatalogSearchFacets;
  /** A near query that finds something, when this one finds nothing. */
  didYouMean: string | null;
}

export interface CatalogSuggestions {
  products: CatalogSearchHit[];
  collections: { _id: string; slug: string; name: string }[];
}

export function catalogSearch(t: Transport) {
  return {
    search: (request: CatalogSearchRequest = {}) =>
      call<CatalogSearchResponse>(t, 'POST', SEARCH, { ...request }, { args: { '*': 'request' } }),
    /** Products and collections for what has been typed so far; at most 8 in all. */
    suggest: (text: string) => call<CatalogSuggestions>(t, 'GET', SUGGEST, { text }, { args: { text: 'text' } }),
  };
}

export type CatalogSearchApi = ReturnType<typeof catalogSearch>;
