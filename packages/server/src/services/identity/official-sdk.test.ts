/**
 * The sign-in flows through the official `@wix/sdk` OAuthStrategy and `@wix/identity`, against a
 * listening server: register, login, verification with the code from a captured SMTP message,
 * recovery with the e-mailed token, the authorize step, member tokens, logout, and every failure
 * code the SDK maps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { authentication, recovery } from '@wix/identity';
import { redirectWixApis, sdkMemberTokens, signInApp, SmtpCapture, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
let smtp: SmtpCapture;
let restoreFetch: () => void;
let counter = 0;

beforeAll(async () => {
  smtp = new SmtpCapture();
  const smtpUrl = await smtp.start();
  t = await signInApp({ now, smtpUrl, captchaProvider: 'test', listen: true });
  restoreFetch = redirectWixApis(t.url);
});
afterAll(async () => {
  restoreFetch();
  await t.close();
  await smtp.stop();
});

const PASSWORD = 'a-good-password';
const newEmail = (tag = 'sdk') => `${tag}.${++counter}.${Date.now()}@example.com`;

function sdkClient(site: TestSite) {
  return createClient({ auth: OAuthStrategy({ clientId: site.clientId }), modules: { authentication, recovery } });
}
type Client = ReturnType<typeof sdkClient>;

interface StateLike {
  loginState: string;
  data?: { sessionToken?: string; stateToken?: string };
  errorCode?: string;
  error?: string;
}
const view = (state: object): StateLike => state as StateLike;

/** getAuthUrl (prompt none, the session token) → the server's redirect → getMemberTokens. */
async function memberTokensFor(client: Client, sessionToken: string) {
  return sdkMemberTokens(client.auth, t.url, sessionToken);
}

async function codeFromMail(email: string, after: number): Promise<string> {
  const mail = await smtp.waitFor(email, (m) => /\b\d{6}\b/.test(m.text), 10_000, after);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1] as string;
  expect(mail.html).toContain(code);
  return code;
}

describe('open sign-up through the official SDK', () => {
  it('registers, gets member tokens, is loggedIn, logs out, and the old refresh token is refused', async () => {
    const site = await t.createSite({ signupPolicy: 'open' });
    const client = sdkClient(site);
    const email = newEmail();
    const registered = view(await client.auth.register({ email, password: PASSWORD, profile: { nickname: 'Sdk' } }));
    expect(registered.loginState).toBe('SUCCESS');
    expect(client.auth.loggedIn()).toBe(false);
    const { tokens } = await memberTokensFor(client, registered.data?.sessionToken as string);
    client.auth.setTokens(tokens);
    expect(client.auth.loggedIn()).toBe(true);
    expect(tokens.refreshToken.role).toBe('member');
    const renewed = await client.auth.renewToken(tokens.refreshToken);
    expect(renewed.accessToken.value).not.toBe('');

    const { logoutUrl } = await client.auth.logout(`${t.url}/bye`);
    expect(client.auth.loggedIn()).toBe(false);
    await expect(client.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/Failed to fetch tokens/);
    const visit = await fetch(logoutUrl, { redirect: 'manual' });
    expect([visit.status, visit.headers.get('location')]).toEqual([302, `${t.url}/bye`]);

    const again = view(await client.auth.login({ email, password: PASSWORD }));
    expect(again.loginState).toBe('SUCCESS');
  });

  it('changes the password through @wix/identity, ending the earlier sign-in', async () => {
    const site = await t.createSite();
    const client = sdkClient(site);
    const email = newEmail();
    const registered = view(await client.auth.register({ email, password: PASSWORD }));
    const { tokens } = await memberTokensFor(client, registered.data?.sessionToken as string);
    client.auth.setTokens(tokens);
    await client.authentication.changePassword('a-newer-password');
    await expect(client.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/Failed to fetch tokens/);
    expect(view(await sdkClient(site).auth.login({ email, password: 'a-newer-password' })).loginState).toBe('SUCCESS');
  });

  it('refuses a PKCE mismatch and a reused code', async () => {
    const site = await t.createSite();
    const client = sdkClient(site);
    const registered = view(await client.auth.register({ email: newEmail(), password: PASSWORD }));
    const sessionToken = registered.data?.sessionToken as string;

    const oauthData = client.auth.generateOAuthData(`${t.url}/callback`);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { prompt: 'none' as const, responseMode: 'query' as const, sessionToken } as { prompt: 'none' });
    const { code, state } = client.auth.parseFromUrl((await fetch(authUrl, { redirect: 'manual' })).headers.get('location') ?? '', 'query');
    const otherVerifier = client.auth.generateOAuthData(`${t.url}/callback`).codeVerifier;
    await expect(client.auth.getMemberTokens(code, state, { ...oauthData, codeVerifier: otherVerifier })).rejects.toThrow(/Failed to fetch tokens.*does not match/);

    const fresh = await memberTokensFor(client, sessionToken);
    expect(fresh.tokens.refreshToken.role).toBe('member');
    await expect(client.auth.getMemberTokens(fresh.code, fresh.state, fresh.oauthData)).rejects.toThrow(/already used/);
  });

  it('answers prompt=none without a session with error=login_required', async () => {
    const site = await t.createSite();
    const client = sdkClient(site);
    const oauthData = client.auth.generateOAuthData(`${t.url}/callback`);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'query' });
    const parsed = client.auth.parseFromUrl((await fetch(authUrl, { redirect: 'manual' })).headers.get('location') ?? '', 'query');
    expect(parsed.error).toBe('login_required');
  });

  it('signs members in for a backend: getMemberTokensForExternalLogin and …WithSession', async () => {
    const site = await t.createSite();
    const email = newEmail('external');
    const withSession = sdkClient(site);
    const tokens = await withSession.auth.getMemberTokensForExternalLoginWithSession(email, site.apiKey);
    expect(tokens.refreshToken.role).toBe('member');
    const caller = await t.app.services.oauth.callerResolver().fromAccessToken(tokens.accessToken.value);
    expect(caller.kind).toBe('MEMBER');
    const byId = sdkClient(site);
    byId.auth.setTokens(await byId.auth.generateVisitorTokens());
    const again = await byId.auth.getMemberTokensForExternalLogin(caller.subjectId, site.apiKey);
    expect((await t.app.services.oauth.callerResolver().fromAccessToken(again.accessToken.value)).subjectId).toBe(caller.subjectId);
  });
});

