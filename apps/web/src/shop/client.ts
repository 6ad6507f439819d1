import { cookieTokenStorage, createClient, OAuthStrategy } from '@bodega/sdk';

/*
 * The shop's SDK clients bind no module up front: each feature's queries.ts imports the modules it
 * calls and binds them with `client.use(module)`, so a page's bundles hold only the modules its
 * code calls (the product page: products, reviews, the current cart, gift cards), not all of them.
 */

/** Where the browser keeps the shopper's tokens; the back office reads the same cookie. */
export const shopTokenStorage = () => cookieTokenStorage({ name: 'bodega_shop', sameSite: 'Lax', maxAgeSeconds: 60 * 60 * 24 * 30 });

/** The shop's SDK client in the browser: a visitor (or, once signed in, a member) of this site. */
export function browserClient(clientId: string) {
  return createClient({
    baseUrl: window.location.origin,
    auth: OAuthStrategy({ clientId, tokenStorage: shopTokenStorage() }),
  });
}

/** The server renderer's client: anonymous calls through the server's in-process fetch. */
export function serverClient(origin: string, fetchImpl: typeof fetch) {
  return createClient({ baseUrl: origin, fetch: fetchImpl });
}

export type ShopClient = ReturnType<typeof browserClient>;
export type ReadClient = ReturnType<typeof serverClient> | ShopClient;
