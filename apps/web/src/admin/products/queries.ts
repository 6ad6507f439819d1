import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackOfficeProductsOptions, Product, StoresCollection } from '@bodega/sdk';
import type { AdminClient } from '../client.js';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';
import { saveProduct, type ProductForm } from './product-form.js';

export const PRODUCTS_PAGE_SIZE = 25;

type ProductsQuery = Parameters<AdminClient['backOffice']['queryProducts']>[0];

/** The products feature's keys: lists, one product, its back-in-stock requests, the collections. */
export const productKeys = {
  all: adminKeys.products(),
  lists: () => [...productKeys.all, 'list'] as const,
  list: (query: ProductsQuery, options: BackOfficeProductsOptions) => [...productKeys.lists(), query, options] as const,
  detail: (productId: string | undefined) => [...productKeys.all, 'detail', productId ?? 'new'] as const,
  backInStock: (productId: string) => [...productKeys.detail(productId), 'back-in-stock'] as const,
  collections: () => [...productKeys.all, 'collections'] as const,
};

/** One page of the back office's product query (hidden products too; `text` through the catalog search). */
export function useProducts(query: ProductsQuery, options: BackOfficeProductsOptions) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: productKeys.list(query, options),
    placeholderData: keepPreviousData,
    queryFn: () => api.backOffice.queryProducts(query, options),
  });
}

/** A product with what only the merchant sees; none for a new one. */
export function useProductDetail(productId: string | undefined) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: productKeys.detail(productId),
    enabled: productId !== undefined,
    queryFn: async () => (await api.products.getProduct(productId ?? '', { includeMerchantSpecificData: true })).product ?? null,
  });
}

/** The store's product collections (for filters and the product form). */
export function useStoreCollections() {
  const { api } = useAdmin();
  return useQuery({
    queryKey: productKeys.collections(),
    queryFn: async () => (await api.storesCollections.queryCollections({ paging: { limit: 100 } })).collections,
  });
}

/** The back-in-stock requests shoppers left for one product. */
export function useBackInStockRequests(productId: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: productKeys.backInStock(productId),
    enabled: productId !== '',
    queryFn: async () => (await api.backInStock.queryRequests({ filter: { 'catalogReference.catalogItemId': productId }, paging: { limit: 100 } })).requests,
  });
}

/** Everything the products feature shows is read again after a change (lists, the product, collection counts). */
function useProductsChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: productKeys.all });
}

/** Creates the product, or saves the changes to `before`; answers the product's id. */
export function useSaveProduct(id: string | undefined, before: Product | undefined) {
  const { api } = useAdmin();
  const changed = useProductsChanged();
  return useMutation({
    mutationFn: (form: ProductForm) => saveProduct(api, id, before, form),
    onSuccess: changed,
  });
}

export function useDeleteProduct() {
  const { api } = useAdmin();
  const changed = useProductsChanged();
  return useMutation({ mutationFn: (productId: string) => api.products.deleteProduct(productId), onSuccess: changed });
}

export type BulkField = 'price' | 'stock' | 'visible';
export interface BulkProgress { done: number; failed: string[] }

const BULK_CHUNK = 20;
const why = (error: unknown) => (error instanceof Error ? error.message : 'failed');

/**
 * One change (price, stock of every variant, or visibility) for many products, in chunks of 20,
 * telling `onProgress` after each chunk; a product that fails is listed, the others go on.
 */
export function useBulkEdit() {
  const { api } = useAdmin();
  const changed = useProductsChanged();
  return useMutation({
    mutationFn: async ({ ids, field, value, known, onProgress }: {
      ids: readonly string[]; field: BulkField; value: string; known: ReadonlyMap<string, Product>; onProgress: (progress: BulkProgress) => void;
    }): Promise<BulkProgress> => {
      const name = (id: string) => known.get(id)?.name ?? id;
      const apply = async (id: string) => {
        if (field === 'visible') {
          await api.products.updateProduct(id, { visible: value === 'visible' });
        } else if (field === 'stock') {
          const quantity = Number(value);
          const product = known.get(id) ?? (await api.products.getProduct(id)).product;
          const variants = product.variants.map((v) => ({ variantId: v._id, quantity }));
          await api.inventory.updateInventoryVariants(id, { trackQuantity: true, variants });
        }
      };
      const failed: string[] = [];
      let done = 0;
      onProgress({ done, failed });
      for (let i = 0; i < ids.length; i += BULK_CHUNK) {
        const chunk = ids.slice(i, i + BULK_CHUNK);
        if (field === 'price') {
          try {
            const res = await api.backOffice.bulkUpdateProductsProperty(chunk, { price: Number(value) });
            for (const r of res.results ?? []) if (r.itemMetadata?.success === false) failed.push(`${r.itemMetadata._id ?? ''}: ${r.itemMetadata.error?.description ?? 'refused'}`);
          } catch (error) {
            failed.push(...chunk.map((id) => `${name(id)}: ${why(error)}`));
          }
        } else {
          const outcomes = await Promise.allSettled(chunk.map((id) => apply(id)));
          outcomes.forEach((o, j) => { if (o.status === 'rejected') failed.push(`${name(chunk[j])}: ${why(o.reason)}`); });
        }
        done += chunk.length;
        onProgress({ done, failed: [...failed] });
      }
      return { done, failed };
    },
    onSettled: changed,
  });
}

/** Creates a collection, or saves the changes to one. */
export function useSaveCollection() {
  const { api } = useAdmin();
  const changed = useProductsChanged();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: string; input: { name: string; description: string; visible: boolean } }) => {
      if (id === undefined) await api.products.createCollection(input);
      else await api.products.updateCollection(id, input);
      return input.name;
    },
    onSuccess: changed,
  });
}

export function useDeleteCollection() {
  const { api } = useAdmin();
  const changed = useProductsChanged();
  return useMutation({ mutationFn: (c: StoresCollection) => api.products.deleteCollection(c._id ?? ''), onSuccess: changed });
}

/** Uploads one picture for the product form, reporting its progress. */
export function useUploadMedia() {
  const { api } = useAdmin();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (sent: number) => void }) => api.media.upload(file, { fileName: file.name, onProgress }),
  });
}

const digitalKey = (productId: string) => [...productKeys.detail(productId), 'digital'] as const;

/** A digital product's files and download rules. */
export function useDigitalProduct(productId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: digitalKey(productId), queryFn: () => api.digital.product(productId) });
}

/** Uploads a file, reporting the share sent (0–1) as it goes. */
export function useAttachFile(productId: string, onProgress: (share: number) => void) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api.digital.attachFile(productId, file, { onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 0) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: digitalKey(productId) }),
  });
}

export function useRemoveFile(productId: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) => api.digital.removeFile(productId, fileId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: digitalKey(productId) }),
  });
}

export function useSetDownloadRules(productId: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: { linkDays: number; maxDownloads: number }) => api.digital.setRules(productId, rules),
    onSettled: () => queryClient.invalidateQueries({ queryKey: digitalKey(productId) }),
  });
}
