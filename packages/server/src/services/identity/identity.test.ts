import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { AUTH, applicationCode, identityCalls, newEmail } from '../../test/identity-calls.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
const { post, register, login, latestMail, codeFromOutbox, memberTokens } = identityCalls(() => t);

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

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
