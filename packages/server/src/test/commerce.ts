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

/**
 * A member's access token, signed like the ones sign-in issues, for a new member of the site (or
 * the given one): tokens of a member without a row are refused.
 */
export async function memberToken(app: FastifyInstance, site: TestSite, existingId?: string): Promise<{ token: string; memberId: string }> {
  const memberId = existingId ?? await newMemberId(app, site);
  const tokens = await app.services.oauth.startSession(app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'member', subjectId: memberId });
  return { token: tokens.access_token, memberId };
}

/** Creates a member with the site's API key; returns its id. */
export async function newMemberId(app: FastifyInstance, site: TestSite): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/members/v1/members', headers: apiKey(site), payload: { member: { loginEmail: `shopper.${randomUUID()}@example.com` } } });
  if (res.statusCode !== 200) throw new Error(`member create failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { member: { id: string } }).member.id;
}

export function catalogLine(productId: string, quantity = 1, options?: Record<string, unknown>) {
  return { catalogReference: { appId: STORES_APP_ID, catalogItemId: productId, ...(options ? { options } : {}) }, quantity };
}

export const NEW_YORK = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' };

/**
 * A visitor's order through HTTP: a checkout with these lines, an e-mail and a New York address,
 * then create-order (or create-order-and-charge with a token). Returns the visitor token too.
 */
export async function placeOrder(
  app: FastifyInstance,
  site: TestSite,
  visitorToken: string,
  lineItems: ReturnType<typeof catalogLine>[],
  options: { paymentToken?: string; email?: string } = {},
): Promise<{ orderId: string; checkoutId: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/ecom/v1/checkouts',
    headers: { authorization: visitorToken },
    payload: {
      channelType: 'WEB',
      lineItems,
      checkoutInfo: { buyerInfo: { email: options.email ?? 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } },
    },
  });
  if (created.statusCode !== 200) throw new Error(`createCheckout failed: ${created.body}`);
  const checkoutId = (created.json() as { checkout: { id: string } }).checkout.id;
  const path = options.paymentToken ? 'create-order-and-charge' : 'create-order';
  const res = await app.inject({
    method: 'POST',
    url: `/ecom/v1/checkouts/${checkoutId}/${path}`,
    headers: { authorization: visitorToken },
    payload: { id: checkoutId, ...(options.paymentToken ? { paymentToken: options.paymentToken } : {}) },
  });
  if (res.statusCode !== 200) throw Object.assign(new Error(`${path} failed: ${res.body}`), { response: res.json() as unknown, status: res.statusCode });
  return { orderId: (res.json() as { orderId: string }).orderId, checkoutId };
}

/** The typings of this @wix/ecom version leave out payments-collector calls its module exports. */
export interface PaymentsCollector {
  paymentCollectionMarkOrderAsPaid(ecomOrderId: string, options?: object): Promise<{ order?: { paymentStatus?: string } }>;
  paymentCollectionBulkMarkOrdersAsPaid(ecomOrderIds: string[]): Promise<{ results?: { itemMetadata?: { _id?: string | null; success?: boolean; error?: { code?: string } }; item?: { paymentStatus?: string } }[]; bulkActionMetadata?: { totalSuccesses?: number; totalFailures?: number } }>;
  recordManuallyCollectedPayment(orderId: string, amount: { amount: string }, options?: object): Promise<object>;
  getRefundabilityStatus(ecomOrderId: string): Promise<{ refundabilities?: { paymentId?: string; refundabilityStatus?: string; nonRefundableReason?: string }[] }>;
  triggerRefund(ecomOrderId: string, payments: { paymentId: string; amount?: { amount: string } }[], options?: object): Promise<{ refundId?: string | null; orderTransactions?: { payments?: { _id?: string | null }[]; refunds?: object[] } }>;
}
