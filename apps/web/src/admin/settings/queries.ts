import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommerceSettings, Coupon, CouponSpecification, CouponSpecificationPatch, MailStatus, PaymentSettingsPatch, SiteScript, SiteSettingsPatch, WebhookDelivery,
  WebhookSubscription,
} from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const MAIL_PAGE_SIZE = 25;

/** The settings pages' keys, one branch per page. */
export const settingsKeys = {
  all: adminKeys.settings(),
  site: () => [...settingsKeys.all, 'site'] as const,
  siteScripts: () => [...settingsKeys.all, 'site-scripts'] as const,
  commerce: () => [...settingsKeys.all, 'commerce'] as const,
  coupons: () => [...settingsKeys.all, 'coupons'] as const,
  apiKeys: () => [...settingsKeys.all, 'api-keys'] as const,
  webhooks: () => [...settingsKeys.all, 'webhooks'] as const,
  deliveries: (webhookId: string) => [...settingsKeys.webhooks(), webhookId, 'deliveries'] as const,
  mail: () => [...settingsKeys.all, 'mail'] as const,
  mailPage: (status: MailStatus | '', cursor: string | undefined) => [...settingsKeys.mail(), 'list', status, cursor ?? ''] as const,
  oneMail: (id: string | undefined) => [...settingsKeys.mail(), 'one', id] as const,
  payments: () => [...settingsKeys.all, 'payments'] as const,
};

function useInvalidate() {
  const queryClient = useQueryClient();
  return (queryKey: readonly unknown[]) => queryClient.invalidateQueries({ queryKey });
}

// The store: name, currency, sign-up, domains, site scripts.

export function useSiteSettings() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.site(), queryFn: async () => (await api.settings.getSiteSettings()).settings });
}

/** Saves the store's settings; its name and currency show everywhere, so everything is read again. */
export function useSaveSiteSettings() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (settings: SiteSettingsPatch) => api.settings.updateSiteSettings(settings), onSuccess: () => invalidate(adminKeys.all) });
}

/** Checks a domain's proof now. */
export function useVerifyDomain() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (domain: string) => api.settings.verifyDomain(domain), onSuccess: () => invalidate(settingsKeys.site()) });
}

export function useSiteScripts() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.siteScripts(), queryFn: async () => (await api.settings.listSiteScripts()).siteScripts });
}

export function useReplaceSiteScripts() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (scripts: SiteScript[]) => api.settings.replaceSiteScripts(scripts), onSuccess: () => invalidate(settingsKeys.siteScripts()) });
}

// Shipping, pickup, tax and the inventory trigger.

export function useCommerceSettings() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.commerce(), queryFn: async () => (await api.settings.getCommerceSettings()).settings });
}

export function useSaveCommerceSettings() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (settings: CommerceSettings) => api.settings.updateCommerceSettings(settings), onSuccess: () => invalidate(settingsKeys.commerce()) });
}

// Coupons.

export function useCoupons() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.coupons(), queryFn: () => api.settings.queryCoupons({ limit: 100 }) });
}

export function useCreateCoupon() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (specification: CouponSpecification) => api.settings.createCoupon(specification), onSuccess: () => invalidate(settingsKeys.coupons()) });
}

export function useUpdateCoupon() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, specification }: { id: string; specification: CouponSpecificationPatch }) => api.settings.updateCoupon(id, specification),
    onSuccess: () => invalidate(settingsKeys.coupons()),
  });
}

export function useDeleteCoupon() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (c: Coupon) => api.settings.deleteCoupon(c.id), onSuccess: () => invalidate(settingsKeys.coupons()) });
}

// API keys.

export function useApiKeys() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.apiKeys(), queryFn: () => api.backOffice.listApiKeys() });
}

/** Creates a key; the answer holds its secret, shown once. */
export function useCreateApiKey() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (name: string) => api.backOffice.createApiKey(name), onSuccess: () => invalidate(settingsKeys.apiKeys()) });
}

export function useRevokeApiKey() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.backOffice.revokeApiKey(id), onSuccess: () => invalidate(settingsKeys.apiKeys()) });
}

// Webhooks.

export function useWebhooks() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.webhooks(), queryFn: () => api.settings.listWebhooks() });
}

/** Creates a webhook in the standard format; the answer holds its signing secret, shown once. */
export function useCreateWebhook() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { url: string; eventTypes: string[] }) => api.settings.createWebhook({ ...input, format: 'STANDARD' }),
    onSuccess: () => invalidate(settingsKeys.webhooks()),
  });
}

/** Sends a test event (its delivery shows in the log). */
export function useTestWebhook() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: (id: string) => api.settings.testWebhook(id) });
}

/** Pauses a webhook, or resumes a paused one. */
export function useToggleWebhook() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (h: WebhookSubscription) => (h.status === 'PAUSED' ? api.settings.resumeWebhook(h.id) : api.settings.pauseWebhook(h.id)),
    onSuccess: () => invalidate(settingsKeys.webhooks()),
  });
}

export function useDeleteWebhook() {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (h: WebhookSubscription) => api.settings.deleteWebhook(h.id), onSuccess: () => invalidate(settingsKeys.webhooks()) });
}

/** A webhook's last 50 deliveries. */
export function useDeliveries(webhookId: string) {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.deliveries(webhookId), queryFn: () => api.settings.listDeliveries(webhookId, { limit: 50 }) });
}

/** Sends a delivery again, as a new delivery. */
export function useReplayDelivery(webhookId: string) {
  const { api } = useAdmin();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (d: WebhookDelivery) => api.settings.replayDelivery(webhookId, d.id),
    onSuccess: () => invalidate(settingsKeys.deliveries(webhookId)),
  });
}

// The mail outbox.

export function useMails(status: MailStatus | '', cursor: string | undefined) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: settingsKeys.mailPage(status, cursor),
    placeholderData: keepPreviousData,
    queryFn: () => api.backOffice.listMails({ limit: MAIL_PAGE_SIZE, ...(status && { status }), ...(cursor && { cursor }) }),
  });
}

/** One stored mail with its text, once it is opened. */
export function useMail(id: string | undefined) {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.oneMail(id), enabled: id !== undefined, queryFn: () => api.backOffice.getMail(id ?? '') });
}

// Payments: the provider, its keys and the offline methods.

export function usePaymentSettings() {
  const { api } = useAdmin();
  return useQuery({ queryKey: settingsKeys.payments(), queryFn: async () => (await api.payments.getPaymentSettings()).settings });
}

/** Saves the payment settings; the answer (keys never shown again) becomes what the page reads. */
export function useSavePaymentSettings() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: PaymentSettingsPatch) => api.payments.updatePaymentSettings(patch),
    onSuccess: ({ settings }) => queryClient.setQueryData(settingsKeys.payments(), settings),
  });
}

/** Asks the provider whether the saved keys work; answers in its words. */
export function useTestPaymentConnection() {
  const { api } = useAdmin();
  return useMutation({ mutationFn: () => api.payments.testConnection() });
}