describe('e-mail verification through the official SDK', () => {
  it('registers, reads the code from the SMTP message and processVerification signs in', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const client = sdkClient(site);
    const email = newEmail('verify');
    const before = smtp.count();
    const registered = view(await client.auth.register({ email, password: PASSWORD }));
    expect(registered.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    const code = await codeFromMail(email, before);
    const verified = view(await client.auth.processVerification({ verificationCode: code }));
    expect(verified.loginState).toBe('SUCCESS');
    const { tokens } = await memberTokensFor(client, verified.data?.sessionToken as string);
    client.auth.setTokens(tokens);
    expect(client.auth.loggedIn()).toBe(true);
    const [mail] = await t.app.services.mail.listForSite(site.siteId);
    expect(mail).toMatchObject({ to: email, status: 'SENT', kind: 'identity.verification-code' });
  });

  it('asks again at login until verified, with a fresh code', async () => {
    const site = await t.createSite({ signupPolicy: 'email-verification' });
    const email = newEmail('later');
    const first = smtp.count();
    await sdkClient(site).auth.register({ email, password: PASSWORD });
    await codeFromMail(email, first);
    const client = sdkClient(site);
    const before = smtp.count();
    expect(view(await client.auth.login({ email, password: PASSWORD })).loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    const code = await codeFromMail(email, before);
    expect(view(await client.auth.processVerification({ verificationCode: code })).loginState).toBe('SUCCESS');
  });
});

describe('owner approval through the official SDK', () => {
  it('waits for the owner at register and login, then signs the approved member in', async () => {
    const site = await t.createSite({ signupPolicy: 'owner-approval' });
    const email = newEmail('approve');
    const client = sdkClient(site);
    expect(view(await client.auth.register({ email, password: PASSWORD })).loginState).toBe('OWNER_APPROVAL_REQUIRED');
    expect(view(await client.auth.login({ email, password: PASSWORD })).loginState).toBe('OWNER_APPROVAL_REQUIRED');
    const [row] = await t.db.query<{ member_id: string }>('SELECT member_id FROM members WHERE site_id = $1 AND login_email = $2', [site.siteId, email]);
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), row.member_id, 'APPROVED');
    const approved = view(await client.auth.login({ email, password: PASSWORD }));
    expect(approved.loginState).toBe('SUCCESS');
    const { tokens } = await memberTokensFor(client, approved.data?.sessionToken as string);
    expect(tokens.refreshToken.role).toBe('member');
  });
});

