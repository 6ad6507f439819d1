import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Product } from '@bodega/sdk';
import { useShop, type Catalog } from '../shop/context.js';

export const PAGE_SIZE = 12;
export type Sort = 'price_asc' | 'price_desc' | 'name' | 'newest';

/** The listing's state, all of it in the URL so a listing can be shared and reloaded. */
export interface ListingParams {
  q: string;
  collection: string;
  minPrice?: number;
  maxPrice?: number;
  sort: Sort | '';
  page: number;
}

const SORTS: Record<Sort, { fieldName: string; order: 'ASC' | 'DESC' }> = {
  price_asc: { fieldName: 'price', order: 'ASC' },
  price_desc: { fieldName: 'price', order: 'DESC' },
  name: { fieldName: 'name', order: 'ASC' },
  newest: { fieldName: 'lastUpdated', order: 'DESC' },
};

function numberParam(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function parseListing(search: URLSearchParams): ListingParams {
  const sort = search.get('sort') ?? '';
  const page = Math.max(1, Math.floor(numberParam(search.get('page')) ?? 1));
  return {
    q: (search.get('q') ?? '').trim().slice(0, 100),
    collection: search.get('collection') ?? '',
    minPrice: numberParam(search.get('minPrice')),
    maxPrice: numberParam(search.get('maxPrice')),
    sort: sort in SORTS ? (sort as Sort) : '',
    page,
  };
}

export const collectionsQuery = (catalog: Catalog) =>
  queryOptions({
    queryKey: ['collections'],
    queryFn: async () => {
      const { collections } = await catalog.storesCollections.queryCollections({ paging: { limit: 50 } });
      // "All Products" is the catalog's built-in collection: the listing itself.
      return collections.filter((c) => c.slug !== 'all-products' && c.visible !== false);
    },
    staleTime: 5 * 60_000,
  });

export const listingQuery = (catalog: Catalog, params: ListingParams) =>
  queryOptions({
    queryKey: ['products', params],
    queryFn: async () => {
      const filter: Record<string, unknown> = {};
      if (params.q) filter.name = { $startsWith: params.q };
      if (params.minPrice !== undefined || params.maxPrice !== undefined) {
        filter.price = { ...(params.minPrice !== undefined && { $gte: params.minPrice }), ...(params.maxPrice !== undefined && { $lte: params.maxPrice }) };
      }
      let collectionName: string | undefined;
      if (params.collection) {
        const found = await catalog.storesCollections.getCollectionBySlug(params.collection).catch(() => ({ collection: undefined }));
        if (!found.collection?._id) return { products: [] as Product[], total: 0, collectionName: undefined, unknownCollection: true };
        filter.collectionIds = { $hasSome: [found.collection._id] };
        collectionName = found.collection.name;
      }
      const response = await catalog.products.queryProducts({
        filter,
        sort: params.sort ? [SORTS[params.sort]] : [{ fieldName: 'name', order: 'ASC' }],
        paging: { limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE },
      });
      return { products: response.products, total: response.metadata?.total ?? response.products.length, collectionName, unknownCollection: false };
    },
    staleTime: 60_000,
  });

export const featuredQuery = (catalog: Catalog) =>
  queryOptions({
    queryKey: ['featured'],
    queryFn: async () => (await catalog.products.queryProducts({ sort: [{ fieldName: 'lastUpdated', order: 'DESC' }], paging: { limit: 8 } })).products,
    staleTime: 60_000,
  });

export const productQuery = (catalog: Catalog, slug: string) =>
  queryOptions({
    queryKey: ['product', slug],
    queryFn: async () => {
      const { products } = await catalog.products.queryProducts({ filter: { slug }, paging: { limit: 1 } }, { includeVariants: true });
      return products[0] ?? null;
    },
    staleTime: 60_000,
  });

export function useCollections() {
  const { catalog } = useShop();
  return useQuery(collectionsQuery(catalog));
}

export function useListing(params: ListingParams) {
  const { catalog } = useShop();
  return useQuery({ ...listingQuery(catalog, params), placeholderData: keepPreviousData });
}

export function useFeatured() {
  const { catalog } = useShop();
  return useQuery(featuredQuery(catalog));
}

export function useProduct(slug: string) {
  const { catalog } = useShop();
  return useQuery(productQuery(catalog, slug));
}
