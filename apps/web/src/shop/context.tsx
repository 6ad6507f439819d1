import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { ShopClient } from './client.js';

export interface SiteInfo {
  siteId: string;
  clientId: string;
  name: string;
  currency: string;
  /** Public origin, for canonical links (the browser uses its own location). */
  origin: string;
}

/** The catalog calls (products, collections, search, ratings), which the server renderer can make too. */
export type Catalog = Pick<ShopClient, 'use'>;

interface Shop {
  site: SiteInfo;
  catalog: Catalog;
  /** The shopper's own client: only in the browser (carts, checkout, account are per shopper). */
  client?: ShopClient;
}

const ShopContext = createContext<Shop | null>(null);

export function ShopProvider({ value, children }: { value: Shop; children: ReactNode }) {
  return <ShopContext.Provider value={value}>{children}</ShopContext.Provider>;
}

export function useShop(): Shop {
  const shop = useContext(ShopContext);
  if (!shop) throw new Error('useShop outside ShopProvider');
  return shop;
}

/** The shopper's client inside a query or mutation function (they never run on the server). */
export function need(client: ShopClient | undefined): ShopClient {
  if (!client) throw new Error('The shopper client exists only in the browser');
  return client;
}

/** True once the app runs in the browser (after hydration), so SSR and first paint agree. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
