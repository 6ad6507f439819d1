import { useQuery } from '@tanstack/react-query';
import { useAdmin } from '../context.js';

/** The store's product collections (for filters and the product form). */
export function useStoreCollections() {
  const { api } = useAdmin();
  return useQuery({
    queryKey: ['admin', 'store-collections'],
    queryFn: async () => (await api.storesCollections.queryCollections({ paging: { limit: 100 } })).collections,
  });
}

/** The back-in-stock requests shoppers left for one product. */
export function useBackInStockRequests(productId: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: ['admin', 'back-in-stock', productId],
    enabled: productId !== '',
    queryFn: async () => (await api.backInStock.queryRequests({ filter: { 'catalogReference.catalogItemId': productId }, paging: { limit: 100 } })).requests,
  });
}
