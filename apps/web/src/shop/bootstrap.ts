/** What the server writes into every page: the site this page is for and the hydration state. */
export interface Bootstrap {
  siteId: string;
  clientId: string;
  siteName: string;
  currency: string;
  state?: unknown;
}

declare global {
  interface Window {
    __BODEGA__?: Bootstrap;
  }
}

export function readBootstrap(): Bootstrap | undefined {
  return typeof window === 'undefined' ? undefined : window.__BODEGA__;
}