describe('recovery through the official SDK', () => {
  it('e-mails a link whose token resets the password and ends earlier sign-ins', async () => {
    const site = await t.createSite();
    const client = sdkClient(site);
    const email = newEmail('recover');
    const registered = view(await client.auth.register({ email, password: PASSWORD }));
    const { tokens } = await memberTokensFor(client, registered.data?.sessionToken as string);
    const before = smtp.count();
    await client.auth.sendPasswordResetEmail(email, `${t.url}/after-reset`);
    await sdkClient(site).auth.sendPasswordResetEmail(newEmail('nobody'), `${t.url}/after-reset`);
    const mail = await smtp.waitFor(email, (m) => m.text.includes('recoveryToken='), 10_000, before);
    const link = new URL(/(http\S+recoveryToken=\S+)/.exec(mail.text)?.[1] as string);
    expect(mail.html).toContain(link.searchParams.get('recoveryToken'));
    expect(link.searchParams.get('redirectUrl')).toBe(`${t.url}/after-reset`);
    const reset = sdkClient(site);
    const result = await reset.recovery.recover(link.searchParams.get('recoveryToken') as string, { password: 'a-recovered-password' });
    expect(result.identity?._id).toEqual(expect.any(String));
    await expect(client.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/Failed to fetch tokens/);
    expect(view(await sdkClient(site).auth.login({ email, password: 'a-recovered-password' })).loginState).toBe('SUCCESS');
    expect(smtp.messages.slice(before).filter((m) => m.to.some((to) => to.startsWith('nobody')))).toEqual([]);
  });
});

describe('failure codes through the official SDK', () => {
  it('maps register failures: emailAlreadyExists and invalidEmail', async () => {
    const site = await t.createSite();
    const email = newEmail('dup');
    expect(view(await sdkClient(site).auth.register({ email, password: PASSWORD })).loginState).toBe('SUCCESS');
    const dup = view(await sdkClient(site).auth.register({ email: email.toUpperCase(), password: PASSWORD }));
    expect([dup.loginState, dup.errorCode]).toEqual(['FAILURE', 'emailAlreadyExists']);
    const bad = view(await sdkClient(site).auth.register({ email: 'not-an-email', password: PASSWORD }));
    expect([bad.loginState, bad.errorCode, bad.error]).toEqual(['FAILURE', 'invalidEmail', 'must be a valid e-mail address']);
  });

  it('maps login failures: invalidPassword and resetPassword', async () => {
    const site = await t.createSite();
    const email = newEmail('login');
    await sdkClient(site).auth.register({ email, password: PASSWORD });
    const wrong = view(await sdkClient(site).auth.login({ email, password: 'not-the-password' }));
    expect([wrong.loginState, wrong.errorCode]).toEqual(['FAILURE', 'invalidPassword']);
    const malformed = view(await sdkClient(site).auth.login({ email: 'nope', password: 'x' }));
    expect([malformed.loginState, malformed.errorCode]).toEqual(['FAILURE', 'invalidEmail']);
    const external = newEmail('no-password');
    await sdkClient(site).auth.getMemberTokensForExternalLoginWithSession(external, site.apiKey);
    const reset = view(await sdkClient(site).auth.login({ email: external, password: PASSWORD }));
    expect([reset.loginState, reset.errorCode]).toEqual(['FAILURE', 'resetPassword']);
  });

  it('maps captcha failures: missingCaptchaToken and invalidCaptchaToken', async () => {
    const site = await t.createSite();
    await t.app.services.sites.updateSettings(t.app.services.sites.contextFor(site.siteId), { captchaRequired: true });
    const email = newEmail('captcha');
    const missing = view(await sdkClient(site).auth.register({ email, password: PASSWORD }));
    expect(missing.errorCode).toBe('missingCaptchaToken');
    const invalid = view(await sdkClient(site).auth.register({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'robot' } }));
    expect(invalid.errorCode).toBe('invalidCaptchaToken');
    expect(view(await sdkClient(site).auth.register({ email, password: PASSWORD, captchaTokens: { invisibleRecaptchaToken: 'pass' } })).loginState).toBe('SUCCESS');
    expect(view(await sdkClient(site).auth.login({ email, password: PASSWORD })).errorCode).toBe('missingCaptchaToken');
    expect(view(await sdkClient(site).auth.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'robot' } })).errorCode).toBe('invalidCaptchaToken');
    expect(view(await sdkClient(site).auth.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'pass' } })).loginState).toBe('SUCCESS');
  });

  it('locks an e-mail out after 5 wrong passwords, until the 15-minute window passes', async () => {
    const site = await t.createSite();
    const email = newEmail('locked');
    await sdkClient(site).auth.register({ email, password: PASSWORD });
    const client = sdkClient(site);
    for (let i = 0; i < 5; i++) expect(view(await client.auth.login({ email, password: 'wrong-password' })).errorCode).toBe('invalidPassword');
    const locked = view(await client.auth.login({ email, password: PASSWORD }));
    expect(locked.loginState).toBe('FAILURE');
    expect(locked.error).toContain('Too many failed logins');
    offsetMs += 15 * 60_000 + 1000;
    try {
      expect(view(await client.auth.login({ email, password: PASSWORD })).loginState).toBe('SUCCESS');
    } finally {
      offsetMs -= 15 * 60_000 + 1000;
    }
  });
});
