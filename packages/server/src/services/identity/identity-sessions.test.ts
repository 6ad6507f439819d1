// Sign-ins that end (blocked members, the members service, password changes), the captcha and
// rate limit, recovery, sign-on, and malformed input. Register, verification and login are in
// identity.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';
import { DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD } from '../../demo.js';
import { AUTH, applicationCode, identityCalls, newEmail } from '../../test/identity-calls.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
const { post, register, login, latestMail, memberTokens } = identityCalls(() => t);

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

describe('a blocked member\'s access token', () => {
  const memberCalls = (access: string) => [
    t.app.inject({ method: 'GET', url: '/members/v1/members/my', headers: { authorization: access } }),
    t.app.inject({ method: 'GET', url: '/ecom/v1/carts/current', headers: { authorization: access } }),
    t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: { authorization: access }, payload: { search: {} } }),
  ];

  it('stops working at once on member calls (the refresh grant too); after approval a new sign-in works', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const { sessionToken, identity } = (await register(site, email)).json();
    const tokens = await memberTokens(site, sessionToken);
    const before = await Promise.all(memberCalls(tokens.access_token));
    // No cart yet: 404 CART_NOT_FOUND, answered for the member (not 401).
    expect(before.map((res) => res.statusCode)).toEqual([200, 404, 200]);
    const ctx = t.app.services.sites.contextFor(site.siteId);
    await t.app.services.identity.setMemberStatus(ctx, identity.id, 'BLOCKED');
    for (const res of await Promise.all(memberCalls(tokens.access_token))) {
      expect(res.statusCode).toBe(401);
      expect(res.json().details.applicationError.code).toBe('UNAUTHENTICATED');
    }
    const refresh = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token });
    expect([refresh.statusCode, applicationCode(refresh)]).toEqual([400, 'INVALID_GRANT']);
    await t.app.services.identity.setMemberStatus(ctx, identity.id, 'APPROVED');
    const again = await memberTokens(site, (await login(site, email)).json().sessionToken);
    expect((await Promise.all(memberCalls(again.access_token))).map((res) => res.statusCode)).toEqual([200, 404, 200]);
  });

  it('stops working once this server hears that another server blocked the member', async () => {
    const site = await t.createSite();
    const { sessionToken, identity } = (await register(site, newEmail())).json();
    const tokens = await memberTokens(site, sessionToken);
    expect((await memberCalls(tokens.access_token)[0]).statusCode).toBe(200);
    // Another server's block: the row changes, this server's cached answer is not dropped by a call
    // here. It learns of it from the members trigger's notice (heard), or when its cached answer ages out (deaf).
    const identityService = t.app.services.identity;
    const heard = identityService.accessFeed === 'heard' ? identityService.whenAccessChangeHeard({ siteId: site.siteId }, identity.id) : undefined;
    await t.db.query("UPDATE members SET status = 'BLOCKED' WHERE site_id = $1 AND member_id = $2", [site.siteId, identity.id]);
    if (heard) await heard;
    else offsetMs += 2001;
    const res = await memberCalls(tokens.access_token)[0];
    expect(res.statusCode).toBe(401);
  });

  it('takes a member taken offline out too, and leaves visitors and other members alone', async () => {
    const site = await t.createSite();
    const gone = (await register(site, newEmail())).json();
    const stays = (await register(site, newEmail())).json();
    const goneTokens = await memberTokens(site, gone.sessionToken);
    const staysTokens = await memberTokens(site, stays.sessionToken);
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), gone.identity.id, 'OFFLINE');
    expect((await memberCalls(goneTokens.access_token)[0]).statusCode).toBe(401);
    expect((await memberCalls(staysTokens.access_token)[0]).statusCode).toBe(200);
    expect((await memberCalls(await t.visitorToken(site))[2]).statusCode).toBe(200);
  });
});

