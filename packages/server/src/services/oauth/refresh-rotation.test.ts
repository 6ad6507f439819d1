import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import { applicationCode, identityCalls, newEmail } from '../../test/identity-calls.js';
import type { TestSite } from '../../test/harness.js';

let t: SignInApp;
const { post, register, memberTokens } = identityCalls(() => t);

beforeAll(async () => {
  t = await signInApp();
});
afterAll(() => t.close());

const refresh = (site: TestSite, refreshToken: string) => post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken });

async function signedIn(site: TestSite) {
  const email = newEmail('rotation');
  const { sessionToken, identity } = (await register(site, email)).json();
  return { memberId: identity.id as string, tokens: await memberTokens(site, sessionToken) };
}

describe('refresh-token rotation and reuse detection', () => {
  it('rotates a member\'s refresh token; reusing a spent one revokes the family, the rightful newest token too, and is logged', async () => {
    const site = await t.createSite();
    const { memberId, tokens } = await signedIn(site);
    const first = await refresh(site, tokens.refresh_token);
    expect(first.statusCode, first.body).toBe(200);
    const t1 = first.json().refresh_token as string;
    expect(t1).not.toBe(tokens.refresh_token);
    const second = await refresh(site, t1);
    expect(second.statusCode, second.body).toBe(200);
    const t2 = second.json().refresh_token as string;

    // t1 was used, so the first token is spent: presenting it again is a reuse.
    const reused = await refresh(site, tokens.refresh_token);
    expect(reused.statusCode).toBe(400);
    expect(applicationCode(reused)).toBe('INVALID_GRANT');
    const newest = await refresh(site, t2);
    expect(newest.statusCode, 'the rightful newest token fails too').toBe(400);
    expect(applicationCode(newest)).toBe('INVALID_GRANT');
    const log = await t.db.query<{ actor_kind: string; object_id: string }>(
      `SELECT actor_kind, object_id FROM audit_log WHERE site_id = $1 AND action = 'session.refresh_token_reused'`, [site.siteId]);
    expect(log).toEqual([{ actor_kind: 'SYSTEM', object_id: memberId }]);
  });

  it('keeps a token whose children were never used (the official SDK keeps its first token)', async () => {
    const site = await t.createSite();
    const { tokens } = await signedIn(site);
    const children: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await refresh(site, tokens.refresh_token);
      expect(res.statusCode, res.body).toBe(200);
      children.push(res.json().refresh_token);
    }
    // An unused child replaced by a newer one is spent: presenting it is a reuse.
    expect((await refresh(site, children[0])).statusCode).toBe(400);
    expect((await refresh(site, tokens.refresh_token)).statusCode, 'the family is revoked').toBe(400);
  });

  it('answers two grants at once with the same token without revoking anything', async () => {
    const site = await t.createSite();
    const { tokens } = await signedIn(site);
    const results = await Promise.all([1, 2, 3].map(() => refresh(site, tokens.refresh_token)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const again = await refresh(site, tokens.refresh_token);
    expect(again.statusCode, again.body).toBe(200);
    const [{ n }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM refresh_tokens WHERE site_id = $1 AND spent_at IS NULL AND revoked_at IS NULL AND parent_hash IS NOT NULL', [site.siteId]);
    expect(n, 'one live child').toBe(1);
  });

  it('sign out everywhere revokes every family, rotated tokens included', async () => {
    const site = await t.createSite();
    const email = newEmail('everywhere');
    const { sessionToken, identity } = (await register(site, email)).json();
    const a = await memberTokens(site, sessionToken);
    const b = await memberTokens(site, sessionToken);
    const rotated = (await refresh(site, a.refresh_token)).json().refresh_token as string;
    await t.app.services.identity.endAllSessions(t.app.services.sites.contextFor(site.siteId), identity.id);
    for (const token of [a.refresh_token, rotated, b.refresh_token]) expect((await refresh(site, token)).statusCode).toBe(400);
  });
});
