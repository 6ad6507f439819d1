/**
 * Sign-in through @bodega/sdk against a real server: register and login in each server state
 * (per site sign-up policy), every register/login error code, e-mail verification with the code
 * from the captured mail, the redirect sign-in with prompt=none, logout, recovery with the mailed
 * token, and the `authentication`, `verification` and `recovery` modules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authentication, createClient, currentCart, members, OAuthStrategy, products, recovery, verification, type StateMachine,
} from '@bodega/sdk';
import {
  adminClient, memberTokensFor, PASSWORD, rejection, sessionTokenOf, signUp, startIdentityServer, uniqueEmail, visitorClient,
  type IdentityServer, type TestSite,
} from './support.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const modules = { authentication, recovery, verification, members, currentCart };

let server: IdentityServer;
beforeAll(async () => {
  server = await startIdentityServer();
});
afterAll(() => server.close());

const storefront = (site: TestSite) => visitorClient(server.origin, site, modules);
const admin = (site: TestSite) => adminClient(server.origin, site, { members, authentication, recovery, verification, products });

async function codeFromMail(email: string, after: number): Promise<string> {
  const mail = await server.smtp.waitFor(email, (m) => /\b\d{6}\b/.test(m.text), 10_000, after);
  return /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
}

function failure(state: StateMachine): { errorCode?: string; error: string } {
  expect(state.loginState).toBe('FAILURE');
  return state.loginState === 'FAILURE' ? { errorCode: state.errorCode, error: state.error } : { error: '' };
}

async function memberIdOf(site: TestSite, email: string): Promise<string> {
  const { members: found } = await admin(site).members.queryMembers({ filter: { loginEmail: email } }, { fieldsets: ['FULL'] });
  expect(found).toHaveLength(1);
  return found[0]._id ?? '';
}

describe('register and login per sign-up policy', () => {
  it('open: SUCCESS with a session token at register and at login', async () => {
    const site = await server.createSite({ signupPolicy: 'open' });
    const email = uniqueEmail('open');
    const c = storefront(site);
    expect(sessionTokenOf(await c.auth.register({ email, password: PASSWORD }))).not.toBe('');
    expect(c.auth.loggedIn()).toBe(false);
    expect(sessionTokenOf(await storefront(site).auth.login({ email, password: PASSWORD }))).not.toBe('');
    // Verification belongs to EMAIL_VERIFICATION_REQUIRED only.
    expect(await c.auth.processVerification({ verificationCode: '123456' })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
  });

  it('email-verification: EMAIL_VERIFICATION_REQUIRED, the mailed code signs in; login asks again with a fresh code', async () => {
    const site = await server.createSite({ signupPolicy: 'email-verification' });
    const email = uniqueEmail('verify');
    const c = storefront(site);
    let before = server.smtp.count();
    const registered = await c.auth.register({ email, password: PASSWORD });
    expect(registered.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    expect(registered.loginState === 'EMAIL_VERIFICATION_REQUIRED' && registered.data.stateToken).toEqual(expect.any(String));
    await codeFromMail(email, before);
    const wrong = failure(await c.auth.processVerification({ verificationCode: '000000' }));
    expect(wrong.errorCode).toBeUndefined();
    expect(wrong.error).not.toBe('');

    // A failed attempt leaves the flow in FAILURE: start again with login, as an app does.
    before = server.smtp.count();
    expect((await c.auth.login({ email, password: PASSWORD })).loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    const code = await codeFromMail(email, before);
    const verified = await c.auth.processVerification({ verificationCode: code });
    const tokens = await memberTokensFor(c.auth, server.origin, sessionTokenOf(verified));
    expect(tokens.refreshToken.role).toBe('member');
    expect(c.auth.loggedIn()).toBe(true);
    expect((await c.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(email);
    // Verified now: login succeeds directly.
    expect((await storefront(site).auth.login({ email, password: PASSWORD })).loginState).toBe('SUCCESS');
  });

  it('owner-approval: OWNER_APPROVAL_REQUIRED until an API key approves the member', async () => {
    const site = await server.createSite({ signupPolicy: 'owner-approval' });
    const email = uniqueEmail('approve');
    expect(await storefront(site).auth.register({ email, password: PASSWORD })).toEqual({ loginState: 'OWNER_APPROVAL_REQUIRED' });
    expect(await storefront(site).auth.login({ email, password: PASSWORD })).toEqual({ loginState: 'OWNER_APPROVAL_REQUIRED' });
    const memberId = await memberIdOf(site, email);
    const approved = await admin(site).members.approveMember(memberId);
    expect(approved.member?.status).toBe('APPROVED');
    const c = storefront(site);
    await memberTokensFor(c.auth, server.origin, sessionTokenOf(await c.auth.login({ email, password: PASSWORD })));
    expect(c.auth.loggedIn()).toBe(true);
  });
});

describe('register and login failures', () => {
  it('register: -19995 emailAlreadyExists, the EMAIL violation as invalidEmail', async () => {
    const site = await server.createSite();
    const email = uniqueEmail('dup');
    await storefront(site).auth.register({ email, password: PASSWORD });
    const dup = failure(await storefront(site).auth.register({ email: email.toUpperCase(), password: PASSWORD }));
    expect(dup.errorCode).toBe('emailAlreadyExists');
    expect(dup.error).toMatch(/already/i);
    expect(failure(await storefront(site).auth.register({ email: 'not-an-email', password: PASSWORD }))).toEqual({
      errorCode: 'invalidEmail',
      error: 'must be a valid e-mail address',
    });
    // Anything else: a failure carrying only the message.
    const short = failure(await storefront(site).auth.register({ email: uniqueEmail('short'), password: 'x' }));
    expect(short.errorCode).toBeUndefined();
    expect(short.error).toMatch(/^INVALID_ARGUMENT: "password" /);
  });

  it('login: -19976 invalidPassword, -19973 resetPassword, anything else invalidEmail', async () => {
    const site = await server.createSite();
    const email = uniqueEmail('login');
    await storefront(site).auth.register({ email, password: PASSWORD });
    expect(failure(await storefront(site).auth.login({ email, password: 'not-the-password' })).errorCode).toBe('invalidPassword');
    expect(failure(await storefront(site).auth.login({ email: uniqueEmail('nobody'), password: PASSWORD })).errorCode).toBe('invalidPassword');
    expect(failure(await storefront(site).auth.login({ email: 'nope', password: 'x' })).errorCode).toBe('invalidEmail');

    // A member made by the back office through sign-on has no password yet.
    const external = uniqueEmail('no-password');
    const signedOn = await admin(site).authentication.signOn({ email: external });
    expect(signedOn.sessionToken).toEqual(expect.any(String));
    expect(signedOn.identity?._id).toEqual(expect.any(String));
    expect(failure(await storefront(site).auth.login({ email: external, password: PASSWORD })).errorCode).toBe('resetPassword');
  });

  it('captcha: -19971 missingCaptchaToken and -19970 invalidCaptchaToken at register and login', async () => {
    const site = await server.createSite();
    await server.app.services.sites.updateSettings(server.app.services.sites.contextFor(site.siteId), { captchaRequired: true });
    const email = uniqueEmail('captcha');
    const c = storefront(site);
    expect(failure(await c.auth.register({ email, password: PASSWORD })).errorCode).toBe('missingCaptchaToken');
    expect(failure(await c.auth.register({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'robot' } })).errorCode)
      .toBe('invalidCaptchaToken');
    expect((await c.auth.register({ email, password: PASSWORD, captchaTokens: { invisibleRecaptchaToken: 'pass' } })).loginState)
      .toBe('SUCCESS');
    expect(failure(await c.auth.login({ email, password: PASSWORD })).errorCode).toBe('missingCaptchaToken');
    expect(failure(await c.auth.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'robot' } })).errorCode)
      .toBe('invalidCaptchaToken');
    expect((await c.auth.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: 'pass' } })).loginState).toBe('SUCCESS');
  });
});

describe('redirect sign-in', () => {
  it('getAuthUrl → authorize (prompt=none) → getMemberTokens; loggedIn; logout revokes the refresh token', async () => {
    const site = await server.createSite();
    const c = storefront(site);
    const { email, tokens } = await signUp(c.auth, server.origin);
    expect(c.auth.getTokens()).toEqual(tokens);
    const me = await c.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(me.member?.loginEmail).toBe(email);
    expect(me.member?._createdDate).toBeInstanceOf(Date);

    // Without a session, prompt=none answers login_required to the redirect URI.
    const anonymous = storefront(site);
    const oauthData = await anonymous.auth.generateOAuthData(`${server.origin}/callback`);
    const { authUrl, authorizationEndpoint } = await anonymous.auth.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'fragment' });
    expect(authUrl.startsWith(server.origin)).toBe(true);
    expect(authorizationEndpoint).toEqual(expect.any(String));
    const answer = await fetch(authUrl, { redirect: 'manual' });
    const parsed = anonymous.auth.parseFromUrl(answer.headers.get('location') ?? '');
    expect([parsed.error, parsed.state]).toEqual(['login_required', oauthData.state]);
    await expect(anonymous.auth.getMemberTokens(parsed.code, parsed.state, oauthData)).rejects.toThrow('Missing code or _state');

    const { logoutUrl } = await c.auth.logout(`${server.origin}/bye`);
    expect(c.auth.getTokens().refreshToken.role).toBe('none');
    await expect(c.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/^Failed to fetch tokens from OAuth API/);
    const visit = await fetch(logoutUrl, { redirect: 'manual' });
    expect([visit.status, visit.headers.get('location')]).toEqual([302, `${server.origin}/bye`]);
  });

  it('refuses a wrong state (client side) and a wrong verifier (server side)', async () => {
    const site = await server.createSite();
    const c = storefront(site);
    const sessionToken = sessionTokenOf(await c.auth.register({ email: uniqueEmail('pkce'), password: PASSWORD }));
    const oauthData = await c.auth.generateOAuthData(`${server.origin}/callback`);
    const { authUrl } = await c.auth.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'query', sessionToken });
    const { code, state } = c.auth.parseFromUrl((await fetch(authUrl, { redirect: 'manual' })).headers.get('location') ?? '', 'query');
    await expect(c.auth.getMemberTokens(code, 'other-state', oauthData)).rejects.toThrow('Invalid _state');
    const other = await c.auth.generateOAuthData(`${server.origin}/callback`);
    await expect(c.auth.getMemberTokens(code, state, { ...oauthData, codeVerifier: other.codeVerifier })).rejects.toThrow(
      /^Failed to fetch tokens from OAuth API: Bad Request\. request id: [0-9a-f-]{36}\. Response: /,
    );
  });

  it('the visitor cart follows the visitor into the member account', async () => {
    const site = await server.createSite();
    const { product } = await admin(site).products.createProduct({
      name: 'Merge tee', productType: 'physical', priceData: { price: 12 }, visible: true,
    });
    const c = storefront(site);
    const added = await c.currentCart.addToCurrentCart({
      lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product?._id ?? '' }, quantity: 2 }],
    });
    expect(added.cart?.lineItems).toHaveLength(1);
    await signUp(c.auth, server.origin);
    const cart = await c.currentCart.getCurrentCart();
    expect(cart.lineItems?.map((line) => [line.catalogReference?.catalogItemId, line.quantity])).toEqual([[product?._id, 2]]);
    expect(cart.buyerInfo?.memberId).toEqual(expect.any(String));
  });
});

describe('recovery', () => {
  it('sendPasswordResetEmail → the mailed token → recovery.recover sets the password and ends sign-ins', async () => {
    const site = await server.createSite();
    const c = storefront(site);
    const { email, tokens } = await signUp(c.auth, server.origin);
    const before = server.smtp.count();
    await c.auth.sendPasswordResetEmail(email, `${server.origin}/after-reset`);
    const mail = await server.smtp.waitFor(email, (m) => m.text.includes('recoveryToken='), 10_000, before);
    const link = new URL(/(http\S+recoveryToken=\S+)/.exec(mail.text)?.[1] ?? '');
    expect(link.searchParams.get('redirectUrl')).toBe(`${server.origin}/after-reset`);
    const recovered = await storefront(site).recovery.recover(link.searchParams.get('recoveryToken') ?? '', { password: 'a-recovered-password' });
    expect(recovered.identity?._id).toEqual(expect.any(String));
    await expect(c.auth.renewToken(tokens.refreshToken)).rejects.toThrow(/^Failed to fetch tokens/);
    expect((await storefront(site).auth.login({ email, password: 'a-recovered-password' })).loginState).toBe('SUCCESS');

    // The token works once.
    const again = await rejection(storefront(site).recovery.recover(link.searchParams.get('recoveryToken') ?? '', { password: 'another-password' }));
    expect(again.status).toBe(400);
    expect(again.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('recovery.sendRecoveryEmail and the back office activation e-mail', async () => {
    const site = await server.createSite();
    const email = uniqueEmail('module');
    const registered = await storefront(site).authentication.registerV2({ email }, { password: PASSWORD });
    expect(registered.state).toBe('SUCCESS');
    expect(registered.identity?._createdDate).toBeInstanceOf(Date);
    let before = server.smtp.count();
    await storefront(site).recovery.sendRecoveryEmail(email, { redirect: { url: `${server.origin}/done`, clientId: site.clientId } });
    await server.smtp.waitFor(email, (m) => m.text.includes('recoveryToken='), 10_000, before);

    const external = uniqueEmail('activate');
    const { identity } = await admin(site).authentication.signOn({ email: external });
    before = server.smtp.count();
    await admin(site).recovery.sendActivationEmail(identity?._id ?? '');
    await server.smtp.waitFor(external, () => true, 10_000, before);
    const refused = await rejection(storefront(site).recovery.sendActivationEmail(identity?._id ?? ''));
    expect(refused.status).toBe(403);
  });
});

describe('authentication and verification modules', () => {
  it('loginV2, verifyDuringAuthentication, resendDuringAuthentication, changePassword and logout', async () => {
    const site = await server.createSite({ signupPolicy: 'email-verification' });
    const email = uniqueEmail('direct');
    const c = storefront(site);
    let before = server.smtp.count();
    const registered = await c.authentication.registerV2({ email }, { password: PASSWORD, profile: { nickname: 'Direct' } });
    expect(registered.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    await codeFromMail(email, before);
    before = server.smtp.count();
    const resent = await c.verification.resendDuringAuthentication(registered.stateToken ?? '');
    const code = await codeFromMail(email, before);
    const verified = await c.verification.verifyDuringAuthentication(code, { stateToken: resent.stateToken ?? registered.stateToken ?? '' });
    expect(verified.state).toBe('SUCCESS');
    await memberTokensFor(c.auth, server.origin, verified.sessionToken ?? '');

    const started = await c.verification.start({ identityId: verified.identity?._id ?? '', target: 'EMAIL' });
    expect(started.verificationId).toEqual(expect.any(String));

    await c.authentication.changePassword('a-changed-password');
    const loggedIn = await storefront(site).authentication.loginV2({ email }, { password: 'a-changed-password' });
    expect(loggedIn.state).toBe('SUCCESS');
    const wrong = await rejection(storefront(site).authentication.loginV2({ email }, { password: PASSWORD }));
    expect([wrong.status, wrong.details.applicationError?.code]).toEqual([400, '-19976']);

    const out = await c.authentication.logout({ postLogoutRedirectUri: `${server.origin}/bye`, clientId: site.clientId });
    expect(out).toEqual({ postLogoutRedirectUri: `${server.origin}/bye` });
  });

  it('maps validation errors of module calls to argument names', async () => {
    const site = await server.createSite();
    const error = await rejection(storefront(site).authentication.registerV2({ email: 'not-an-email' }, { password: PASSWORD }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^INVALID_ARGUMENT: "loginId\.email" /);
    expect(error.details.validationError?.fieldViolations[0]).toMatchObject({ field: 'loginId.email', data: { type: 'EMAIL' } });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a second OAuthStrategy on the same site', () => {
  it('signs in independently (tokens are per client)', async () => {
    const site = await server.createSite();
    const one = createClient({ baseUrl: server.origin, auth: OAuthStrategy({ clientId: site.clientId }), modules: { members } });
    const two = createClient({ baseUrl: server.origin, auth: OAuthStrategy({ clientId: site.clientId }), modules: { members } });
    await signUp(one.auth, server.origin);
    expect(one.auth.loggedIn()).toBe(true);
    expect(two.auth.loggedIn()).toBe(false);
  });
});
