import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import { AUTH, applicationCode, identityCalls, newEmail } from '../../test/identity-calls.js';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import { totpCode } from './totp.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
const { post, register, login, codeFromOutbox, memberTokens } = identityCalls(() => t);

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

const SECURITY = '/bodega/v1/my/security';

/** A registered member with their access token. */
async function member(site: TestSite) {
  const email = newEmail('mfa');
  const { sessionToken, identity } = (await register(site, email)).json();
  const { access_token } = await memberTokens(site, sessionToken);
  return { email, memberId: identity.id as string, access: access_token };
}

/** Sets up TOTP for the member; returns the secret and the recovery codes shown once. */
async function enrolTotp(access: string) {
  const started = await post(`${SECURITY}/totp`, {}, access);
  expect(started.statusCode, started.body).toBe(200);
  const { secret, otpauthUri, qrCodeSvg } = started.json();
  const confirmed = await post(`${SECURITY}/totp/confirm`, { code: totpCode(secret, now()) }, access);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret: secret as string, otpauthUri: otpauthUri as string, qrCodeSvg: qrCodeSvg as string, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

/** The next 30-second step, so a code differs from the one just used. */
function nextStep() {
  offsetMs += 30_000;
}

describe('TOTP', () => {
  it('enrols with a QR code of an otpauth:// URI and the secret, confirmed by a first code; sealed at rest; 10 recovery codes once', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const { secret, otpauthUri, qrCodeSvg, recoveryCodes } = await enrolTotp(m.access);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(otpauthUri).toMatch(/period=30/);
    expect(otpauthUri).toMatch(/digits=6/);
    expect(qrCodeSvg).toMatch(/^<svg/);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const [row] = await t.db.query<{ secret: string; status: string }>('SELECT secret, status FROM identity_factors WHERE site_id = $1', [site.siteId]);
    expect(row.status).toBe('ENABLED');
    expect(row.secret).not.toContain(secret);
    const stored = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM identity_recovery_codes WHERE site_id = $1', [site.siteId]);
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);
    const overview = (await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).json();
    expect(overview).toMatchObject({ factors: [{ factorType: 'TOTP', status: 'ENABLED' }], recoveryCodesLeft: 10, devices: [] });
  });

  it('refuses a wrong first code and keeps the factor waiting', async () => {
    const site = await t.createSite();
    const m = await member(site);
    await post(`${SECURITY}/totp`, {}, m.access);
    const res = await post(`${SECURITY}/totp/confirm`, { code: '000000' }, m.access);
    expect(res.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).json().factors).toMatchObject([{ status: 'REQUIRE_ACTIVATION' }]);
  });

  it('turns the login into REQUIRE_MFA with a state token and the factors; the code finishes it once', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const { secret } = await enrolTotp(m.access);
    nextStep();
    const res = await login(site, m.email);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      state: 'REQUIRE_MFA', stateToken: expect.any(String),
      requireMfaData: { reason: 'USER_SETTINGS', availableFactors: [{ factorType: 'TOTP', factorStatus: 'ENABLED' }, { factorType: 'RECOVERY_CODE', factorStatus: 'ENABLED' }] },
    });
    expect(body.sessionToken).toBeUndefined();
    const code = totpCode(secret, now());
    const done = await post(`${AUTH}/v2/TOTP/verify`, { stateToken: body.stateToken, totpData: { code } }, await t.visitorToken(site));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String) });
    expect((await memberTokens(site, done.json().sessionToken)).access_token).toEqual(expect.any(String));

    // The same code again, on another sign-in: refused (each step is used once).
    const again = (await login(site, m.email)).json();
    const replay = await post(`${AUTH}/v2/TOTP/verify`, { stateToken: again.stateToken, totpData: { code } }, await t.visitorToken(site));
    expect(replay.statusCode).toBe(400);
    expect(applicationCode(replay)).toBe('BAD_CODE');
    // The state token of a finished sign-in is spent.
    const reuseState = await post(`${AUTH}/v2/TOTP/verify`, { stateToken: body.stateToken, totpData: { code: totpCode(secret, now()) } }, await t.visitorToken(site));
    expect(reuseState.statusCode).toBe(404);
  });

  it('serves v2/verify with factorType in the body (the official request builder)', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const { secret } = await enrolTotp(m.access);
    nextStep();
    const { stateToken } = (await login(site, m.email)).json();
    const done = await post(`${AUTH}/v2/verify`, { stateToken, factorType: 'TOTP', totpData: { code: totpCode(secret, now()) } }, await t.visitorToken(site));
    expect(done.json().state).toBe('SUCCESS');
  });

  it('counts wrong codes towards the e-mail\'s lock-out', async () => {
    const site = await t.createSite();
    const m = await member(site);
    await enrolTotp(m.access);
    const { stateToken } = (await login(site, m.email)).json();
    for (let i = 0; i < 5; i++) {
      const wrong = await post(`${AUTH}/v2/TOTP/verify`, { stateToken, totpData: { code: '123456' } }, await t.visitorToken(site));
      expect(wrong.statusCode).toBe(400);
    }
    const locked = await login(site, m.email);
    expect(locked.statusCode).toBe(429);
    expect(applicationCode(locked)).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    offsetMs += 15 * 60_000 + 1000;
  });

  it('answers SMS, CALL and PUSH "not offered" in the spec\'s error shape', async () => {
    const site = await t.createSite();
    const m = await member(site);
    await enrolTotp(m.access);
    const { stateToken } = (await login(site, m.email)).json();
    for (const type of ['SMS', 'CALL', 'PUSH']) {
      const res = await post(`${AUTH}/v2/${type}/verify`, { stateToken, smsData: { code: '123456' } }, await t.visitorToken(site));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: expect.stringContaining('not offered'), details: { applicationError: { code: 'FACTOR_NOT_OFFERED' } } });
    }
  });
});

