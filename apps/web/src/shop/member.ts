import { BodegaError, emptyTokens, members } from '@bodega/sdk';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { ShopClient } from './client.js';
import { need, useShop } from './context.js';

// Sign-in state lives in the SDK's cookie storage; components subscribe to changes made here.
const listeners = new Set<() => void>();
export function notifySignInChanged(): void {
  for (const listener of listeners) listener();
}

/** Whether the shopper is a signed-in member (false during server rendering and hydration). */
export function useSignedIn(): boolean {
  const { client } = useShop();
  return useSyncExternalStore(
    (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
    () => client?.auth.loggedIn() ?? false,
    () => false,
  );
}

/** How often a signed-in shopper's member is read again, so a blocked member drops out of an idle page. */
const MEMBER_RECHECK_MS = 60_000;

/** Forgets everything personal and tells every subscriber the shopper is a visitor now. */
function forgetMember(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: ['member'] });
  queryClient.removeQueries({ queryKey: ['orders'] });
  queryClient.removeQueries({ queryKey: ['cart'] });
  notifySignInChanged();
}

/**
 * The server no longer accepts this member (blocked, taken offline: 401 on their access token;
 * or the SDK's renewal was refused and it went on as a visitor): drop the tokens here.
 */
function memberRefused(client: ShopClient, error: unknown): boolean {
  return (error instanceof BodegaError && error.status === 401) || !client.auth.loggedIn();
}

export function useCurrentMember() {
  const { client } = useShop();
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ['member'],
    enabled: signedIn,
    refetchInterval: MEMBER_RECHECK_MS,
    refetchOnWindowFocus: true,
    queryFn: async () => {
      const shopper = need(client);
      try {
        return (await shopper.use(members).getCurrentMember({ fieldsets: ['FULL'] })).member ?? null;
      } catch (error) {
        if (!memberRefused(shopper, error)) throw error;
        // Signed out here: the next call gets visitor tokens. After this query settles, so
        // that removing the member query does not cancel the call that found out.
        shopper.auth.setTokens(emptyTokens());
        setTimeout(() => forgetMember(queryClient), 0);
        return null;
      }
    },
  });
}

/** Signs out here (tokens dropped; a fresh visitor next) and forgets everything personal. */
export function useSignOut() {
  const { client } = useShop();
  const queryClient = useQueryClient();
  return async () => {
    try {
      await need(client).auth.logout(window.location.origin);
    } catch {
      // Signed out locally even when the server call fails (the SDK drops the tokens first).
    }
    forgetMember(queryClient);
  };
}

/** Forgets everything of the shopper this page was (cart, member, orders, checkout) once another's tokens are set. */
export function useForgetShopper() {
  const queryClient = useQueryClient();
  return () => {
    for (const key of ['cart', 'member', 'orders', 'checkout']) queryClient.removeQueries({ queryKey: [key] });
  };
}

/** After signing in here: every answer is read again, as the member. */
export function useReadAgainAsMember() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}
