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
