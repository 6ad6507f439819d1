import { authentication, createClient, OAuthStrategy, recovery, verification } from '@bodega/sdk';

const modules = { authentication, recovery, verification };

function build(clientId: string) {
  return createClient({ baseUrl: window.location.origin, auth: OAuthStrategy({ clientId }), modules });
}

export type AuthClient = ReturnType<typeof build>;

const clients = new Map<string, AuthClient>();

/**
 * The hosted pages' SDK client for the application that sent the member here: it works as a
 * visitor of that application's site (register, login and verification need one).
 */
export function authClient(clientId: string): AuthClient {
  let client = clients.get(clientId);
  if (!client) {
    client = build(clientId);
    clients.set(clientId, client);
  }
  return client;
}

/** Recovery works without an application too: the token names its site. */
export function recoveryClient(clientId: string | null) {
  return clientId ? authClient(clientId) : createClient({ baseUrl: window.location.origin, modules: { recovery } });
}
