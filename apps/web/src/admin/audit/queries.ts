import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuditFilters } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const AUDIT_PAGE_SIZE = 25;

export const auditKeys = {
  all: adminKeys.auditLog(),
  list: (filters: AuditFilters, cursor: string | undefined) => [...auditKeys.all, 'list', filters, cursor ?? ''] as const,
  settings: () => [...auditKeys.all, 'settings'] as const,
};

/** One page of the audit log under the filters, newest first. */
export function useAuditLog(filters: AuditFilters, cursor: string | undefined) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: auditKeys.list(filters, cursor),
    placeholderData: keepPreviousData,
    queryFn: () => api.auditLog.list({ ...filters, limit: AUDIT_PAGE_SIZE, ...(cursor && { cursor }) }),
  });
}

export function useAuditSettings() {
  const { api } = useAdmin();
  return useQuery({ queryKey: auditKeys.settings(), queryFn: async () => (await api.auditLog.settings()).settings });
}

/** Saves the retention; the change itself is a new entry, so the list is read again. */
export function useSaveRetention() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (retentionDays: number) => api.auditLog.updateSettings({ retentionDays }),
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** The filtered log as a CSV blob (the export is recorded too, so the list is read again). */
export function useAuditExport() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (filters: AuditFilters) => (await api.auditLog.exportCsv(filters)).blob(),
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: auditKeys.all }),
  });
}
