import { createClient, OAuthStrategy } from '@bodega/sdk';
import { useShop } from '../shop/context.js';

/** A client whose modules (authentication, recovery, verification, passkeys) the pages bind with `use`. */
function build(clientId: string) {
  return createClient({ baseUrl: window.location.origin, auth: OAuthStrategy({ clientId }) });
}

export type AuthClient = Pick<ReturnType<typeof build>, 'auth' | 'use'>;

const clients = new Map<string, AuthClient>();

/**
 * The sign-in pages' SDK client. For this shop it is the shop's own client (the member's tokens land
 * in the shop's cookie); for another application that sent the member here, a visitor of that
 * application's site (register, login and verification need one).
 */
export function useAuthClient(clientId: string | null): AuthClient | undefined {
  const { client, site } = useShop();
  if (!clientId) return undefined;
  if (clientId === site.clientId && client) return client;
  if (typeof window === 'undefined') return undefined;
  let other = clients.get(clientId);
  if (!other) {
    other = build(clientId);
    clients.set(clientId, other);
  }
  return other;
}

/** Recovery works without an application too: the token names its site. */
export function useRecoveryClient(clientId: string | null): Pick<AuthClient, 'use'> | undefined {
  const { site } = useShop();
  const client = useAuthClient(clientId ?? (site.clientId || null));
  if (client) return client;
  return typeof window === 'undefined' ? undefined : createClient({ baseUrl: window.location.origin });
}