describe('recovery codes', () => {
  it('finish a sign-in once each, and regenerate on demand', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const { recoveryCodes } = await enrolTotp(m.access);
    const first = (await login(site, m.email)).json();
    const used = await post(`${AUTH}/v2/RECOVERY_CODE/verify`, { stateToken: first.stateToken, recoveryCodeData: { code: recoveryCodes[0].toUpperCase() } }, await t.visitorToken(site));
    expect(used.json().state).toBe('SUCCESS');
    const second = (await login(site, m.email)).json();
    const again = await post(`${AUTH}/v2/RECOVERY_CODE/verify`, { stateToken: second.stateToken, recoveryCodeData: { code: recoveryCodes[0] } }, await t.visitorToken(site));
    expect(again.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).json().recoveryCodesLeft).toBe(9);
    const fresh = await post(`${SECURITY}/recovery-codes`, {}, m.access);
    expect(fresh.json().recoveryCodes).toHaveLength(10);
    const third = (await login(site, m.email)).json();
    const old = await post(`${AUTH}/v2/RECOVERY_CODE/verify`, { stateToken: third.stateToken, recoveryCodeData: { code: recoveryCodes[1] } }, await t.visitorToken(site));
    expect(old.statusCode, 'the old codes are gone').toBe(400);
    const ok = await post(`${AUTH}/v2/RECOVERY_CODE/verify`, { stateToken: third.stateToken, recoveryCodeData: { code: fresh.json().recoveryCodes[3] } }, await t.visitorToken(site));
    expect(ok.json().state).toBe('SUCCESS');
  });
});

describe('EMAIL factor', () => {
  it('mails a code (MFA_CHALLENGE) that finishes the sign-in within 10 minutes', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const enabled = await post(`${SECURITY}/email`, {}, m.access);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().recoveryCodes).toHaveLength(10);
    const { stateToken, requireMfaData } = (await login(site, m.email)).json();
    expect(requireMfaData.availableFactors[0]).toEqual({ factorType: 'EMAIL', factorStatus: 'ENABLED' });
    const challenge = await post(`${AUTH}/v2/EMAIL/verify`, { stateToken, emailData: {} }, await t.visitorToken(site));
    expect(challenge.json()).toMatchObject({ state: 'MFA_CHALLENGE', mfaChallengeData: { factorType: 'EMAIL', verificationChallengeData: { hint: expect.stringMatching(/^m\*\*\*@/) } } });
    const code = await codeFromOutbox(site, m.email);
    const done = await post(`${AUTH}/v2/EMAIL/verify`, { stateToken, emailData: { code } }, await t.visitorToken(site));
    expect(done.json().state).toBe('SUCCESS');
  });

  it('expires the code after 10 minutes', async () => {
    const site = await t.createSite();
    const m = await member(site);
    await post(`${SECURITY}/email`, {}, m.access);
    const { stateToken } = (await login(site, m.email)).json();
    await post(`${AUTH}/v2/EMAIL/verify`, { stateToken, emailData: {} }, await t.visitorToken(site));
    const code = await codeFromOutbox(site, m.email);
    offsetMs += 10 * 60_000;
    const late = await post(`${AUTH}/v2/EMAIL/verify`, { stateToken, emailData: { code } }, await t.visitorToken(site));
    expect(late.statusCode).toBe(404);
  });
});

/** A member with TOTP who signed in once with rememberThisDevice: the device's token. */
async function rememberedDevice() {
  const site = await t.createSite();
  const m = await member(site);
  const { secret } = await enrolTotp(m.access);
  nextStep();
  const { stateToken } = (await login(site, m.email)).json();
  const done = await post(`${AUTH}/v2/TOTP/verify`, { stateToken, rememberThisDevice: true, totpData: { code: totpCode(secret, now()) } }, await t.visitorToken(site));
  expect(done.statusCode, done.body).toBe(200);
  return { site, m, done, deviceToken: done.json().additionalData.deviceToken.strValue as string };
}

