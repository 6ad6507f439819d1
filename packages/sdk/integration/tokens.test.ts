/**
 * OAuthStrategy tokens against a real server: the anonymous grant on the first call, renewal
 * when the access token expires (SDK and server on one shifted clock), the fall-back to a
 * visitor when the refresh token was revoked, and the exact token error message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, members, OAuthStrategy, products, type Tokens } from '@bodega/sdk';
import { recordingFetch } from './recording-fetch.js';
import { memberTokensFor, PASSWORD, rejection, sessionTokenOf, startServer, uniqueEmail, type Server, type TestSite } from './support.js';

let offsetMs = 0;
const now = (): number => Date.now() + offsetMs;
let server: Server;
let site: TestSite;

beforeAll(async () => {
  server = await startServer({ now: () => new Date(now()) });
  site = await server.createSite({ signupPolicy: 'open' });
});
afterAll(() => server.close());

function client(tokens?: Tokens) {
  const recorder = recordingFetch();
  const c = createClient({
    baseUrl: server.origin,
    auth: OAuthStrategy({ clientId: site.clientId, tokens, now }),
    modules: { products, members },
    fetch: recorder.fetch,
  });
  return { client: c, requests: recorder.requests };
}

const tokenCalls = (requests: { path: string; body?: string }[]) =>
  requests.filter((r) => r.path === '/_api/oauth2/token').map((r) => JSON.parse(r.body ?? '{}') as Record<string, string>);

describe('tokens', () => {
  it('takes an anonymous visitor token on the first call, once for concurrent calls', async () => {
    const { client: c, requests } = client();
    expect(c.auth.getTokens().refreshToken.role).toBe('none');
    const before = Math.floor(now() / 1000);
    await Promise.all([c.products.queryProducts().find(), c.products.queryProducts().find()]);
    const tokens = c.auth.getTokens();
    expect(tokens.refreshToken.role).toBe('visitor');
    expect(tokens.refreshToken.value).not.toBe('');
    expect(tokens.accessToken.expiresAt).toBeGreaterThanOrEqual(before + 14_400);
    expect(tokens.accessToken.expiresAt).toBeLessThanOrEqual(Math.floor(now() / 1000) + 14_400);
    expect(tokenCalls(requests)).toEqual([{ clientId: site.clientId, grantType: 'anonymous' }]);
    expect(c.auth.loggedIn()).toBe(false);
  });

  it('renews an expired access token from the refresh token (kept, not rotated)', async () => {
    const { client: c, requests } = client();
    const first = await c.auth.generateVisitorTokens();
    await c.products.queryProducts().find();
    offsetMs += 14_400_000 + 60_000;
    try {
      // The server's clock moved too: the old access token is refused there now.
      const stale = await fetch(`${server.origin}/_api/catalog-reader-server/v1/products/query-platformized`, {
        headers: { Authorization: first.accessToken.value },
      });
      expect(stale.status).toBe(401);
      await c.products.queryProducts().find();
      const renewed = c.auth.getTokens();
      expect(renewed.accessToken.value).not.toBe(first.accessToken.value);
      expect(renewed.accessToken.expiresAt).toBeGreaterThan(first.accessToken.expiresAt);
      expect(renewed.refreshToken).toEqual(first.refreshToken);
      expect(tokenCalls(requests).map((b) => b.grantType)).toEqual(['anonymous', 'refresh_token']);
    } finally {
      offsetMs -= 14_400_000 + 60_000;
    }
  });

  it('falls back to a new visitor token when the refresh token was revoked', async () => {
    const member = client().client;
    const registered = await member.auth.register({ email: uniqueEmail('revoked'), password: PASSWORD });
    const tokens = await memberTokensFor(member.auth, server.origin, sessionTokenOf(registered));
    expect(member.auth.loggedIn()).toBe(true);
    expect((await member.members.getCurrentMember()).member?._id).toEqual(expect.any(String));

    // Another tab holds the same refresh token with an expired access token …
    const { client: other, requests } = client({ ...tokens, accessToken: { value: tokens.accessToken.value, expiresAt: 0 } });
    // … and the first one logs out, which revokes the refresh token on the server.
    const { logoutUrl } = await member.auth.logout(`${server.origin}/bye`);
    expect(logoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(member.auth.getTokens().refreshToken.role).toBe('none');
    expect(member.auth.loggedIn()).toBe(false);

    await other.products.queryProducts().find();
    expect(tokenCalls(requests).map((b) => b.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(other.auth.getTokens().refreshToken.role).toBe('visitor');
    expect(other.auth.loggedIn()).toBe(false);
    expect((await other.members.getCurrentMember()).member).toBeUndefined();
  });

  it('throws the token error with status text, the real request id and the body', async () => {
    const { client: c, requests } = client();
    let message = '';
    try {
      await c.auth.renewToken({ value: 'not-a-refresh-token', role: 'member' });
    } catch (error) {
      message = (error as Error).message;
    }
    const [answer] = requests.filter((r) => r.path === '/_api/oauth2/token');
    expect(answer.status).toBe(400);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(message).toBe(
      `Failed to fetch tokens from OAuth API: ${answer.statusText}. request id: ${answer.requestId}. Response: ${answer.responseText}`,
    );
    expect(answer.statusText).toBe('Bad Request');
    const body = JSON.parse(answer.responseText) as { message?: string; details?: { applicationError?: { code?: string } } };
    expect(body.message).toEqual(expect.any(String));
    expect(body.details?.applicationError?.code).toEqual(expect.any(String));

    const unknownClient = createClient({ baseUrl: server.origin, auth: OAuthStrategy({ clientId: 'no-such-client' }) });
    await expect(unknownClient.auth.generateVisitorTokens()).rejects.toThrow(
      /^Failed to fetch tokens from OAuth API: [A-Za-z ]+\. request id: [0-9a-f-]{36}\. Response: \{/,
    );
  });

  it('reports a missing GraphQL endpoint as an error with status and request id', async () => {
    const { client: c } = client();
    const error = await rejection(c.graphql('{ products { id } }'));
    expect(error.status).toBe(404);
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toBe('No route for POST /graphql/alpha');
  });
});
