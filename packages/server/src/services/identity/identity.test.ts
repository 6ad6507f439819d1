import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD } from '../../demo.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

const AUTH = '/_api/iam/authentication';
let emailCounter = 0;
const newEmail = (tag = 'member') => `${tag}.${++emailCounter}.${Date.now()}@Example.com`;

async function post(url: string, payload: unknown, authorization?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: authorization ? { authorization } : {} });
}

function applicationCode(res: LightMyRequestResponse): string | undefined {
  return res.json().details?.applicationError?.code;
}

async function register(site: TestSite, email: string, password = 'a-good-password', extra: Record<string, unknown> = {}) {
  return post(`${AUTH}/v2/register`, { loginId: { email }, password, ...extra }, await t.visitorToken(site));
}

async function login(site: TestSite, email: string, password = 'a-good-password', extra: Record<string, unknown> = {}) {
  return post(`${AUTH}/v2/login`, { loginId: { email }, password, ...extra }, await t.visitorToken(site));
}

async function latestMail(site: TestSite, to: string) {
  const mail = (await t.app.services.mail.listForSite(site.siteId)).find((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

async function codeFromOutbox(site: TestSite, to: string): Promise<string> {
  const mail = await latestMail(site, to);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, 'the code is in the text body').toBeDefined();
  expect(mail.html).toContain(code);
  return code as string;
}

/** A member's tokens: session token → redirect session (prompt none) → code → token grant. */
async function memberTokens(site: TestSite, sessionToken: string) {
  const verifier = 'v'.repeat(43);
  const { createHash } = await import('node:crypto');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const session = await post('/_api/redirects-api/v1/redirect-session', {
    auth: { authRequest: { clientId: site.clientId, redirectUri: 'http://localhost:3000/done', codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'st', sessionToken }, prompt: 'none' },
  }, await t.visitorToken(site));
  const fullUrl = new URL(session.json().redirectSession.fullUrl);
  const authorize = await t.app.inject({ method: 'GET', url: fullUrl.pathname + fullUrl.search });
  const code = new URL(authorize.headers.location as string).searchParams.get('code');
  const res = await post('/oauth2/token', { clientId: site.clientId, grantType: 'authorization_code', code, codeVerifier: verifier, redirectUri: 'http://localhost:3000/done' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

describe('register', () => {
  it('signs a member in at once on an open site, with an APPROVED member row and an event', async () => {
    const site = await t.createSite({ signupPolicy: 'open' });
    await keepEveryEvent(t.db, site.siteId);
    const email = newEmail();
    const res = await register(site, email, 'a-good-password', { profile: { nickname: 'Jane D', firstName: 'Jane', customFields: [{ name: 'shoe', value: { numValue: 42 } }] } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      state: 'SUCCESS',
      sessionToken: expect.any(String),
      identity: {
        id: expect.any(String),
        createdDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        email: { address: email, isVerified: false },
        status: { name: 'ACTIVE', reasons: [] },
        identityProfile: { nickname: 'Jane D', firstName: 'Jane', customFields: [{ name: 'shoe', value: { numValue: 42 } }] },
      },
    });
    const [member] = await t.db.query('SELECT status, role, slug, login_email, profile, contact FROM members WHERE site_id = $1 AND member_id = $2', [site.siteId, body.identity.id]);
    expect(member).toMatchObject({ status: 'APPROVED', role: 'MEMBER', slug: 'jane-d', login_email: email, profile: { nickname: 'Jane D' } });
    expect(member.contact).toMatchObject({ firstName: 'Jane', emails: [{ email, tag: 'MAIN' }], customFields: { shoe: 42 } });
    const events = await t.db.query('SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2', [site.siteId, body.identity.id]);
    expect(events.map((e) => e.type)).toContain('member.created');
  });

  it('keeps one identity when the same e-mail registers several times at once', async () => {
    const site = await t.createSite();
    const email = newEmail('race');
    const results = await Promise.all([email, email.toUpperCase(), email.toLowerCase(), email].map((e) => register(site, e)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => applicationCode(r) === '-19995')).toHaveLength(3);
    const [{ count }] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM members WHERE site_id = $1', [site.siteId]);
    expect(count).toBe(1);
  });

  it('gives members with the same nickname distinct slugs, even at once', async () => {
    const site = await t.createSite();
    const results = await Promise.all([1, 2, 3, 4].map(() => register(site, newEmail(), 'a-good-password', { profile: { nickname: 'Sam' } })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const slugs = (await t.db.query<{ slug: string }>('SELECT slug FROM members WHERE site_id = $1', [site.siteId])).map((r) => r.slug);
    expect(new Set(slugs).size).toBe(4);
    expect(slugs).toContain('sam');
  });

  it('refuses an e-mail already registered, compared case-insensitively, with -19995', async () => {
    const site = await t.createSite();
    const email = newEmail();
    expect((await register(site, email)).statusCode).toBe(200);
    const again = await register(site, email.toUpperCase());
    expect(again.statusCode).toBe(400);
    expect(applicationCode(again)).toBe('-19995');
  });

  it('lets the same e-mail register on another site', async () => {
    const email = newEmail();
    expect((await register(await t.createSite(), email)).statusCode).toBe(200);
    expect((await register(await t.createSite(), email)).statusCode).toBe(200);
  });

  it('answers an invalid e-mail with a field violation of type EMAIL', async () => {
    const site = await t.createSite();
    for (const loginId of [{ email: 'not-an-email' }, {}, undefined]) {
      const res = await post(`${AUTH}/v2/register`, { loginId, password: 'a-good-password' }, await t.visitorToken(site));
      expect(res.statusCode).toBe(400);
      expect(res.json().details.validationError.fieldViolations).toEqual([
        expect.objectContaining({ field: 'loginId.email', violatedRule: 'FORMAT', data: { type: 'EMAIL' } }),
      ]);
    }
  });

  it('answers the password rules as field violations', async () => {
    const site = await t.createSite();
    const short = await register(site, newEmail(), 'short');
    expect(short.json().details.validationError.fieldViolations).toEqual([
      { field: 'password', violatedRule: 'MIN_LENGTH', description: expect.any(String), data: { threshold: 8 } },
    ]);
    const long = await register(site, newEmail(), 'x'.repeat(257));
    expect(long.json().details.validationError.fieldViolations[0]).toMatchObject({ violatedRule: 'MAX_LENGTH', data: { threshold: 256 } });
  });

  it('needs a site: an anonymous request is refused', async () => {
    const res = await post(`${AUTH}/v2/register`, { loginId: { email: newEmail() }, password: 'a-good-password' });
    expect(res.statusCode).toBe(401);
  });

  it('waits for the owner on an owner-approval site, then lets the approved member in', async () => {
    const site = await t.createSite({ signupPolicy: 'owner-approval' });
    const email = newEmail();
    const res = await register(site, email);
    expect(res.json()).toMatchObject({ state: 'REQUIRE_OWNER_APPROVAL', identity: { status: { name: 'PENDING', reasons: ['PENDING_ADMIN_APPROVAL_REQUIRED'] } } });
    expect(res.json().sessionToken).toBeUndefined();
    expect((await login(site, email)).json().state).toBe('REQUIRE_OWNER_APPROVAL');
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), res.json().identity.id, 'APPROVED');
    const after = await login(site, email);
    expect(after.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String), identity: { status: { name: 'ACTIVE' } } });
  });
});

describe('e-mail verification', () => {
  it('e-mails a 6-digit code and answers SUCCESS for the right one', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const email = newEmail();
    const res = await register(site, email);
    expect(res.json()).toMatchObject({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: expect.any(String) });
    const mail = await latestMail(site, email);
    expect(mail).toMatchObject({ kind: 'identity.verification-code', status: 'STORED' });
    const code = await codeFromOutbox(site, email);
    const verified = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken: res.json().stateToken }, await t.visitorToken(site));
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String), identity: { email: { isVerified: true }, status: { name: 'ACTIVE' } } });
    const [member] = await t.db.query('SELECT status FROM members WHERE site_id = $1 AND member_id = $2', [site.siteId, res.json().identity.id]);
    expect(member.status).toBe('APPROVED');
    // The code is single-use.
    const again = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken: res.json().stateToken }, await t.visitorToken(site));
    expect(applicationCode(again)).toBe('BAD_CODE');
  });

  it('allows 5 wrong tries per code, then needs a new code (resend)', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const email = newEmail();
    const { stateToken } = (await register(site, email)).json();
    const code = await codeFromOutbox(site, email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await post('/_api/iam/verification/v1/auth/verify', { code: wrong, stateToken }, await t.visitorToken(site));
      expect(res.json().details.applicationError).toMatchObject({ code: 'BAD_CODE', data: { reason: 'WRONG_CODE' } });
    }
    const sixth = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken }, await t.visitorToken(site));
    expect(sixth.json().details.applicationError).toMatchObject({ code: 'BAD_CODE', data: { reason: 'TOO_MANY_ATTEMPTS' } });
    const resent = await post('/_api/iam/verification/v1/auth/resend', { stateToken }, await t.visitorToken(site));
    expect(resent.json()).toMatchObject({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken });
    const fresh = await codeFromOutbox(site, email);
    const ok = await post('/_api/iam/verification/v1/auth/verify', { code: fresh, stateToken }, await t.visitorToken(site));
    expect(ok.json().state).toBe('SUCCESS');
  });

  it('expires a code after 15 minutes', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const email = newEmail();
    const { stateToken } = (await register(site, email)).json();
    const code = await codeFromOutbox(site, email);
    offsetMs += 15 * 60_000 + 1000;
    try {
      const res = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken }, await t.visitorToken(site));
      expect(res.json().details.applicationError).toMatchObject({ code: 'BAD_CODE', data: { reason: 'EXPIRED' } });
    } finally {
      offsetMs -= 15 * 60_000 + 1000;
    }
  });

  it('asks an unverified member for a new code at login', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const email = newEmail();
    await register(site, email);
    const res = await login(site, email);
    expect(res.json()).toMatchObject({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: expect.any(String) });
    const code = await codeFromOutbox(site, email);
    const ok = await post('/_api/iam/verification/v1/auth/verify', { code, stateToken: res.json().stateToken }, await t.visitorToken(site));
    expect(ok.json().state).toBe('SUCCESS');
  });

  it('answers an unknown state token with NOT_FOUND', async () => {
    const site = await t.createSite();
    const res = await post('/_api/iam/verification/v1/auth/verify', { code: '123456', stateToken: 'nope' }, await t.visitorToken(site));
    expect(res.statusCode).toBe(404);
    expect(applicationCode(res)).toBe('NOT_FOUND');
  });

  it('verifies an e-mail outside sign-in with start and verify (member for themselves)', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const { sessionToken, identity } = (await register(site, email)).json();
    const { access_token } = await memberTokens(site, sessionToken);
    const started = await post('/_api/iam/verification/v1/start', { identityId: identity.id, target: 'EMAIL' }, access_token);
    expect(started.statusCode, started.body).toBe(200);
    const code = await codeFromOutbox(site, email);
    const ok = await post('/_api/iam/verification/v1/verify', { verificationId: started.json().verificationId, code }, access_token);
    expect(ok.statusCode, ok.body).toBe(200);
    const [row] = await t.db.query('SELECT email_verified FROM identities WHERE site_id = $1 AND identity_id = $2', [site.siteId, identity.id]);
    expect(row.email_verified).toBe(true);
    const other = await post('/_api/iam/verification/v1/start', { identityId: 'someone-else' }, access_token);
    expect(other.statusCode).toBe(403);
  });
});

