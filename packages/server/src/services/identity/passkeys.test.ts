// Passkeys end to end on the server, with a software authenticator (test/soft-authenticator.ts):
// registration from the member's Security calls, sign-in with one, the passkey as a second
// factor, and what must be refused — another origin, a replayed challenge, a counter going
// backwards, another site's passkey, a removed one — and who may call what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite } from '../../test/backoffice.js';
import { AUTH, identityCalls, newEmail } from '../../test/identity-calls.js';
import { SoftAuthenticator } from '../../test/soft-authenticator.js';
import { totpCode } from './totp.js';

const ORIGIN = 'http://localhost:3000';
const PASSKEYS = '/bodega/v1/my/security/passkeys';
const SIGN_IN = '/bodega/v1/passkey-sign-in';

let t: TestApp;
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const { post, register, login, memberTokens } = identityCalls(() => ({ ...t, url: ORIGIN }));

beforeAll(async () => {
  t = await testApp({ now, publicUrl: ORIGIN });
});
afterAll(() => t.close());

async function member(site: TestSite) {
  const email = newEmail('passkey');
  const res = await register(site, email);
  expect(res.statusCode, res.body).toBe(200);
  const { sessionToken, identity } = res.json();
  const { access_token } = await memberTokens(site, sessionToken);
  return { email, memberId: identity.id as string, access: access_token as string };
}

/** Registers a passkey of `authenticator` for the member; answers the passkey's id. */
async function addPasskey(access: string, authenticator: SoftAuthenticator, name = 'Laptop', origin = ORIGIN) {
  const started = await post(`${PASSKEYS}/options`, {}, access);
  expect(started.statusCode, started.body).toBe(200);
  const { challengeId, optionsJson } = started.json();
  const options = JSON.parse(optionsJson);
  const res = await post(PASSKEYS, { challengeId, name, credential: authenticator.create(options, origin) }, access);
  return { res, challengeId, options };
}

async function signInOptions(site: TestSite) {
  const visitor = await t.visitorToken(site);
  const res = await post(`${SIGN_IN}/options`, {}, visitor);
  expect(res.statusCode, res.body).toBe(200);
  const { challengeId, optionsJson } = res.json() as { challengeId: string; optionsJson: string };
  return { visitor, challengeId, options: JSON.parse(optionsJson) as { challenge: string; rpId: string } };
}

async function signIn(site: TestSite, authenticator: SoftAuthenticator, which: Parameters<SoftAuthenticator['get']>[2] = {}, origin = ORIGIN) {
  const { visitor, challengeId, options } = await signInOptions(site);
  const credential = authenticator.get(options, origin, which);
  return { res: await post(`${SIGN_IN}/verify`, { challengeId, credential }, visitor), challengeId, credential, visitor };
}

/** A ceremony's answer with its options parsed. */
const ceremony = (res: { json(): { challengeId: string; optionsJson: string } }) => {
  const { challengeId, optionsJson } = res.json();
  return { challengeId, options: JSON.parse(optionsJson) };
};

const code = (res: { json(): { details?: { applicationError?: { code?: string } } } }) => res.json().details?.applicationError?.code;