describe('sign-ins the members service ends', () => {
  const apiKey = (site: TestSite) => ({ authorization: site.apiKey, 'wix-site-id': site.siteId });
  type Deletion = (site: TestSite, member: { id: string; email: string; accessToken: string }) => Promise<LightMyRequestResponse>;
  const deletions: [string, Deletion][] = [
    ['DELETE /members/{id}', (site, m) => t.app.inject({ method: 'DELETE', url: `/members/v1/members/${m.id}`, headers: apiKey(site) })],
    ['delete my member', (_site, m) => t.app.inject({ method: 'DELETE', url: '/members/v1/members/my', headers: { authorization: m.accessToken } })],
    ['bulk delete', (site, m) => t.app.inject({ method: 'POST', url: '/members/v1/members/bulk/delete', headers: apiKey(site), payload: { memberIds: [m.id] } })],
    ['delete by filter', (site, m) => t.app.inject({
      method: 'POST', url: '/members/v1/members/bulk/delete-by-filter', headers: apiKey(site), payload: { filter: { loginEmail: m.email } },
    })],
  ];

  it.each(deletions)('frees the e-mail to register again and ends the sign-in (%s)', async (_how, remove) => {
    const site = await t.createSite({ signupPolicy: 'open' });
    const email = newEmail('deleted');
    const { sessionToken, identity } = (await register(site, email)).json();
    const tokens = await memberTokens(site, sessionToken);
    const deleted = await remove(site, { id: identity.id, email, accessToken: tokens.access_token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const read = await t.app.inject({ method: 'GET', url: `/members/v1/members/${identity.id}`, headers: apiKey(site) });
    expect(read.statusCode, 'the member is gone').toBe(404);
    expect(applicationCode(await login(site, email)), 'the deleted member cannot log in').toBe('-19976');
    const refresh = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token });
    expect(refresh.statusCode, 'the old refresh token is refused').toBe(400);
    const again = await register(site, email);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().state).toBe('SUCCESS');
    expect(again.json().identity.id, 'a new identity').not.toBe(identity.id);
    expect((await login(site, email)).json().state).toBe('SUCCESS');
  });

  it('gives a member\'s open sign-in the new role at once when their role changes, on their next call and next renewal', async () => {
    const site = await t.createSite({ signupPolicy: 'open' });
    const email = newEmail('promoted');
    const { sessionToken, identity } = (await register(site, email)).json();
    const callerOf = (accessToken: string) => t.app.services.oauth.callerResolver().fromAccessToken(accessToken);
    const before = await memberTokens(site, sessionToken);
    expect(await callerOf(before.access_token)).toMatchObject({ kind: 'MEMBER', memberRole: 'MEMBER' });
    const promoted = await t.app.inject({
      method: 'POST', url: `/members/v1/members/${identity.id}/role`, headers: apiKey(site), payload: { role: 'CONTRIBUTOR' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    // At once, though the member's role was read (and cached) a moment ago: the token signed as a member acts as a contributor.
    expect(await callerOf(before.access_token)).toMatchObject({ kind: 'WIX_USER', memberRole: 'CONTRIBUTOR' });
    const renewed = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: before.refresh_token });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(await callerOf(renewed.json().access_token)).toMatchObject({ kind: 'WIX_USER', memberRole: 'CONTRIBUTOR' });
    const demoted = await t.app.inject({
      method: 'POST', url: `/members/v1/members/${identity.id}/role`, headers: apiKey(site), payload: { role: 'MEMBER' },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await callerOf(renewed.json().access_token), 'the contributor-era token acts as a member').toMatchObject({ kind: 'MEMBER', memberRole: 'MEMBER' });
    const after = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: before.refresh_token });
    expect(after.statusCode, after.body).toBe(200);
    const claims = await t.app.services.oauth.tokens.verify(after.json().access_token);
    expect(claims.memberRole, 'the renewed token is issued with the new role').toBe('MEMBER');
  });
});

