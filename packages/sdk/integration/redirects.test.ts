/**
 * `redirects` of @bodega/sdk against a real server: redirect sessions for a checkout hand-off,
 * a product page, the members account, the hosted login and logout, each link reachable on the
 * server; refusals of callbacks off the allowed origins and of missing intents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCart, products, redirects } from '@bodega/sdk';
import { adminClient, rejection, signUp, startServer, visitorClient, type Server, type TestSite } from './support.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
let server: Server;
let site: TestSite;

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite({ allowedOrigins: ['https://shop.example'] });
});
afterAll(() => server.close());

const shopperOf = () => visitorClient(server.origin, site, { redirects, currentCart });

describe('redirect sessions', () => {
  it('hands a checkout over to the server with callbacks on allowed origins', async () => {
    const { product } = await adminClient(server.origin, site, { products }).products.createProduct({
      name: 'Scarf', productType: 'physical', priceData: { price: 20 },
    });
    const shopper = shopperOf();
    await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product?._id ?? '' }, quantity: 1 }] });
    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: 'WEB' });
    const { redirectSession } = await shopper.redirects.createRedirectSession({
      ecomCheckout: { checkoutId },
      callbacks: { postFlowUrl: 'https://shop.example/done', thankYouPageUrl: `${server.origin}/thanks` },
    });
    expect(redirectSession?._id).toEqual(expect.any(String));
    const url = new URL(redirectSession?.fullUrl ?? '');
    expect([url.origin, url.pathname, url.searchParams.get('checkoutId')]).toEqual([server.origin, '/checkout', checkoutId]);
    expect(url.searchParams.get('thankYouPageUrl')).toBe(`${server.origin}/thanks`);
    expect(redirectSession?.urlDetails?.endpoint).toEqual(expect.any(String));
  });

  it('links a product page, the members account and the hosted login', async () => {
    const shopper = shopperOf();
    const product = await shopper.redirects.createRedirectSession({ storesProduct: { productSlug: 'scarf' } });
    expect(new URL(product.redirectSession?.fullUrl ?? '').pathname).toBe('/products/scarf');
    const account = await shopper.redirects.createRedirectSession({ membersAccount: { section: 'ACCOUNT_INFO' } });
    expect(new URL(account.redirectSession?.fullUrl ?? '').origin).toBe(server.origin);
    const login = await shopper.redirects.createRedirectSession({ login: {}, callbacks: { postFlowUrl: `${server.origin}/back` } });
    const loginUrl = new URL(login.redirectSession?.fullUrl ?? '');
    expect(loginUrl.origin).toBe(server.origin);
    expect(loginUrl.searchParams.get('redirectSessionId')).toBe(login.redirectSession?._id);
  });

  it('logs a member out: the refresh token stops working and the link goes to postFlowUrl', async () => {
    const member = shopperOf();
    const { tokens } = await signUp(member.auth, server.origin);
    const { redirectSession } = await member.redirects.createRedirectSession({
      logout: { clientId: site.clientId }, callbacks: { postFlowUrl: 'https://shop.example/bye' },
    });
    await expect(member.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/^Failed to fetch tokens from OAuth API/);
    const visit = await fetch(redirectSession?.fullUrl ?? '', { redirect: 'manual' });
    expect([visit.status, visit.headers.get('location')]).toEqual([302, 'https://shop.example/bye']);
  });

  it('refuses a callback off the allowed origins and a request without an intent, naming arguments', async () => {
    const shopper = shopperOf();
    const offOrigin = await rejection(shopper.redirects.createRedirectSession({ login: {}, callbacks: { postFlowUrl: 'https://evil.example/x' } }));
    expect([offOrigin.status, offOrigin.details.applicationError?.code]).toEqual([400, 'INVALID_REDIRECT_URI']);
    expect(offOrigin.message).toContain('callbacks.postFlowUrl');
    const none = await rejection(shopper.redirects.createRedirectSession({ callbacks: { postFlowUrl: `${server.origin}/x` } }));
    expect(none.status).toBe(400);
    expect(none.message).toMatch(/^INVALID_ARGUMENT: "options\.intent" /);
    const missing = await rejection(shopper.redirects.createRedirectSession({ ecomCheckout: { checkoutId: '' } }));
    expect(missing.message).toMatch(/^INVALID_ARGUMENT: "options\.ecomCheckout\.checkoutId" /);
  });
});
