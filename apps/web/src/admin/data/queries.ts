import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataCollectionInput, DataIndex, DataItem, QueryRequest } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const ITEMS_PAGE_SIZE = 20;

type ItemsQuery = QueryRequest;

/** Data collections (their list comes from `useDataCollections` in ../queries.ts), one collection, its indexes and items. */
export const dataKeys = {
  collections: adminKeys.dataCollections(),
  collection: (id: string) => [...dataKeys.collections, 'detail', id] as const,
  indexes: (id: string) => [...dataKeys.collection(id), 'indexes'] as const,
  items: (id: string) => [...adminKeys.dataItems(), id] as const,
  itemsPage: (id: string, query: ItemsQuery) => [...dataKeys.items(id), query] as const,
};

export function useDataCollection(id: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: dataKeys.collection(id), queryFn: () => api.dataCollections.getDataCollection(id) });
}

/** A new collection with one text field, its items readable by anyone and written by the back office. */
export function useCreateDataCollection() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; name: string }) => api.dataCollections.createDataCollection({
      _id: input.id, displayName: input.name, fields: [{ key: 'title', displayName: 'Title', type: 'TEXT' }],
      permissions: { insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN', read: 'ANYONE' },
    }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.collections }),
  });
}

/** Saves a collection's fields or permissions (the whole collection is sent). */
export function useUpdateDataCollection() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (collection: DataCollectionInput) => api.dataCollections.updateDataCollection(collection),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.collections }),
  });
}

/** One page of a collection's items under a filter and a sort, with the total. */
export function useDataItems(id: string, query: ItemsQuery) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: dataKeys.itemsPage(id, query),
    placeholderData: keepPreviousData,
    queryFn: () => api.items.query(id, query, { returnTotalCount: true }),
  });
}

/** Adds the item, or saves it when it has an id already there (`existing`). */
export function useSaveItem(id: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, existing }: { item: DataItem; existing: boolean }) => (existing ? api.items.update(id, item) : api.items.insert(id, item)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.items(id) }),
  });
}

export function useRemoveItem(id: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: DataItem) => api.items.remove(id, item._id ?? ''),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.items(id) }),
  });
}

/** The collection's indexes, read again every second while one is being built (a drop answers when done). */
export function useDataIndexes(id: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: dataKeys.indexes(id),
    queryFn: async () => (await api.dataIndexes.listIndexes(id)).indexes,
    refetchInterval: (q) => (q.state.data?.some((i) => i.status === 'BUILDING') ? 1000 : false),
  });
}

export function useCreateIndex(id: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: DataIndex) => api.dataIndexes.createIndex(id, index),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.indexes(id) }),
  });
}

export function useDropIndex(id: string) {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: DataIndex) => api.dataIndexes.dropIndex(id, index.name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataKeys.indexes(id) }),
  });
}