describe('captcha and rate limit', () => {
  let strict: SignInApp;
  beforeAll(async () => {
    strict = await signInApp({ db: t.db, captchaProvider: 'test', rateLimitPerMinute: 3 });
  });
  afterAll(() => strict.close());

  it('requires a captcha token where the site asks for one: -19971 missing, -19970 invalid', async () => {
    const site = await strict.createSite();
    await strict.app.services.sites.updateSettings(strict.app.services.sites.contextFor(site.siteId), { captchaRequired: true });
    const token = await strict.visitorToken(site);
    const send = (path: string, captchaTokens?: unknown) =>
      strict.app.inject({ method: 'POST', url: `${AUTH}/v2/${path}`, headers: { authorization: token }, payload: { loginId: { email: 'cap@example.com' }, password: 'a-good-password', captchaTokens } });
    expect((await send('register')).json().details.applicationError.code).toBe('-19971');
    expect((await send('register', [{ Recaptcha: 'fail' }])).json().details.applicationError.code).toBe('-19970');
    expect((await send('register', [{ Recaptcha: 'pass' }])).json().state).toBe('SUCCESS');
    expect((await send('login')).json().details.applicationError.code).toBe('-19971');
  });

  it('limits requests per IP on login', async () => {
    const site = await strict.createSite();
    const token = await strict.visitorToken(site);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await strict.app.inject({ method: 'POST', url: `${AUTH}/v2/login`, remoteAddress: '10.9.8.7', headers: { authorization: token }, payload: { loginId: { email: 'rl@example.com' }, password: 'whatever-password' } });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().details.applicationError.code).toBe('TOO_MANY_REQUESTS');
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});

describe('change password, recovery and activation', () => {
  it('changes the password of the signed-in member and ends every sign-in', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const { sessionToken } = (await register(site, email)).json();
    const tokens = await memberTokens(site, sessionToken);
    const short = await post(`${AUTH}/v2/change-password`, { newPassword: 'short' }, tokens.access_token);
    expect(short.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'newPassword', violatedRule: 'MIN_LENGTH' });
    const res = await post(`${AUTH}/v2/change-password`, { newPassword: 'a-new-password' }, tokens.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token })).statusCode).toBe(400);
    expect(applicationCode(await login(site, email))).toBe('-19976');
    expect((await login(site, email, 'a-new-password')).json().state).toBe('SUCCESS');
    const visitor = await post(`${AUTH}/v2/change-password`, { newPassword: 'a-new-password' }, await t.visitorToken(site));
    expect(visitor.statusCode).toBe(403);
  });

  it('e-mails a reset link, answers the same for unknown e-mails, and resets once', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const { sessionToken } = (await register(site, email)).json();
    const tokens = await memberTokens(site, sessionToken);
    const token = await t.visitorToken(site);
    const known = await post('/_api/iam/recovery/v1/send-email', { email, redirect: { url: 'http://localhost:3000/after', clientId: site.clientId } }, token);
    const unknown = await post('/_api/iam/recovery/v1/send-email', { email: newEmail('ghost') }, token);
    expect([known.statusCode, known.json()]).toEqual([200, {}]);
    expect([unknown.statusCode, unknown.json()]).toEqual([200, {}]);
    const mail = await latestMail(site, email);
    const link = /(http\S+recoveryToken=\S+)/.exec(mail.text)?.[1] as string;
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    const url = new URL(link);
    expect(url.pathname).toBe('/auth/reset-password');
    expect(url.searchParams.get('redirectUrl')).toBe('http://localhost:3000/after');
    const recoveryToken = url.searchParams.get('recoveryToken') as string;
    // Public call on the custom-host path: the token names its site.
    const recovered = await t.app.inject({ method: 'POST', url: '/_iam/recovery/v1/recover', payload: { recoveryToken, password: 'recovered-password' } });
    expect(recovered.statusCode, recovered.body).toBe(200);
    expect(recovered.json().identity).toMatchObject({ email: { address: email, isVerified: true } });
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token })).statusCode).toBe(400);
    expect((await login(site, email, 'recovered-password')).json().state).toBe('SUCCESS');
    const reused = await t.app.inject({ method: 'POST', url: '/_iam/recovery/v1/recover', payload: { recoveryToken, password: 'another-password' } });
    expect(applicationCode(reused)).toBe('INVALID_RECOVERY_TOKEN');
  });

  it('expires a reset link after one hour', async () => {
    const site = await t.createSite();
    const email = newEmail();
    await register(site, email);
    await post('/_api/iam/recovery/v1/send-email', { email }, await t.visitorToken(site));
    const recoveryToken = new URL(/(http\S+)/.exec((await latestMail(site, email)).text)?.[1] as string).searchParams.get('recoveryToken');
    offsetMs += 3600_000 + 1000;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/_api/iam/recovery/v1/recover', payload: { recoveryToken, password: 'recovered-password' } });
      expect(applicationCode(res)).toBe('INVALID_RECOVERY_TOKEN');
    } finally {
      offsetMs -= 3600_000 + 1000;
    }
  });

  it('sends an activation link from the back office only, which sets the first password', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const signOn = await t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { loginId: { email } } });
    const identityId = signOn.json().identity.id;
    const denied = await post('/_api/iam/recovery/v1/activation-email', { identityId }, await t.visitorToken(site));
    expect(denied.statusCode).toBe(403);
    const sent = await t.app.inject({ method: 'POST', url: '/_iam/recovery/v1/activation-email', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { identityId } });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await latestMail(site, email);
    expect(mail.kind).toBe('identity.activation');
    const recoveryToken = new URL(/(http\S+)/.exec(mail.text)?.[1] as string).searchParams.get('recoveryToken');
    await t.app.inject({ method: 'POST', url: '/_iam/recovery/v1/recover', payload: { recoveryToken, password: 'first-password' } });
    expect((await login(site, email, 'first-password')).json().state).toBe('SUCCESS');
  });
});