describe('registering a passkey', () => {
  it('answers options for a discoverable credential with user verification, stores the passkey, lists it and audits it', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    const { res, options } = await addPasskey(m.access, authenticator, 'My laptop');
    expect(res.statusCode, res.body).toBe(200);
    expect(options).toMatchObject({
      rp: { id: 'localhost' }, attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, excludeCredentials: [],
    });
    expect(options.user.name.toLowerCase()).toBe(m.email.toLowerCase());
    expect(res.json().passkey).toMatchObject({ name: 'My laptop', rpId: 'localhost', transports: ['internal'], lastUsedDate: null });
    const list = await t.app.inject({ method: 'GET', url: PASSKEYS, headers: { authorization: m.access } });
    expect(list.json().passkeys).toHaveLength(1);
    const [stored] = await t.db.query<{ counter: string; public_key: string }>('SELECT counter, public_key FROM passkey_credentials WHERE site_id = $1', [site.siteId]);
    expect(Number(stored.counter)).toBe(0);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND action LIKE 'member.passkey%'", [site.siteId]);
    expect(audit.map((a) => a.action)).toEqual(['member.passkey_added']);

    // The next ceremony excludes it, and the same user handle names the member.
    const again = ceremony(await post(`${PASSKEYS}/options`, {}, m.access));
    expect(again.options.excludeCredentials).toMatchObject([{ id: res.json().passkey.passkeyId }]);
    expect(again.options.user.id).toBe(options.user.id);
  });

  it('refuses another origin, a replayed challenge and an authenticator without user verification', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    const wrongOrigin = await addPasskey(m.access, authenticator, 'Phishing', 'http://evil.localhost:3000');
    expect(wrongOrigin.res.statusCode).toBe(400);
    expect(code(wrongOrigin.res)).toBe('PASSKEY_REFUSED');

    const first = await addPasskey(m.access, authenticator);
    expect(first.res.statusCode, first.res.body).toBe(200);
    const replay = await post(PASSKEYS, { challengeId: first.challengeId, name: 'Again', credential: authenticator.create(first.options, ORIGIN) }, m.access);
    expect(replay.statusCode).toBe(400);
    expect(code(replay)).toBe('PASSKEY_REFUSED');

    const started = ceremony(await post(`${PASSKEYS}/options`, {}, m.access));
    const noUv = await post(PASSKEYS, { challengeId: started.challengeId, name: 'No PIN', credential: authenticator.create(started.options, ORIGIN, { userVerified: false }) }, m.access);
    expect(noUv.statusCode).toBe(400);

    const expired = ceremony(await post(`${PASSKEYS}/options`, {}, m.access));
    offsetMs += 6 * 60_000;
    const late = await post(PASSKEYS, { challengeId: expired.challengeId, name: 'Late', credential: authenticator.create(expired.options, ORIGIN) }, m.access);
    expect(late.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: PASSKEYS, headers: { authorization: m.access } })).json().passkeys).toHaveLength(1);
  });

  it('validates input: a malformed credential or an empty name is a 400 in the spec\'s shape', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const started = ceremony(await post(`${PASSKEYS}/options`, {}, m.access));
    const bad = await post(PASSKEYS, { challengeId: started.challengeId, name: 'x', credential: { id: 'not base64!', type: 'public-key' } }, m.access);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: expect.any(String), details: expect.any(Object) });
    const noName = await post(PASSKEYS, { challengeId: started.challengeId, name: '   ', credential: new SoftAuthenticator().create(started.options, ORIGIN) }, m.access);
    expect(noName.statusCode).toBe(400);
  });

  it('renames and removes a passkey (removal audited); a removed passkey signs in no more', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    const { res } = await addPasskey(m.access, authenticator);
    const id = res.json().passkey.passkeyId as string;
    const renamed = await t.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${id}`, headers: { authorization: m.access }, payload: { name: 'Work laptop' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().passkey.name).toBe('Work laptop');
    const removed = await t.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${id}`, headers: { authorization: m.access } });
    expect(removed.statusCode, removed.body).toBe(200);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND action = 'member.passkey_removed'", [site.siteId]);
    expect(audit).toHaveLength(1);
    const again = await t.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${id}`, headers: { authorization: m.access } });
    expect(again.statusCode).toBe(404);
    const { res: signedIn } = await signIn(site, authenticator, { credentialId: id });
    expect(signedIn.statusCode).toBe(400);
    expect(code(signedIn)).toBe('PASSKEY_REFUSED');
  });
});

describe('signing in with a passkey', () => {
  it('answers SUCCESS with a session that becomes member tokens; the counter and last use are kept', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);
    const { res, credential } = await signIn(site, authenticator);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ state: 'SUCCESS', identity: { id: m.memberId } });
    const tokens = await memberTokens(site, body.sessionToken);
    const list = await t.app.inject({ method: 'GET', url: PASSKEYS, headers: { authorization: tokens.access_token } });
    expect(list.json().passkeys[0].lastUsedDate).not.toBeNull();
    const [stored] = await t.db.query<{ counter: string }>('SELECT counter FROM passkey_credentials WHERE site_id = $1 AND credential_id = $2', [site.siteId, credential.id]);
    expect(Number(stored.counter)).toBe(1);
  });

  it('refuses another origin, a replayed challenge, a counter going backwards and no user verification', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);

    const wrongOrigin = await signIn(site, authenticator, {}, 'http://evil.localhost:3000');
    expect(wrongOrigin.res.statusCode).toBe(400);
    expect(code(wrongOrigin.res)).toBe('PASSKEY_REFUSED');

    const ok = await signIn(site, authenticator, { counter: 10 });
    expect(ok.res.statusCode, ok.res.body).toBe(200);
    const replay = await post(`${SIGN_IN}/verify`, { challengeId: ok.challengeId, credential: ok.credential }, ok.visitor);
    expect(replay.statusCode).toBe(400);
    expect(code(replay)).toBe('PASSKEY_REFUSED');

    const backwards = await signIn(site, authenticator, { counter: 5 });
    expect(backwards.res.statusCode).toBe(400);
    expect(backwards.res.json().message).toMatch(/counter/i);
    const same = await signIn(site, authenticator, { counter: 10 });
    expect(same.res.statusCode).toBe(400);

    const noUv = await signIn(site, authenticator, { userVerified: false });
    expect(noUv.res.statusCode).toBe(400);
    expect((await signIn(site, authenticator, { counter: 11 })).res.statusCode).toBe(200);
  });

  it('refuses another site\'s passkey', async () => {
    const [a, b] = [await t.createSite(), await t.createSite()];
    const m = await member(a);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);
    const [id] = [...authenticator.keys.keys()];
    const { res } = await signIn(b, authenticator, { credentialId: id });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/not registered here/);
  });

  it('one challenge signs in once, even when sent twice at the same time', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);
    const { visitor, challengeId, options } = await signInOptions(site);
    const credential = authenticator.get(options, ORIGIN);
    const answers = await Promise.all([1, 2, 3].map(() => post(`${SIGN_IN}/verify`, { challengeId, credential }, visitor)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('counts failures towards the e-mail\'s lock-out and refuses a locked-out account', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);
    for (let i = 0; i < 5; i += 1) expect((await signIn(site, authenticator, {}, 'http://evil.localhost:3000')).res.statusCode).toBe(400);
    const locked = await signIn(site, authenticator);
    expect(locked.res.statusCode).toBe(429);
    expect(code(locked.res)).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await login(site, m.email)).statusCode).toBe(429);
    offsetMs += 16 * 60_000;
    expect((await signIn(site, authenticator)).res.statusCode).toBe(200);
  });

  it('answers on a verified domain of the site with that domain as relying party', async () => {
    const domain = `shop-${Date.now()}.localhost`;
    const site = await t.createSite({ domains: [domain] });
    await t.db.query('UPDATE site_domains SET verified_at = now() WHERE site_id = $1', [site.siteId]);
    const origin = `http://${domain}:3000`;
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    const started = await t.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: { authorization: m.access, host: `${domain}:3000` }, payload: {} });
    const { challengeId, options } = ceremony(started);
    expect(options.rp.id).toBe(domain);
    const added = await t.app.inject({
      method: 'POST', url: PASSKEYS, headers: { authorization: m.access, host: `${domain}:3000` },
      payload: { challengeId, name: 'Phone', credential: authenticator.create(options, origin) },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().passkey.rpId).toBe(domain);
    // On PUBLIC_URL's host the relying party differs: the domain's passkey is refused there.
    const visitor = await t.visitorToken(site);
    const opened = ceremony(await t.app.inject({ method: 'POST', url: `${SIGN_IN}/options`, headers: { authorization: visitor, host: `${domain}:3000` }, payload: {} }));
    expect(opened.options.rpId).toBe(domain);
    const ok = await t.app.inject({
      method: 'POST', url: `${SIGN_IN}/verify`, headers: { authorization: visitor, host: `${domain}:3000` },
      payload: { challengeId: opened.challengeId, credential: authenticator.get(opened.options, origin) },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const elsewhere = await signIn(site, authenticator, { credentialId: added.json().passkey.passkeyId }, ORIGIN);
    expect(elsewhere.res.statusCode).toBe(400);
  });
});

