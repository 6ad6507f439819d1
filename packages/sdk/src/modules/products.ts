/** `@wix/stores` products (catalog v1): reads from the catalog reader, writes to the catalog server. */
import { call, callVoid, enc } from '../core/generated.js';
import { CATALOG_READER as R, CATALOG_WRITER as W } from '../core/paths.js';
import { PlatformQueryBuilder } from '../core/platform-query.js';
import type { Transport } from '../core/transport.js';
import type {
  CollectionResponse, Product, ProductInput, ProductOptionsAvailabilityResponse, ProductResponse, QueryProductVariantsResponse, QueryProductsResponse,
  StoresCollectionInput, UpdateVariantsResponse,
} from '../types.js';

const ID = { id: '_id', '*': 'options' };

export interface ProductsQuery {
  filter?: Record<string, unknown>;
  sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[];
  paging?: { limit?: number; offset?: number };
}
export interface QueryProductsOptions {
  includeVariants?: boolean;
  includeHiddenProducts?: boolean;
  includeMerchantSpecificData?: boolean;
}
export type { QueryProductsResponse } from '../types.js';

export function products(t: Transport) {
  const query = (request: ProductsQuery, options: QueryProductsOptions = {}) =>
    call<QueryProductsResponse>(t, 'GET', `${R}/products/query-platformized`, { query: request, ...options }, {
      args: { query: 'query', '*': 'options' },
      complex: true,
      fallback: true,
    });

  function queryProducts(options?: QueryProductsOptions): PlatformQueryBuilder<Product>;
  function queryProducts(request: ProductsQuery, options?: QueryProductsOptions): Promise<QueryProductsResponse>;
  function queryProducts(
    first?: ProductsQuery | QueryProductsOptions,
    options?: QueryProductsOptions,
  ): PlatformQueryBuilder<Product> | Promise<QueryProductsResponse> {
    if (first && ('filter' in first || 'sort' in first || 'paging' in first)) return query(first, options);
    const builderOptions = first as QueryProductsOptions | undefined;
    return new PlatformQueryBuilder<Product>(async (request) => {
      const body = await query(request, builderOptions);
      return { items: body.products ?? [], total: body.metadata?.total };
    });
  }

  return {
    queryProducts,
    getProduct: (_id: string, options: { includeMerchantSpecificData?: boolean } = {}) =>
      call<ProductResponse>(t, 'GET', `${R}/products/${enc(_id)}`, { id: _id, ...options }, { args: ID }),
    getCollectionBySlug: (slug: string) =>
      call<CollectionResponse>(t, 'GET', `${R}/collections/slug/${enc(slug)}`, { slug }),
    getProductOptionsAvailability: (_id: string, options: Record<string, string> = {}) =>
      call<ProductOptionsAvailabilityResponse>(t, 'POST', `${R}/products/${enc(_id)}/productOptionsAvailability`, {
        id: _id,
        options,
      }, { args: { id: '_id', options: 'options' } }),
    queryProductVariants: (
      _id: string,
      options: { choices?: Record<string, string>; variantIds?: string[]; paging?: { limit?: number; offset?: number } } = {},
    ) =>
      call<QueryProductVariantsResponse>(
        t,
        'POST',
        `${R}/products/${enc(_id)}/variants/query`,
        { id: _id, ...options },
        { args: ID },
      ),
    createProduct: (product: ProductInput) => call<ProductResponse>(t, 'POST', `${W}/products`, { product }),
    updateProduct: (_id: string, product: ProductInput) =>
      call<ProductResponse>(t, 'PATCH', `${W}/products/${enc(_id)}`, { product: { ...product, id: _id } }, {
        args: { 'product.id': '_id' },
      }),
    deleteProduct: (_id: string) => callVoid(t, 'DELETE', `${W}/products/${enc(_id)}`, { id: _id }, { args: ID }),
    updateProductVariants: (_id: string, variants: Record<string, unknown>[]) =>
      call<UpdateVariantsResponse>(t, 'PATCH', `${W}/products/${enc(_id)}/variants`, {
        id: _id,
        variants,
      }, { args: { id: '_id' } }),
    addProductMedia: (_id: string, media: { url?: string; mediaId?: string }[]) =>
      callVoid(t, 'POST', `${W}/products/${enc(_id)}/media`, { id: _id, media }, { args: { id: '_id', media: 'media' } }),
    removeProductMedia: (_id: string, mediaIds: string[] = []) =>
      callVoid(t, 'POST', `${W}/products/${enc(_id)}/media/delete`, { id: _id, mediaIds }, { args: { id: '_id', mediaIds: 'mediaIds' } }),
    /** Wix's addProductMediaToChoices: the product's media items (by id) shown for option choices. */
    addProductMediaToChoices: (_id: string, media: { option: string; choice: string; mediaIds: string[] }[]) =>
      callVoid(t, 'PATCH', `${W}/products/${enc(_id)}/choices/media`, { id: _id, media }, { args: { id: '_id', media: 'media' } }),
    /** Wix's removeProductMediaFromChoices: an empty `mediaIds` removes all of a choice's. */
    removeProductMediaFromChoices: (_id: string, media: { option: string; choice: string; mediaIds: string[] }[]) =>
      callVoid(t, 'POST', `${W}/products/${enc(_id)}/choices/media/delete`, { id: _id, media }, { args: { id: '_id', media: 'media' } }),
    removeProductRibbon: (_id: string) =>
      callVoid(t, 'POST', `${W}/products/${enc(_id)}/remove-ribbon`, { id: _id }, { args: ID }),
    createCollection: (collection: StoresCollectionInput) =>
      call<CollectionResponse>(t, 'POST', `${W}/collections`, { collection }),
    updateCollection: (_id: string, collection: StoresCollectionInput) =>
      call<CollectionResponse>(t, 'PATCH', `${W}/collections/${enc(_id)}`, { collection: { ...collection, id: _id } }, {
        args: { 'collection.id': '_id' },
      }),
    deleteCollection: (_id: string) =>
      callVoid(t, 'DELETE', `${W}/collections/${enc(_id)}`, { id: _id }, { args: ID }),
    addProductsToCollection: (_id: string, productIds: string[]) =>
      callVoid(t, 'POST', `${W}/collections/${enc(_id)}/productIds`, { id: _id, productIds }, { args: { id: '_id' } }),
    removeProductsFromCollection: (_id: string, productIds: string[]) =>
      callVoid(t, 'POST', `${W}/collections/${enc(_id)}/productIds/delete`, { id: _id, productIds }, {
        args: { id: '_id' },
      }),
  };
}