describe('login', () => {
  it('answers SUCCESS with a session token and records the last login', async () => {
    const site = await t.createSite();
    const email = newEmail();
    await register(site, email);
    const res = await login(site, email.toLowerCase());
    expect(res.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String), identity: { lastLoginDate: expect.any(String) } });
  });

  it('answers a wrong password and an unknown e-mail alike with -19976', async () => {
    const site = await t.createSite();
    const email = newEmail();
    await register(site, email);
    const wrong = await login(site, email, 'not-the-password');
    const unknown = await login(site, newEmail('nobody'));
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(applicationCode(res)).toBe('-19976');
    }
  });

  it('never answers a validationError, whatever the body', async () => {
    const site = await t.createSite();
    const token = await t.visitorToken(site);
    for (const payload of [{}, { loginId: { email: 'x' } }, { loginId: { email: 'a@b.co' }, password: 12 }, { loginId: 'text', password: 'x' }, { password: 'x'.repeat(5000) }]) {
      const res = await post(`${AUTH}/v2/login`, payload, token);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json().details.validationError, JSON.stringify(payload)).toBeUndefined();
      expect(res.json().details.applicationError.code).toEqual(expect.any(String));
    }
  });

  it('locks an e-mail after 5 failures in 15 minutes, known or not, then lets it in again', async () => {
    const site = await t.createSite();
    const email = newEmail();
    await register(site, email);
    for (let i = 0; i < 5; i++) expect(applicationCode(await login(site, email, 'wrong-password'))).toBe('-19976');
    const locked = await login(site, email);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().details.applicationError).toMatchObject({ code: 'TOO_MANY_LOGIN_ATTEMPTS', data: { retryAfterSeconds: expect.any(Number) } });
    const unknown = newEmail('ghost');
    for (let i = 0; i < 5; i++) await login(site, unknown, 'wrong-password');
    expect((await login(site, unknown)).statusCode).toBe(429);
    offsetMs += 15 * 60_000 + 1000;
    try {
      expect((await login(site, email)).json().state).toBe('SUCCESS');
    } finally {
      offsetMs -= 15 * 60_000 + 1000;
    }
  });

  it('asks a member without a password to reset it (-19973)', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const signOn = await t.app.inject({ method: 'POST', url: `${AUTH}/v2/sign-on`, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { loginId: { email } } });
    expect(signOn.statusCode, signOn.body).toBe(200);
    expect(applicationCode(await login(site, email, 'anything-at-all'))).toBe('-19973');
  });

  it('refuses a blocked member, and their refresh token stops working', async () => {
    const site = await t.createSite();
    const email = newEmail();
    const { sessionToken, identity } = (await register(site, email)).json();
    const tokens = await memberTokens(site, sessionToken);
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), identity.id, 'BLOCKED');
    const res = await login(site, email);
    expect(res.statusCode).toBe(403);
    expect(applicationCode(res)).toBe('MEMBER_BLOCKED');
    const refresh = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token });
    expect(refresh.statusCode).toBe(400);
  });
});

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