describe('a passkey as the second factor', () => {
  it('is offered as WEBAUTHN after a password; the challenge and the credential finish the sign-in; a passkey sign-in asks no factor', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const authenticator = new SoftAuthenticator();
    await addPasskey(m.access, authenticator);
    const started = await post('/bodega/v1/my/security/totp', {}, m.access);
    await post('/bodega/v1/my/security/totp/confirm', { code: totpCode(started.json().secret, now()) }, m.access);

    const loggedIn = await login(site, m.email);
    expect(loggedIn.json()).toMatchObject({ state: 'REQUIRE_MFA' });
    const { stateToken, requireMfaData } = loggedIn.json();
    expect(requireMfaData.availableFactors.map((f: { factorType: string }) => f.factorType)).toEqual(['TOTP', 'WEBAUTHN', 'RECOVERY_CODE']);

    const visitor = await t.visitorToken(site);
    const challenge = await post(`${AUTH}/v2/WEBAUTHN/verify`, { stateToken }, visitor);
    expect(challenge.statusCode, challenge.body).toBe(200);
    expect(challenge.json()).toMatchObject({ state: 'MFA_CHALLENGE', mfaChallengeData: { factorType: 'WEBAUTHN' } });
    const { challengeId, publicKeyCredentialRequestOptionsJson } = challenge.json().mfaChallengeData.verificationChallengeData.webauthnData;
    const requestOptions = JSON.parse(publicKeyCredentialRequestOptionsJson);
    expect(requestOptions.allowCredentials).toHaveLength(1);

    // Another origin is a wrong answer (one of the sign-in's tries); the right one finishes it.
    const wrong = await post(`${AUTH}/v2/WEBAUTHN/verify`, { stateToken, webauthnData: { challengeId, credential: JSON.stringify(authenticator.get(requestOptions, 'http://evil.localhost:3000')) } }, visitor);
    expect(wrong.statusCode).toBe(400);
    const again = (await post(`${AUTH}/v2/WEBAUTHN/verify`, { stateToken }, visitor)).json().mfaChallengeData.verificationChallengeData.webauthnData;
    const done = await post(`${AUTH}/v2/WEBAUTHN/verify`, {
      stateToken, webauthnData: { challengeId: again.challengeId, credential: JSON.stringify(authenticator.get(JSON.parse(again.publicKeyCredentialRequestOptionsJson), ORIGIN)) },
    }, visitor);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String) });

    const strong = await signIn(site, authenticator);
    expect(strong.res.json()).toMatchObject({ state: 'SUCCESS' });
  });

  it('a member with passkeys only signs in with a password without a second step', async () => {
    const site = await t.createSite();
    const m = await member(site);
    await addPasskey(m.access, new SoftAuthenticator());
    expect((await login(site, m.email)).json()).toMatchObject({ state: 'SUCCESS' });
  });
});

