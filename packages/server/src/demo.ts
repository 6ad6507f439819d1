import type { FastifyInstance } from 'fastify';
import type { Config } from './platform/config.js';
import { seedDemoContent } from './demo-store/seed.js';

export interface DemoSite {
  siteId: string;
  clientId: string;
  apiKey: string;
  ownerEmail: string;
  ownerPassword: string;
  couponCode: string;
  productCount: number;
}

export const DEMO_OWNER_EMAIL = 'owner@demo.bodega.local';
export const DEMO_OWNER_PASSWORD = 'demo-owner-password';

/**
 * On first start with an empty database, creates the demo store (products, collections, a
 * coupon, shipping and tax) so there is something to see and buy.
 */
export async function seedDemoIfEmpty(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): Promise<DemoSite | undefined> {
  const services = app.services;
  if (await services.sites.hasSites()) return undefined;
  const created = await services.sites.createSite({
    name: 'Bodega demo store',
    status: 'DEMO',
    signupPolicy: 'open',
    currency: 'USD',
    ownerEmail: DEMO_OWNER_EMAIL,
    ownerPassword: DEMO_OWNER_PASSWORD,
    allowedOrigins: [config.publicUrl],
  });
  // Seeding is ~50 API calls through app.inject; at `info` each would log a request line and bury
  // the owner's sign-in that main.ts prints next. Request loggers take the level of app.log when
  // the request starts, and nothing else is served yet (seeding runs before listen).
  const level = app.log.level;
  app.log.level = 'warn';
  let content: Awaited<ReturnType<typeof seedDemoContent>>;
  try {
    content = await seedDemoContent(app, { siteId: created.site.siteId, apiKey: created.apiKey });
  } finally {
    app.log.level = level;
  }
  return {
    siteId: created.site.siteId,
    clientId: created.clientId,
    apiKey: created.apiKey,
    ownerEmail: DEMO_OWNER_EMAIL,
    ownerPassword: DEMO_OWNER_PASSWORD,
    couponCode: content.couponCode,
    productCount: content.products.length,
  };
}
