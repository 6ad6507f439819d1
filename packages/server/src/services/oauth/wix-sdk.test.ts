import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy, type Tokens } from '@wix/sdk';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';

let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

describe('the official @wix/sdk OAuthStrategy against Bodega', () => {
  it('gets visitor tokens that our API accepts', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: site.clientId }) });
    const tokens = await client.auth.generateVisitorTokens();
    expect(tokens.refreshToken.role).toBe('visitor');
    expect(tokens.accessToken.expiresAt).toBeGreaterThan(Date.now() / 1000 + 14_000);
    expect(client.auth.loggedIn()).toBe(false);
    const access = tokens.accessToken.value;
    const who = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refreshToken.value } });
    expect(who.statusCode).toBe(200);
    expect(access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('renews an expired access token from its refresh token, keeping the refresh token', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: site.clientId }) });
    const first = await client.auth.generateVisitorTokens();
    const expired: Tokens = { ...first, accessToken: { value: first.accessToken.value, expiresAt: Math.floor(Date.now() / 1000) - 10 } };
    const renewedClient = createClient({ auth: OAuthStrategy({ clientId: site.clientId, tokens: expired }) });
    const renewed = await renewedClient.auth.generateVisitorTokens(expired);
    expect(renewed.refreshToken.value).toBe(first.refreshToken.value);
    expect(renewed.accessToken.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(wixFetch.calls).toContain('POST /oauth2/token');
  });

  it('renews through renewToken', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: site.clientId }) });
    const first = await client.auth.generateVisitorTokens();
    const renewed = await client.auth.renewToken(first.refreshToken);
    expect(renewed.refreshToken.value).toBe(first.refreshToken.value);
    expect(renewed.accessToken.value).toEqual(expect.any(String));
  });

  it('refuses an unknown client with the SDK\'s token error', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: '00000000-0000-0000-0000-000000000000' }) });
    await expect(client.auth.generateVisitorTokens()).rejects.toThrow(/Failed to fetch tokens from OAuth API.*request id: [0-9a-f-]{36}.*INVALID_CLIENT/s);
  });
});
