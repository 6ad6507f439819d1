import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateImportJobInput, ExportKind, ImportTarget, OrdersExportFilters } from '@bodega/sdk';
import type { AdminClient } from './client.js';
import { useAdmin } from './context.js';

/**
 * The back office's query keys. Every key starts with `admin` (signing out drops them all), then
 * its feature's root, named here once so no two features share one and a page may refresh
 * another feature's lists (an import, the products). Each feature's `queries.ts` builds its own
 * key factory on its root and invalidates through it, never with a key written by hand.
 */
export const adminKeys = {
  all: ['admin'] as const,
  me: () => [...adminKeys.all, 'me'] as const,
  dashboard: () => [...adminKeys.all, 'dashboard'] as const,
  dashboardRange: (range: { from: string; to: string; timeZone: string }) => [...adminKeys.dashboard(), range] as const,
  search: (term: string) => [...adminKeys.all, 'search', term] as const,
  importJob: (jobId: string | null) => [...adminKeys.all, 'import-job', jobId] as const,
  // The features' roots.
  orders: () => [...adminKeys.all, 'orders'] as const,
  products: () => [...adminKeys.all, 'products'] as const,
  members: () => [...adminKeys.all, 'members'] as const,
  reviews: () => [...adminKeys.all, 'reviews'] as const,
  dataCollections: () => [...adminKeys.all, 'data-collections'] as const,
  dataItems: () => [...adminKeys.all, 'data-items'] as const,
  auditLog: () => [...adminKeys.all, 'audit-log'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  invoices: () => [...adminKeys.all, 'invoices'] as const,
};

/** Who is signed in to the back office (refused for a shopper: the layout says so). */
export function useBackOfficeMe(api: AdminClient | undefined, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.me(),
    enabled: enabled && api !== undefined,
    retry: false,
    queryFn: () => api!.backOffice.me(),
  });
}

/** Forgets every back-office answer (after signing out, so the next person sees none of it). */
export function useForgetBackOffice() {
  const queryClient = useQueryClient();
  return () => queryClient.removeQueries({ queryKey: adminKeys.all });
}

/** The dashboard's figures for a range of days in the browser's time zone. */
export function useDashboard(range: { from: string; to: string; timeZone: string }, enabled: boolean) {
  const { api } = useAdmin();
  return useQuery({ queryKey: adminKeys.dashboardRange(range), queryFn: () => api.backOffice.dashboard(range), enabled });
}

/** The command palette's products, orders and members matching a term. */
export function usePaletteSearch(term: string, enabled: boolean) {
  const { api } = useAdmin();
  return useQuery({ queryKey: adminKeys.search(term), enabled: enabled && term.length > 0, queryFn: () => api.backOffice.search(term, { limit: 5 }), staleTime: 10_000 });
}

/** A CSV export as a blob (orders take the list's filters); the page saves it. */
export function useCsvExport() {
  const { api } = useAdmin();
  return useMutation({
    mutationFn: async ({ kind, filters }: { kind: ExportKind; filters?: OrdersExportFilters }) => (await api.backOffice.exportCsv(kind, filters)).blob(),
  });
}

const finished = (status: string | undefined) => status === 'DONE' || status === 'FAILED';

/** An import job on the server, read every half second until it is done or failed. */
export function useImportJob(jobId: string | null) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: adminKeys.importJob(jobId),
    enabled: jobId !== null,
    queryFn: async () => (await api.backOffice.getImportJob(jobId ?? '')).job,
    refetchInterval: (q) => (finished(q.state.data?.status) ? false : 500),
  });
}

export function useStartImport() {
  const { api } = useAdmin();
  return useMutation({
    mutationFn: (input: CreateImportJobInput) => api.backOffice.createImportJob(input),
  });
}

/** The failed rows of an import, as a CSV blob. */
export function useImportFailures() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: async (jobId: string) => (await api.backOffice.importFailuresCsv(jobId)).blob() });
}

/** The site's data collections (the data pages and the import's collection picker). */
export function useDataCollections(enabled = true) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: [...adminKeys.dataCollections(), 'list'] as const,
    enabled,
    queryFn: () => api.dataCollections.listDataCollections({ paging: { limit: 100 } }),
  });
}

/** After an import: the lists it changed show what it imported when next opened. */
export function useImportedInto() {
  const queryClient = useQueryClient();
  return (target: ImportTarget) => queryClient.invalidateQueries({ queryKey: target === 'products' ? adminKeys.products() : adminKeys.dataItems() });
}