describe('remembered devices', () => {
  it('skip the factor for 30 days; forgetting the device brings it back; lock-out events make it high-risk', async () => {
    const { site, m, done, deviceToken } = await rememberedDevice();
    expect(String(done.headers['set-cookie'])).toMatch(new RegExp(`^bodega_device_${site.siteId}=.+HttpOnly.+Max-Age=2592000`));

    const skipped = await login(site, m.email, undefined, { clientMetaData: { deviceToken } });
    expect(skipped.json()).toMatchObject({ state: 'SUCCESS', sessionToken: expect.any(String) });
    const byCookie = await t.app.inject({
      method: 'POST', url: `${AUTH}/v2/login`, payload: { loginId: { email: m.email }, password: 'a-good-password' },
      headers: { authorization: await t.visitorToken(site), cookie: `bodega_device_${site.siteId}=${encodeURIComponent(deviceToken)}` },
    });
    expect(byCookie.json().state).toBe('SUCCESS');

    const { devices } = (await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).json();
    expect(devices).toHaveLength(1);
    const forgot = await t.app.inject({ method: 'DELETE', url: `${SECURITY}/devices/${devices[0].deviceId}`, headers: { authorization: m.access } });
    expect(forgot.statusCode).toBe(200);
    expect((await login(site, m.email, undefined, { clientMetaData: { deviceToken } })).json().state).toBe('REQUIRE_MFA');
  });

  it('asks again with HIGH_RISK_LOGIN after lock-out events, and after 30 days', async () => {
    const { site, m, deviceToken } = await rememberedDevice();
    for (let i = 0; i < 5; i++) expect((await login(site, m.email, 'a-wrong-password')).statusCode).toBe(400);
    offsetMs += 15 * 60_000 + 1000;
    const risky = await login(site, m.email, undefined, { clientMetaData: { deviceToken } });
    expect(risky.json()).toMatchObject({ state: 'REQUIRE_MFA', requireMfaData: { reason: 'HIGH_RISK_LOGIN' } });
    offsetMs += 30 * 24 * 3600_000;
    const expired = await login(site, m.email, undefined, { clientMetaData: { deviceToken } });
    expect(expired.json()).toMatchObject({ state: 'REQUIRE_MFA', requireMfaData: { reason: 'USER_SETTINGS' } });
  });
});

describe('security calls', () => {
  it('are the signed-in member\'s own: visitors, API keys and no token are refused', async () => {
    const site = await t.createSite();
    const m = await member(site);
    expect((await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).statusCode).toBe(200);
    const others: Record<string, Record<string, string>> = {
      visitor: { authorization: await t.visitorToken(site) },
      'API key': { authorization: site.apiKey, 'wix-site-id': site.siteId },
      'no token': {},
    };
    for (const [who, headers] of Object.entries(others)) {
      for (const [method, url] of [['GET', SECURITY], ['POST', `${SECURITY}/totp`], ['POST', `${SECURITY}/recovery-codes`], ['POST', `${SECURITY}/sign-out-everywhere`]] as const) {
        const res = await t.app.inject({ method, url, headers, ...(method === 'POST' && { payload: {} }) });
        expect([401, 403], `${who} ${method} ${url}`).toContain(res.statusCode);
      }
    }
  });

  it('sign out everywhere ends every sign-in of the member', async () => {
    const site = await t.createSite();
    const m = await member(site);
    const res = await post(`${SECURITY}/sign-out-everywhere`, {}, m.access);
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: SECURITY, headers: { authorization: m.access } })).statusCode).toBe(401);
  });
});

describe('the owner\'s rule for staff', () => {
  it('makes owners and contributors sign in with a second factor (e-mail codes until they set one up); members are left alone', async () => {
    const ownerEmail = newEmail('owner');
    const site = await t.createSite({ ownerEmail, ownerPassword: 'a-good-password' });
    const m = await member(site);
    expect((await login(site, ownerEmail)).json().state).toBe('SUCCESS');
    const set = await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId },
      payload: { settings: { staffSecondFactorRequired: true } },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().settings.staffSecondFactorRequired).toBe(true);

    const asked = (await login(site, ownerEmail)).json();
    expect(asked).toMatchObject({
      state: 'REQUIRE_MFA',
      requireMfaData: { availableFactors: [{ factorType: 'EMAIL', factorStatus: 'ENABLED_BY_RULE' }, { factorType: 'TOTP', factorStatus: 'REQUIRE_ACTIVATION' }] },
    });
    const notYet = await post(`${AUTH}/v2/TOTP/verify`, { stateToken: asked.stateToken, totpData: { code: '123456' } }, await t.visitorToken(site));
    expect(applicationCode(notYet)).toBe('FACTOR_NOT_ENABLED');
    const challenge = await post(`${AUTH}/v2/EMAIL/verify`, { stateToken: asked.stateToken, emailData: {} }, await t.visitorToken(site));
    expect(challenge.json().state).toBe('MFA_CHALLENGE');
    const done = await post(`${AUTH}/v2/EMAIL/verify`, { stateToken: asked.stateToken, emailData: { code: await codeFromOutbox(site, ownerEmail) } }, await t.visitorToken(site));
    expect(done.json().state).toBe('SUCCESS');
    expect((await login(site, m.email)).json().state, 'a member is not staff').toBe('SUCCESS');
  });
});
