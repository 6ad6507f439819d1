import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportFormat } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

/** Imports an order file; the orders list and the dashboard then show what it brought in. */
export function useImportOrders() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { format: ImportFormat; content: string }) => api.backOffice.importOrders(input),
    onSuccess: async (answer) => {
      if (answer.imported > 0) await Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.orders() }), queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() })]);
    },
  });
}

/** An order import's refused rows, as a CSV blob. */
export function useOrderImportFailures() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: async (importId: string) => (await api.backOffice.orderImportFailuresCsv(importId)).blob() });
}
