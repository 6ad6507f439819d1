// A visitor fills a cart, signs in through the official SDK, and finds the lines in the member's cart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { currentCart } from '@wix/ecom';
import { redirectWixApis, signInApp, type SignInApp } from '../../test/sign-in.js';
import { catalogLine, createProduct } from '../../test/commerce.js';

let t: SignInApp;
let restoreFetch: () => void;

beforeAll(async () => {
  t = await signInApp({ listen: true });
  restoreFetch = redirectWixApis(t.url);
});
afterAll(async () => {
  restoreFetch();
  await t.close();
});

describe('signing in keeps the cart', () => {
  it('moves the visitor\'s lines into the member\'s cart at the code exchange, summing the same item', async () => {
    const site = await t.createSite({ signupPolicy: 'open' });
    const tea = await createProduct(t.app, site, { name: 'Tea', priceData: { price: 6 } });
    const pot = await createProduct(t.app, site, { name: 'Pot', priceData: { price: 30 } });
    const email = `merge.${Date.now()}@example.com`;

    // The member already has a cart from an earlier visit.
    const earlier = shopper(site.clientId);
    const first = await earlier.auth.register({ email, password: 'a-good-password' }) as { data?: { sessionToken?: string } };
    earlier.auth.setTokens(await memberTokens(earlier, first.data?.sessionToken as string));
    await earlier.currentCart.addToCurrentCart({ lineItems: [catalogLine(tea.id, 1)] });

    // Today, as a visitor on another device.
    const client = shopper(site.clientId);
    await client.currentCart.addToCurrentCart({ lineItems: [catalogLine(tea.id, 2), catalogLine(pot.id, 1)] });
    const login = await client.auth.login({ email, password: 'a-good-password' }) as { loginState: string; data?: { sessionToken?: string } };
    expect(login.loginState).toBe('SUCCESS');
    client.auth.setTokens(await memberTokens(client, login.data?.sessionToken as string));

    const cart = await client.currentCart.getCurrentCart();
    expect(cart.buyerInfo?.memberId).toEqual(expect.any(String));
    expect(cart.lineItems?.map((l) => [l.productName?.original, l.quantity])).toEqual([['Tea', 3], ['Pot', 1]]);
  });
});

function shopper(clientId: string) {
  return createClient({ auth: OAuthStrategy({ clientId }), modules: { currentCart } });
}

/** getAuthUrl with prompt=none and the session token → the server's redirect → the code exchange. */
async function memberTokens(client: ReturnType<typeof shopper>, sessionToken: string) {
  const oauthData = client.auth.generateOAuthData(`${t.url}/callback`);
  // The SDK passes sessionToken through to the redirect session; its option type leaves it out.
  const options = { prompt: 'none' as const, responseMode: 'query' as const, sessionToken };
  const { authUrl } = await client.auth.getAuthUrl(oauthData, options);
  const res = await fetch(authUrl, { redirect: 'manual' });
  const { code, state } = client.auth.parseFromUrl(res.headers.get('location') ?? '', 'query');
  return client.auth.getMemberTokens(code, state, oauthData);
}
