import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authentication, emptyTokens, invoices, members, orders, passkeys, security, type Member, type MemberAddressInput } from '@bodega/sdk';
import { need, useShop } from '../shop/context.js';
import { notifySignInChanged, useSignedIn } from '../shop/member.js';

const ORDERS_PAGE = 10;

export function useMyOrders() {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useInfiniteQuery({
    queryKey: ['orders', 'mine'],
    enabled: signedIn,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => need(client).use(orders).searchOrders({
      sort: [{ fieldName: 'createdDate', order: 'DESC' }],
      cursorPaging: { limit: ORDERS_PAGE, ...(pageParam && { cursor: pageParam }) },
    }),
    getNextPageParam: (last) => (last.metadata?.hasNext ? last.metadata.cursors?.next : undefined),
  });
}

export interface Fulfillment {
  id?: string;
  createdDate?: string;
  trackingInfo?: { trackingNumber?: string; shippingProvider?: string; trackingLink?: string };
}

export function useFulfillments(orderId: string) {
  const { client } = useShop();
  return useQuery({
    queryKey: ['orders', 'fulfillments', orderId],
    enabled: client !== undefined,
    queryFn: async (): Promise<Fulfillment[]> => {
      // The SDK has no fulfillments module yet; its authorised fetch reaches the same API.
      const res = await need(client).fetchWithAuth(`${window.location.origin}/ecom/v1/fulfillments/orders/${encodeURIComponent(orderId)}`);
      if (!res.ok) return [];
      const body = (await res.json()) as { orderWithFulfillments?: { fulfillments?: Fulfillment[] } };
      return body.orderWithFulfillments?.fulfillments ?? [];
    },
  });
}

/** The invoices of one of the member's orders. */
export function useMyOrderInvoices(orderId: string) {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useQuery({ queryKey: ['orders', 'invoices', orderId], enabled: signedIn && client !== undefined, queryFn: () => need(client).use(invoices).forOrder(orderId) });
}

/** An invoice's PDF as a blob (the page saves it). */
export function useMyInvoicePdf() {
  const { client } = useShop();
  return useMutation({ mutationFn: async (invoiceId: string) => (await need(client).use(invoices).pdf(invoiceId)).blob() });
}

export function useUpdateMember() {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, update, slug, community }: { id: string; update: Partial<Member>; slug?: string; community?: 'join' | 'leave' }) => {
      const api = need(client).use(members);
      let member = await api.updateMember(id, update);
      if (slug !== undefined && slug !== member.profile?.slug) member = (await api.updateCurrentMemberSlug(slug)).member ?? member;
      if (community === 'join') member = (await api.joinCommunity()).member ?? member;
      if (community === 'leave') member = (await api.leaveCommunity()).member ?? member;
      return member;
    },
    onSuccess: (member) => queryClient.setQueryData(['member'], member),
  });
}

export function useSaveAddresses() {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, addresses }: { id: string; addresses: MemberAddressInput[] }) => need(client).use(members).updateMember(id, { contact: { addresses } }),
    onSuccess: (member) => queryClient.setQueryData(['member'], member),
  });
}

/**
 * A new password ends every sign-in of the member, this one too (a thief's tokens must stop at
 * once): this tab signs in again with the new password, so the member stays signed in here only.
 */
export function useChangePassword(loginEmail: string | undefined) {
  const { client } = useShop();
  return useMutation({
    mutationFn: async (password: string) => {
      const shop = need(client);
      await shop.use(authentication).changePassword(password);
      // This sign-in ended with the others: its tokens are dropped before signing in again.
      shop.auth.setTokens(emptyTokens());
      if (!loginEmail) return;
      const state = await shop.use(authentication).loginV2({ email: loginEmail }, { password });
      if (state.state === 'SUCCESS' && state.sessionToken) {
        shop.auth.setTokens(await shop.auth.getMemberTokensForDirectLogin(state.sessionToken));
        notifySignInChanged();
      }
    },
  });
}


// ─── Security: second factors, recovery codes, remembered devices ─────────────────────────────

export function useSecurity() {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useQuery({ queryKey: ['security'], enabled: signedIn, queryFn: () => need(client).use(security).overview() });
}

/** One Security change; the overview is read again after it. */
export function useSecurityChange<A, R>(change: (api: ReturnType<typeof security>, arg: A) => Promise<R>) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (arg: A) => change(need(client).use(security), arg),
    // The overview is awaited (the page waits for it); the sessions list follows on its own.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['security', 'sessions'] });
      return queryClient.invalidateQueries({ queryKey: ['security'], exact: true });
    },
  });
}

// ─── Security: signed-in sessions and the password re-check ──────────────────────────────────

/** The member's sign-ins (each device or app signed in), the most recently used first. */
export function useSignedInSessions() {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useQuery({ queryKey: ['security', 'sessions'], enabled: signedIn, queryFn: async () => (await need(client).use(security).listSessions()).sessions });
}

// ─── Passkeys: the member's own (account/Passkeys.tsx) ────────────────────────────────────────

export function usePasskeys() {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useQuery({ queryKey: ['passkeys'], enabled: signedIn, queryFn: () => need(client).use(passkeys).list() });
}

/** One passkey change; the list (and the second-step overview) is read again after it. */
export function usePasskeyChange<A, R>(change: (api: ReturnType<typeof passkeys>, arg: A) => Promise<R>) {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (arg: A) => change(need(client).use(passkeys), arg),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['passkeys'] });
      await queryClient.invalidateQueries({ queryKey: ['security'] });
    },
  });
}
