/**
 * Test helpers for commerce: API-key headers, products created through the Stores API, member
 * tokens, and the catalog reference line items use.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TestSite } from './harness.js';

export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

export function apiKey(site: TestSite): Record<string, string> {
  return { authorization: site.apiKey, 'wix-site-id': site.siteId };
}

export interface WireProduct {
  id: string;
  slug: string;
  name: string;
  variants: { id: string; choices: Record<string, string> }[];
  [key: string]: unknown;
}

/** Creates a product with the site's API key; fails the test on anything but 200. */
export async function createProduct(app: FastifyInstance, site: TestSite, product: Record<string, unknown>): Promise<WireProduct> {
  const res = await app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { productType: 'physical', ...product } } });
  if (res.statusCode !== 200) throw new Error(`createProduct failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { product: WireProduct }).product;
}

/** A member's access token, signed like the ones sign-in issues. */
export async function memberToken(app: FastifyInstance, site: TestSite, memberId: string = randomUUID()): Promise<{ token: string; memberId: string }> {
  const tokens = await app.services.oauth.startSession({ siteId: site.siteId, clientId: site.clientId, role: 'member', subjectId: memberId });
  return { token: tokens.access_token, memberId };
}

export function catalogLine(productId: string, quantity = 1, options?: Record<string, unknown>) {
  return { catalogReference: { appId: STORES_APP_ID, catalogItemId: productId, ...(options ? { options } : {}) }, quantity };
}
