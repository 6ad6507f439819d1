import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { catalogSearch, type CatalogSearchFilters, type CatalogSearchSort } from '@bodega/sdk';
import { useShop, type Catalog } from '../shop/context.js';

export const SEARCH_PAGE_SIZE = 24;
/** Suggestions start at this many characters. */
export const SUGGEST_FROM = 2;

/** The search page's state, all of it in the URL: shareable, and the back button undoes a filter. */
export interface SearchParams {
  q: string;
  collections: string[];
  /** Option name → values. */
  options: Record<string, string[]>;
  prices: string[];
  brands: string[];
  inStock: boolean;
  onSale: boolean;
  sort: CatalogSearchSort | '';
  page: number;
}

const SORTS: readonly CatalogSearchSort[] = ['RELEVANCE', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST', 'NAME'];
/** Option filters are `o.<option name>=<value>` parameters. */
const OPTION_PREFIX = 'o.';

export function parseSearch(url: URLSearchParams): SearchParams {
  const options: Record<string, string[]> = {};
  for (const [key, value] of url) {
    if (key.startsWith(OPTION_PREFIX) && key.length > OPTION_PREFIX.length) (options[key.slice(OPTION_PREFIX.length)] ??= []).push(value);
  }
  const sort = url.get('sort') ?? '';
  return {
    q: (url.get('q') ?? '').trim().slice(0, 200),
    collections: url.getAll('collection'),
    options,
    prices: url.getAll('price'),
    brands: url.getAll('brand'),
    inStock: url.get('stock') === '1',
    onSale: url.get('sale') === '1',
    sort: (SORTS as readonly string[]).includes(sort) ? sort as CatalogSearchSort : '',
    page: Math.max(1, Math.floor(Number(url.get('page')) || 1)),
  };
}

export function searchUrl(p: SearchParams): string {
  const url = new URLSearchParams();
  if (p.q) url.set('q', p.q);
  for (const c of p.collections) url.append('collection', c);
  for (const [name, values] of Object.entries(p.options)) for (const v of values) url.append(OPTION_PREFIX + name, v);
  for (const price of p.prices) url.append('price', price);
  for (const brand of p.brands) url.append('brand', brand);
  if (p.inStock) url.set('stock', '1');
  if (p.onSale) url.set('sale', '1');
  if (p.sort) url.set('sort', p.sort);
  if (p.page > 1) url.set('page', String(p.page));
  const text = url.toString();
  return `/search${text ? `?${text}` : ''}`;
}

function filtersOf(p: SearchParams): CatalogSearchFilters {
  return {
    ...(p.collections.length > 0 && { collectionIds: p.collections }),
    ...(Object.keys(p.options).length > 0 && { options: p.options }),
    ...(p.prices.length > 0 && { prices: p.prices }),
    ...(p.brands.length > 0 && { brands: p.brands }),
    ...(p.inStock && { inStock: true }),
    ...(p.onSale && { onSale: true }),
  };
}

export const searchQuery = (catalog: Catalog, p: SearchParams) =>
  queryOptions({
    queryKey: ['search', p],
    queryFn: () => catalog.use(catalogSearch).search({
      text: p.q,
      filters: filtersOf(p),
      ...(p.sort && { sort: p.sort }),
      paging: { limit: SEARCH_PAGE_SIZE, offset: (p.page - 1) * SEARCH_PAGE_SIZE },
    }),
    staleTime: 30_000,
  });

export function useCatalogSearch(p: SearchParams) {
  const { catalog } = useShop();
  return useQuery({ ...searchQuery(catalog, p), placeholderData: keepPreviousData });
}

export function useSuggestions(text: string) {
  const { catalog } = useShop();
  const trimmed = text.trim();
  return useQuery({
    queryKey: ['search-suggest', trimmed],
    queryFn: () => catalog.use(catalogSearch).suggest(trimmed),
    enabled: trimmed.length >= SUGGEST_FROM,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
