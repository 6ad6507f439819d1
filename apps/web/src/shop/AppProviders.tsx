import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ShopProvider, type Catalog, type SiteInfo } from './context.js';
import type { ShopClient } from './client.js';
import './../ui/styles.css';

export function AppProviders({ queryClient, site, catalog, client, children }: { queryClient: QueryClient; site: SiteInfo; catalog: Catalog; client?: ShopClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ShopProvider value={{ site, catalog, client }}>{children}</ShopProvider>
    </QueryClientProvider>
  );
}
