import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoiceStatus } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const INVOICES_PAGE_SIZE = 25;

export const invoiceKeys = {
  all: adminKeys.invoices(),
  lists: () => [...invoiceKeys.all, 'list'] as const,
  list: (q: string, status: InvoiceStatus | '', offset: number) => [...invoiceKeys.lists(), q, status, offset] as const,
  ofOrder: (orderId: string) => [...invoiceKeys.all, 'order', orderId] as const,
  settings: () => [...invoiceKeys.all, 'settings'] as const,
};

/** One page of the site's invoices, newest first, matching `q` and in `status` (any when ''). */
export function useInvoices(q: string, status: InvoiceStatus | '', offset: number) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: invoiceKeys.list(q, status, offset),
    placeholderData: keepPreviousData,
    queryFn: () => api.invoices.list({ ...(q && { q }), ...(status && { status }), limit: INVOICES_PAGE_SIZE, offset }),
  });
}

export function useOrderInvoices(orderId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: invoiceKeys.ofOrder(orderId), queryFn: () => api.invoices.forOrder(orderId) });
}

/** After an invoice changes: its order's list, the invoices list, and the order (its timeline). */
function useInvoicesChanged(orderId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    await queryClient.invalidateQueries({ queryKey: [...adminKeys.orders(), 'detail', orderId] });
  };
}

export function useCreateInvoice(orderId: string) {
  const { api } = useAdmin();
  const changed = useInvoicesChanged(orderId);
  return useMutation({ mutationFn: () => api.invoices.create(orderId), onSuccess: changed });
}

export function useSendInvoice(orderId: string) {
  const { api } = useAdmin();
  const changed = useInvoicesChanged(orderId);
  return useMutation({ mutationFn: ({ invoiceId, email }: { invoiceId: string; email?: string }) => api.invoices.send(invoiceId, email), onSuccess: changed });
}

/** Voids an invoice sent and unpaid, or deletes one never sent; either keeps its number. */
export function useCloseInvoice(orderId: string) {
  const { api } = useAdmin();
  const changed = useInvoicesChanged(orderId);
  return useMutation({ mutationFn: ({ invoiceId, how }: { invoiceId: string; how: 'void' | 'delete' }) => (how === 'void' ? api.invoices.void(invoiceId) : api.invoices.delete(invoiceId)), onSuccess: changed });
}

/** The invoice's PDF as a blob (the page saves it). */
export function useInvoicePdf() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: async (invoiceId: string) => (await api.invoices.pdf(invoiceId)).blob() });
}

/** The invoice settings (the owner's: a contributor is refused by the server). */
export function useInvoiceSettings(enabled: boolean) {
  const { api } = useAdmin();
  return useQuery({ queryKey: invoiceKeys.settings(), enabled, queryFn: () => api.invoices.settings() });
}

export function useSaveInvoiceSettings() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Parameters<typeof api.invoices.updateSettings>[0]) => api.invoices.updateSettings(patch),
    onSuccess: (settings) => queryClient.setQueryData(invoiceKeys.settings(), settings),
  });
}
