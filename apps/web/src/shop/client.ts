import {
  authentication, backInStock, catalogSearch, checkout, cookieTokenStorage, createClient, currentCart, giftCards, members, OAuthStrategy, orders, payments, products,
  passkeys, recovery, redirects, reviews, security, storesCollections, verification, digital, invoices,
} from '@bodega/sdk';

const modules = { products, storesCollections, catalogSearch, currentCart, checkout, orders, members, redirects, authentication, recovery, verification, payments, reviews, backInStock, security, giftCards, digital, passkeys, invoices };

/** Where the browser keeps the shopper's tokens; the back office reads the same cookie. */
export const shopTokenStorage = () => cookieTokenStorage({ name: 'bodega_shop', sameSite: 'Lax', maxAgeSeconds: 60 * 60 * 24 * 30 });

/** The shop's SDK client in the browser: a visitor (or, once signed in, a member) of this site. */
export function browserClient(clientId: string) {
  return createClient({
    baseUrl: window.location.origin,
    auth: OAuthStrategy({ clientId, tokenStorage: shopTokenStorage() }),
    modules,
  });
}

/** The server renderer's client: anonymous calls through the server's in-process fetch. */
export function serverClient(origin: string, fetchImpl: typeof fetch) {
  return createClient({ baseUrl: origin, fetch: fetchImpl, modules });
}

export type ShopClient = ReturnType<typeof browserClient>;
export type ReadClient = ReturnType<typeof serverClient> | ShopClient;