describe('who may call the passkey calls', () => {
  it('the member themself (staff too) manages their passkeys; other callers are refused', async () => {
    const s = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    const authenticator = new SoftAuthenticator();
    const options = await t.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: s.headers.owner, payload: {} });
    expect(options.statusCode, options.body).toBe(200);
    const { challengeId, options: creation } = ceremony(options);
    const added = await t.app.inject({ method: 'POST', url: PASSKEYS, headers: s.headers.owner, payload: { challengeId, name: 'Owner key', credential: authenticator.create(creation, ORIGIN) } });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().passkey.passkeyId as string;
    expect((await t.app.inject({ method: 'GET', url: PASSKEYS, headers: s.headers.owner })).json().passkeys).toHaveLength(1);

    // Other members see their own (none) and cannot touch the owner's; the rest are turned away.
    for (const headers of [s.headers.contributor, s.headers.member, other.headers.owner]) {
      expect((await t.app.inject({ method: 'GET', url: PASSKEYS, headers })).json().passkeys).toEqual([]);
      expect((await t.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${id}`, headers })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${id}`, headers, payload: { name: 'x' } })).statusCode).toBe(404);
    }
    for (const headers of [s.headers.visitor, s.headers.apiKey, other.headers.apiKey, s.headers.anonymous]) {
      for (const [method, url] of [['GET', PASSKEYS], ['POST', `${PASSKEYS}/options`], ['DELETE', `${PASSKEYS}/${id}`]] as const) {
        const res = await t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
        expect([401, 403], `${method} ${url}`).toContain(res.statusCode);
        expect(res.json().message).toEqual(expect.any(String));
      }
    }
    expect((await t.app.inject({ method: 'GET', url: PASSKEYS, headers: s.headers.owner })).json().passkeys).toHaveLength(1);

    // Sign-in takes a token of the site (a visitor's); none is a 401, another site's visitor finds nothing.
    expect((await t.app.inject({ method: 'POST', url: `${SIGN_IN}/options`, headers: s.headers.anonymous, payload: {} })).statusCode).toBe(401);
    const theirs = ceremony(await t.app.inject({ method: 'POST', url: `${SIGN_IN}/options`, headers: other.headers.visitor, payload: {} }));
    const refused = await t.app.inject({
      method: 'POST', url: `${SIGN_IN}/verify`, headers: other.headers.visitor, payload: { challengeId: theirs.challengeId, credential: authenticator.get(theirs.options, ORIGIN) },
    });
    expect(refused.statusCode).toBe(400);
    const ours = ceremony(await t.app.inject({ method: 'POST', url: `${SIGN_IN}/options`, headers: s.headers.visitor, payload: {} }));
    const owner = await t.app.inject({ method: 'POST', url: `${SIGN_IN}/verify`, headers: s.headers.visitor, payload: { challengeId: ours.challengeId, credential: authenticator.get(ours.options, ORIGIN) } });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().identity.id).toBe(s.ownerId);
  });
});
