import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
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

export function useCurrentMember() {
  const { client } = useShop();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ['member'],
    enabled: signedIn,
    queryFn: async () => (await need(client).members.getCurrentMember({ fieldsets: ['FULL'] })).member ?? null,
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
    queryClient.removeQueries({ queryKey: ['member'] });
    queryClient.removeQueries({ queryKey: ['orders'] });
    queryClient.removeQueries({ queryKey: ['cart'] });
    notifySignInChanged();
  };
}
