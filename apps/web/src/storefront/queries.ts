import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { backInStock, products, reviews, storesCollections, type BackInStockItemDetails, type Product, type ReviewContent } from '@bodega/sdk';
import { need, useShop, type Catalog } from '../shop/context.js';

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
      const { collections } = await catalog.use(storesCollections).queryCollections({ paging: { limit: 50 } });
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
        const found = await catalog.use(storesCollections).getCollectionBySlug(params.collection).catch(() => ({ collection: undefined }));
        if (!found.collection?._id) return { products: [] as Product[], total: 0, collectionName: undefined, unknownCollection: true };
        filter.collectionIds = { $hasSome: [found.collection._id] };
        collectionName = found.collection.name;
      }
      const response = await catalog.use(products).queryProducts({
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
    queryFn: async () => (await catalog.use(products).queryProducts({ sort: [{ fieldName: 'lastUpdated', order: 'DESC' }], paging: { limit: 8 } })).products,
    staleTime: 60_000,
  });

export const productQuery = (catalog: Catalog, slug: string) =>
  queryOptions({
    queryKey: ['product', slug],
    queryFn: async () => {
      const found = await catalog.use(products).queryProducts({ filter: { slug }, paging: { limit: 1 } }, { includeVariants: true });
      return found.products[0] ?? null;
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

/** A product's APPROVED rating summary (count, average to one decimal); rendered on the server too. */
export const ratingQuery = (catalog: Catalog, productId: string) =>
  queryOptions({
    queryKey: ['rating', productId],
    queryFn: async () => (await catalog.use(reviews).ratings([productId]))[0] ?? { entityId: productId, count: 0, average: '0' },
    staleTime: 60_000,
  });

export function useRating(productId: string) {
  const { catalog } = useShop();
  return useQuery(ratingQuery(catalog, productId));
}

export const REVIEWS_PAGE = 20;

/** The product's approved reviews, newest first (loaded in the browser). */
export function useProductReviews(productId: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: ['reviews', productId],
    enabled: Boolean(client),
    queryFn: async () => (await need(client).use(reviews).queryReviews({
      filter: { entityId: productId, 'moderation.moderationStatus': 'APPROVED' },
      sort: [{ fieldName: 'createdDate', order: 'DESC' }],
      cursorPaging: { limit: REVIEWS_PAGE },
    })).reviews,
  });
}

/** The signed-in member's own review of the product (whatever its status), or null. */
export function useOwnReview(productId: string, memberId: string | undefined) {
  const { client } = useShop();
  return useQuery({
    queryKey: ['reviews', productId, 'own', memberId],
    enabled: Boolean(client && memberId),
    queryFn: async () => (await need(client).use(reviews).queryReviews({ filter: { entityId: productId, 'author.contactId': memberId }, cursorPaging: { limit: 1 } })).reviews[0] ?? null,
  });
}

/** Writes the member's review, or edits it when `reviewId` is given. */
export function useSaveReview(productId: string) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ reviewId, content }: { reviewId?: string; content: ReviewContent & { rating: number } }) => {
      const shopper = need(client);
      return reviewId ? shopper.use(reviews).updateReviewContent(reviewId, content) : shopper.use(reviews).createReview({ entityId: productId, content });
    },
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['reviews', productId] }),
        queryClient.invalidateQueries({ queryKey: ['rating', productId] }),
      ]);
    },
  });
}

/** Asks to be mailed when a sold-out variant is back. */
export function useAskBackInStock() {
  const { client } = useShop();
  return useMutation({
    mutationFn: ({ productId, variantId, email, itemUrl, item }: { productId: string; variantId?: string; email: string; itemUrl: string; item: BackInStockItemDetails }) =>
      need(client).use(backInStock).createRequest({ catalogReference: { catalogItemId: productId, ...(variantId ? { options: { variantId } } : {}) }, email, itemUrl }, item),
  });
}
