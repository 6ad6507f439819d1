import type { Config } from './platform/config.js';
import type { Services } from './app.js';

export interface DemoSite {
  siteId: string;
  clientId: string;
  apiKey: string;
  ownerEmail: string;
  ownerPassword: string;
}

export const DEMO_OWNER_EMAIL = 'owner@demo.bodega.local';
export const DEMO_OWNER_PASSWORD = 'demo-owner-password';

/** On first start with an empty database, creates the demo store so there is something to see. */
export async function seedDemoIfEmpty(services: Services, config: Pick<Config, 'publicUrl'>): Promise<DemoSite | undefined> {
  if ((await services.sites.listSites()).length > 0) return undefined;
  const created = await services.sites.createSite({
    name: 'Bodega demo store',
    status: 'DEMO',
    signupPolicy: 'open',
    currency: 'USD',
    ownerEmail: DEMO_OWNER_EMAIL,
    ownerPassword: DEMO_OWNER_PASSWORD,
    allowedOrigins: [config.publicUrl],
  });
  return {
    siteId: created.site.siteId,
    clientId: created.clientId,
    apiKey: created.apiKey,
    ownerEmail: DEMO_OWNER_EMAIL,
    ownerPassword: DEMO_OWNER_PASSWORD,
  };
}