describe('sign-on and the site owner', () => {
  it('signs on with an API key and a visitor token, finding the same identity twice', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const visitor = await t.visitorToken(site);
    const first = await t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: `${visitor},${site.apiKey}` }, payload: { loginId: { email }, profile: { nickname: 'Ext' } } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ sessionToken: expect.any(String), identity: { id: expect.any(String) } });
    const second = await t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: `${visitor},${site.apiKey}` }, payload: { loginId: { email } } });
    expect(second.json().identity.id).toBe(first.json().identity.id);
    const badKey = await t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: `${visitor},bdg_wrong` }, payload: { loginId: { email } } });
    expect(badKey.statusCode).toBe(401);
    const noKey = await post(`${AUTH}/v2/sign-on`, { loginId: { email } }, visitor);
    expect(noKey.statusCode).toBe(401);
  });

  it('lets the demo site\'s printed owner sign in', async () => {
    const site = await t.createSite({ status: 'DEMO', ownerEmail: DEMO_OWNER_EMAIL, ownerPassword: DEMO_OWNER_PASSWORD });
    expect((await login(site, DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD)).json().state).toBe('SUCCESS');
  });

  it('gives no session to an unapproved or unverified member, and verifies with verifyEmail', async () => {
    const signOn = (site: TestSite, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload });
    const approval = await t.createSite({ signupPolicy: 'owner-approval' });
    const waiting = newEmail();
    await register(approval, waiting);
    expect(applicationCode(await signOn(approval, { loginId: { email: waiting } }))).toBe('MEMBER_NOT_APPROVED');
    const verification = await t.createSite({ signupPolicy: 'email-verification' });
    const unverified = newEmail();
    await register(verification, unverified);
    expect(applicationCode(await signOn(verification, { loginId: { email: unverified } }))).toBe('EMAIL_NOT_VERIFIED');
    const verified = await signOn(verification, { loginId: { email: unverified }, verifyEmail: true });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().identity).toMatchObject({ email: { isVerified: true }, status: { name: 'ACTIVE' } });
  });

  it('creates the owner given at site creation, who signs in as a WIX_USER', async () => {
    const ownerEmail = newEmail('owner');
    const site = await t.createSite({ ownerEmail, ownerPassword: 'owner-password' });
    const res = await login(site, ownerEmail, 'owner-password');
    expect(res.json()).toMatchObject({ state: 'SUCCESS', identity: { email: { isVerified: true } } });
    const [member] = await t.db.query('SELECT role, status FROM members WHERE site_id = $1 AND member_id = $2', [site.siteId, res.json().identity.id]);
    expect(member).toEqual({ role: 'OWNER', status: 'APPROVED' });
    const tokens = await memberTokens(site, res.json().sessionToken);
    const caller = await t.app.services.oauth.callerResolver().fromAccessToken(tokens.access_token);
    expect(caller).toMatchObject({ kind: 'WIX_USER', memberRole: 'OWNER' });
    await expect(t.createSite({ ownerEmail: 'bad', ownerPassword: 'x' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('malformed input', () => {
  const endpoints = [
    `${AUTH}/v2/register`, `${AUTH}/v2/login`, `${AUTH}/v2/change-password`, `${AUTH}/v2/sign-on`,
    '/_api/iam/verification/v1/start', '/_api/iam/verification/v1/verify', '/_api/iam/verification/v1/auth/verify', '/_api/iam/verification/v1/auth/resend',
    '/_api/iam/recovery/v1/send-email', '/_iam/recovery/v1/recover', '/_iam/recovery/v1/activation-email',
    '/_api/redirects-api/v1/redirect-session', '/headless/v1/redirect-session', '/oauth2/token',
  ];
  const payloads: unknown[] = [
    {}, [], 'text', 42, null,
    { loginId: { email: ['a'] }, password: { x: 1 }, profile: 'x', captchaTokens: 'x' },
    { stateToken: 5, code: [1], identityId: {}, verificationId: null, recoveryToken: '..', email: {}, redirect: 'x' },
    { auth: { authRequest: { clientId: 5, redirectUri: 'javascript:x' } }, logout: 'x', callbacks: [] },
    { grantType: 'authorization_code', clientId: 'x', code: 'y' }, { grant_type: 'authorized_client', member_id: 'm' },
    { recoveryToken: 'no-dot', password: 'a-good-password' }, { recoveryToken: 'site.secret', password: 'a-good-password' },
  ];

  it('answers every sign-in call with a 4xx in the wire shape, never a 500', async () => {
    const site = await t.createSite();
    const credentials = [undefined, await t.visitorToken(site), site.apiKey, `${await t.visitorToken(site)},${site.apiKey}`];
    for (const url of endpoints) {
      for (const payload of payloads) {
        for (const authorization of credentials) {
          const res = await t.app.inject({
            method: 'POST', url, headers: { 'content-type': 'application/json', 'wix-site-id': site.siteId, ...(authorization ? { authorization } : {}) },
            payload: JSON.stringify(payload),
          });
          const what = `${url} ${JSON.stringify(payload)} ${authorization ? 'with credentials' : 'anonymous'}`;
          expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(res.json().details, what).toBeDefined();
        }
      }
    }
    for (const url of ['/oauth2/authorize?clientId[]=x', '/oauth2/authorize?clientId=x&redirectSessionId=%00', '/oauth2/logout?clientId=x', `${AUTH}/v1/logout?clientId=nope`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBeLessThan(500);
    }
  }, 60_000);
});
