// A member's own sign-ins on the Security page (list with device and last use, sign out of one) and
// the password re-check that factor changes need once the sign-in is more than 10 minutes old.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import { applicationCode, identityCalls, newEmail } from '../../test/identity-calls.js';
import { signInApp, type SignInApp } from '../../test/sign-in.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
const { post, register, login, memberTokens } = identityCalls(() => t);

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

const SECURITY = '/bodega/v1/my/security';
const get = (url: string, authorization?: string) => t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
const del = (url: string, authorization?: string) => t.app.inject({ method: 'DELETE', url, headers: authorization ? { authorization } : {} });

/** A registered member signed in once more (two sign-ins in all), with each sign-in's tokens. */
async function member(site: TestSite) {
  const email = newEmail('sessions');
  const first = await memberTokens(site, (await register(site, email)).json().sessionToken);
  const second = await memberTokens(site, (await login(site, email)).json().sessionToken);
  return { email, first, second };
}

describe('signed-in sessions', () => {
  it('lists each sign-in with its device and last use, marks the current one, and signs one out', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const listed = await get(`${SECURITY}/sessions`, m.second.access_token);
    expect(listed.statusCode, listed.body).toBe(200);
    const { sessions } = listed.json();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ userAgent: 'lightMyRequest', current: true });
    expect(Date.parse(sessions[0].lastUsedDate)).toBeGreaterThanOrEqual(Date.parse(sessions[0].signedInDate));

    // Another member of the site cannot end it; the member can.
    const other = await member(site);
    const firstId = sessions.find((s: { current: boolean }) => !s.current).sessionId as string;
    expect(applicationCode(await del(`${SECURITY}/sessions/${firstId}`, other.first.access_token))).toBe('NOT_FOUND');
    const ended = await del(`${SECURITY}/sessions/${firstId}`, m.second.access_token);
    expect(ended.statusCode, ended.body).toBe(200);
    const refresh = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: m.first.refresh_token });
    expect(refresh.statusCode).toBe(400);
    expect((await get(`${SECURITY}/sessions`, m.second.access_token)).json().sessions).toHaveLength(1);
    expect((await del(`${SECURITY}/sessions/${firstId}`, m.second.access_token)).statusCode, 'once').toBe(404);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND action = 'member.session_ended'", [site.siteId]);
    expect(audit).toHaveLength(1);
    // The sign-in still open renews.
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: m.second.refresh_token })).statusCode).toBe(200);
  });

  it('are the signed-in member\'s own: visitors, API keys and no token are refused', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const calls = [
      () => get(`${SECURITY}/sessions`), () => del(`${SECURITY}/sessions/x`), () => post(`${SECURITY}/reauthenticate`, { password: 'a-good-password' }),
    ];
    expect((await get(`${SECURITY}/sessions`, m.first.access_token)).statusCode).toBe(200);
    for (const call of calls) expect((await call()).statusCode).toBe(401);
    const visitor = await t.visitorToken(site);
    expect((await get(`${SECURITY}/sessions`, visitor)).statusCode).toBe(403);
    expect((await post(`${SECURITY}/reauthenticate`, { password: 'a-good-password' }, visitor)).statusCode).toBe(403);
    const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    expect((await t.app.inject({ method: 'GET', url: `${SECURITY}/sessions`, headers: key })).statusCode).toBe(403);
    const otherSite = await t.createSite();
    expect((await t.app.inject({ method: 'GET', url: `${SECURITY}/sessions`, headers: { authorization: otherSite.apiKey, 'wix-site-id': otherSite.siteId } })).statusCode).toBe(403);
  });
});

describe('the password re-check before factor changes', () => {
  it('asks for the password once the sign-in is over 10 minutes old; a wrong one is refused, the right one opens 10 minutes', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const token = m.second.access_token;
    expect((await post(`${SECURITY}/email`, {}, token)).statusCode, 'a fresh sign-in may').toBe(200);

    offsetMs += 11 * 60_000;
    const factorId = (await get(SECURITY, token)).json().factors[0].factorId as string;
    for (const res of [await post(`${SECURITY}/totp`, {}, token), await del(`${SECURITY}/factors/${factorId}`, token), await post(`${SECURITY}/recovery-codes`, {}, token)]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(applicationCode(res)).toBe('REAUTHENTICATION_REQUIRED');
    }
    expect((await get(SECURITY, token)).statusCode, 'reading stays open').toBe(200);
    const wrong = await post(`${SECURITY}/reauthenticate`, { password: 'not-the-password' }, token);
    expect(wrong.statusCode).toBe(400);
    expect(applicationCode(wrong)).toBe('INVALID_PASSWORD');
    const right = await post(`${SECURITY}/reauthenticate`, { password: 'a-good-password' }, token);
    expect(right.statusCode, right.body).toBe(200);
    expect((await post(`${SECURITY}/recovery-codes`, {}, token)).statusCode).toBe(200);
    // The re-check is this sign-in's: the other one still has to.
    expect(applicationCode(await post(`${SECURITY}/recovery-codes`, {}, m.first.access_token))).toBe('REAUTHENTICATION_REQUIRED');

    offsetMs += 11 * 60_000;
    expect(applicationCode(await del(`${SECURITY}/factors/${factorId}`, token))).toBe('REAUTHENTICATION_REQUIRED');
  });
});
