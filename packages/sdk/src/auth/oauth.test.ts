import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { currentCart } from '../modules/current-cart.js';
import { routes, startReceiver, type Receiver, type Recorded, type Reply } from '../test-support/receiver.js';
import type { Tokens } from '../types.js';
import { ApiKeyStrategy } from './api-key.js';
import { OAuthStrategy, type OAuthStrategyOptions } from './oauth.js';
import { codeChallengeS256 } from './pkce.js';
import type { FrameHost } from './silent-frame.js';
import { memoryTokenStorage } from './storage.js';

const TOKEN = '/_api/oauth2/token';
const CART = '/_api/ecom-cart/v1/carts/current';
const REDIRECT = '/headless/v1/redirect-session';
const REGISTER = '/_api/iam/authentication/v2/register';
const LOGIN = '/_api/iam/authentication/v2/login';
const VERIFY = '/_api/iam/verification/v1/auth/verify';

let receiver: Receiver;
let clock: number;
let tokenCalls: number;
beforeEach(async () => {
  receiver = await startReceiver();
  clock = 1_700_000_000_000;
  tokenCalls = 0;
});
afterEach(() => receiver.close());

/** Answers token grants with numbered tokens (`A1`, `R1`, …) valid for 3600 s. */
function tokenEndpoint(request: Recorded): Reply {
  tokenCalls += 1;
  const body = request.body as Record<string, string>;
  if (body.grantType === 'refresh_token' && body.refreshToken === 'REVOKED') {
    return { status: 400, body: { message: 'revoked' } };
  }
  return { body: { access_token: `A${tokenCalls}`, refresh_token: `R${tokenCalls}`, expires_in: 3600, token_type: 'Bearer' } };
}

function setup(options: Partial<OAuthStrategyOptions> = {}, extra: Record<string, Reply | ((r: Recorded) => Reply)> = {}) {
  receiver.reply(routes({ [`POST ${TOKEN}`]: tokenEndpoint, [`GET ${CART}`]: { body: { cart: {} } }, ...extra }));
  const auth = OAuthStrategy({ clientId: 'CLIENT', now: () => clock, ...options });
  const client = createClient({ modules: { currentCart }, auth, baseUrl: receiver.url });
  return { auth, client };
}

const requestsTo = (path: string): Recorded[] => receiver.requests.filter((r) => r.path === path);

describe('token roles and renewal', () => {
  it('starts as none and becomes a visitor through an anonymous grant on the first call', async () => {
    const { auth, client } = setup();
    expect(auth.getTokens().refreshToken.role).toBe('none');
    await client.currentCart.getCurrentCart();
    const [grant] = requestsTo(TOKEN);
    expect(grant.body).toEqual({ clientId: 'CLIENT', grantType: 'anonymous' });
    expect(grant.headers['content-type']).toBe('application/json');
    expect(requestsTo(CART)[0].headers.authorization).toBe('A1');
    expect(auth.getTokens()).toEqual({
      accessToken: { value: 'A1', expiresAt: 1_700_000_000 + 3600 },
      refreshToken: { value: 'R1', role: 'visitor' },
    });
    expect(auth.loggedIn()).toBe(false);
  });

  it('reuses the access token until it expires, then renews it from the refresh token and keeps that token', async () => {
    const { auth, client } = setup();
    await client.currentCart.getCurrentCart();
    clock += 3599_000;
    await client.currentCart.getCurrentCart();
    expect(tokenCalls).toBe(1);
    clock += 1_000;
    await client.currentCart.getCurrentCart();
    expect(tokenCalls).toBe(2);
    expect(requestsTo(TOKEN)[1].body).toEqual({ clientId: 'CLIENT', refreshToken: 'R1', grantType: 'refresh_token' });
    expect(auth.getTokens()).toEqual({
      accessToken: { value: 'A2', expiresAt: Math.floor(clock / 1000) + 3600 },
      refreshToken: { value: 'R1', role: 'visitor' },
    });
    expect(requestsTo(CART)[2].headers.authorization).toBe('A2');
  });

  it('renews an empty access token from the refresh token, keeping the member role', async () => {
    const { auth, client } = setup({
      tokens: { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: 'RM', role: 'member' } },
    });
    await client.currentCart.getCurrentCart();
    expect(requestsTo(TOKEN)[0].body).toMatchObject({ grantType: 'refresh_token', refreshToken: 'RM' });
    expect(auth.getTokens().refreshToken).toEqual({ value: 'RM', role: 'member' });
    expect(auth.loggedIn()).toBe(true);
  });

  it('falls back to a new visitor token when the refresh fails', async () => {
    const { auth, client } = setup({
      tokens: { accessToken: { value: 'OLD', expiresAt: 0 }, refreshToken: { value: 'REVOKED', role: 'member' } },
    });
    await client.currentCart.getCurrentCart();
    expect(requestsTo(TOKEN).map((r) => (r.body as { grantType: string }).grantType)).toEqual([
      'refresh_token',
      'anonymous',
    ]);
    expect(auth.getTokens().refreshToken.role).toBe('visitor');
    expect(auth.loggedIn()).toBe(false);
  });

  it('shares one token call between concurrent requests', async () => {
    const { client } = setup();
    await Promise.all([1, 2, 3].map(() => client.currentCart.getCurrentCart()));
    expect(tokenCalls).toBe(1);
  });

  it('throws the OAuth error message on a non-200 token answer', async () => {
    const { client } = setup({}, {
      [`POST ${TOKEN}`]: { status: 400, statusText: 'Bad Request', headers: { 'x-wix-request-id': 'rid-1' }, body: { message: 'no' } },
    });
    await expect(client.currentCart.getCurrentCart()).rejects.toThrow(
      new Error('Failed to fetch tokens from OAuth API: Bad Request. request id: rid-1. Response: {"message":"no"}'),
    );
  });

  it('generateVisitorTokens returns valid given tokens, renews expired ones and otherwise grants anonymously', async () => {
    const { auth } = setup();
    const valid: Tokens = {
      accessToken: { value: 'V', expiresAt: Math.floor(clock / 1000) + 10 },
      refreshToken: { value: 'RV', role: 'visitor' },
    };
    expect(await auth.generateVisitorTokens(valid)).toEqual(valid);
    expect(tokenCalls).toBe(0);
    const renewed = await auth.generateVisitorTokens({ ...valid, accessToken: { value: 'V', expiresAt: 1 } });
    expect(renewed.refreshToken).toEqual({ value: 'RV', role: 'visitor' });
    expect(requestsTo(TOKEN)[0].body).toMatchObject({ grantType: 'refresh_token' });
    const fresh = await auth.generateVisitorTokens();
    expect(fresh.refreshToken.role).toBe('visitor');
    expect(requestsTo(TOKEN)[1].body).toEqual({ clientId: 'CLIENT', grantType: 'anonymous' });
    expect(auth.getTokens()).toEqual(fresh);
  });

  it('keeps tokens in the given storage', async () => {
    const storage = memoryTokenStorage();
    const { client } = setup({ tokenStorage: storage });
    await client.currentCart.getCurrentCart();
    expect(storage.getTokens().accessToken.value).toBe('A1');
  });

  it('refuses to call before it is connected to a client', async () => {
    const auth = OAuthStrategy({ clientId: 'C' });
    await expect(auth.getAuthHeaders()).rejects.toThrow(/not connected/);
  });
});

describe('PKCE sign-in', () => {
  it('generateOAuthData returns a 43-character verifier, its S256 challenge, a state and the URIs', async () => {
    const { auth } = setup();
    const data = await auth.generateOAuthData('https://shop/callback', 'https://shop/account');
    expect(data.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(data.codeChallenge).toBe(await codeChallengeS256(data.codeVerifier));
    expect(data.state).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(data.state).not.toBe(data.codeVerifier);
    expect(data).toMatchObject({ redirectUri: 'https://shop/callback', originalUri: 'https://shop/account' });
  });

  it('getAuthUrl creates a redirect session with the auth request', async () => {
    const { auth } = setup({}, {
      [`POST ${REDIRECT}`]: {
        body: {
          redirectSession: {
            id: 'rs-1',
            fullUrl: 'http://shop/signin?sessionId=rs-1',
            sessionToken: 'RS',
            urlDetails: { endpoint: 'http://shop/oauth/authorize', searchParams: {} },
          },
        },
      },
    });
    const data = await auth.generateOAuthData('https://shop/callback');
    const url = await auth.getAuthUrl(data);
    expect(url).toEqual({
      authUrl: 'http://shop/signin?sessionId=rs-1',
      authorizationEndpoint: 'http://shop/oauth/authorize',
      sessionToken: 'RS',
    });
    expect(requestsTo(REDIRECT)[0].body).toEqual({
      auth: {
        authRequest: {
          redirectUri: 'https://shop/callback',
          clientId: 'CLIENT',
          codeChallenge: data.codeChallenge,
          codeChallengeMethod: 'S256',
          responseMode: 'fragment',
          responseType: 'code',
          scope: 'offline_access',
          state: data.state,
        },
        prompt: 'login',
      },
    });
    expect(requestsTo(REDIRECT)[0].headers.authorization).toBe('A1');
    await auth.getAuthUrl(data, { prompt: 'none', responseMode: 'query' });
    expect(requestsTo(REDIRECT)[1].body).toMatchObject({ auth: { authRequest: { responseMode: 'query' }, prompt: 'none' } });
  });

  it('parseFromUrl reads code, state, error and error_description from the fragment or the query', () => {
    const { auth } = setup();
    expect(auth.parseFromUrl('https://shop/cb#code=C1&state=S1')).toEqual({
      code: 'C1', state: 'S1', error: undefined, errorDescription: undefined,
    });
    expect(auth.parseFromUrl('https://shop/cb?code=C2&state=S2', 'query')).toMatchObject({ code: 'C2', state: 'S2' });
    expect(auth.parseFromUrl('https://shop/cb?code=C3&state=S3')).toMatchObject({ code: 'C3', state: 'S3' });
    expect(auth.parseFromUrl('https://shop/cb?code=Q#code=F', 'fragment')).toMatchObject({ code: 'F' });
    expect(auth.parseFromUrl('https://shop/cb#error=access_denied&error_description=no%20way&state=S')).toEqual({
      code: undefined, state: 'S', error: 'access_denied', errorDescription: 'no way',
    });
  });

  it('getMemberTokens needs a code and the generated state', async () => {
    const { auth } = setup();
    const data = await auth.generateOAuthData('https://shop/callback');
    await expect(auth.getMemberTokens(undefined, data.state, data)).rejects.toThrow(new Error('Missing code or _state'));
    await expect(auth.getMemberTokens('C', undefined, data)).rejects.toThrow(new Error('Missing code or _state'));
    await expect(auth.getMemberTokens('C', 'other', data)).rejects.toThrow(new Error('Invalid _state'));
    expect(tokenCalls).toBe(0);
  });

  it('getMemberTokens exchanges the code with the verifier and makes the client a member', async () => {
    const { auth } = setup();
    const data = await auth.generateOAuthData('https://shop/callback');
    const tokens = await auth.getMemberTokens('CODE', data.state, data);
    expect(requestsTo(TOKEN)[0].body).toEqual({
      clientId: 'CLIENT',
      grantType: 'authorization_code',
      redirectUri: 'https://shop/callback',
      code: 'CODE',
      codeVerifier: data.codeVerifier,
    });
    expect(tokens.refreshToken).toEqual({ value: 'R1', role: 'member' });
    expect(auth.getTokens()).toEqual(tokens);
    expect(auth.loggedIn()).toBe(true);
  });

  it('logout creates the logout session and clears both tokens to role none', async () => {
    const { auth } = setup({
      tokens: { accessToken: { value: 'MA', expiresAt: 2_000_000_000 }, refreshToken: { value: 'MR', role: 'member' } },
    }, { [`POST ${REDIRECT}`]: { body: { redirectSession: { fullUrl: 'http://shop/logout?s=1' } } } });
    expect(await auth.logout('https://shop/bye')).toEqual({ logoutUrl: 'http://shop/logout?s=1' });
    expect(requestsTo(REDIRECT)[0].body).toEqual({ logout: { clientId: 'CLIENT' }, callbacks: { postFlowUrl: 'https://shop/bye' } });
    expect(requestsTo(REDIRECT)[0].headers.authorization).toBe('MA');
    expect(auth.getTokens()).toEqual({ accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } });
    expect(auth.loggedIn()).toBe(false);
  });

  it('sendPasswordResetEmail posts to the recovery service', async () => {
    const { auth } = setup({}, { 'POST /_iam/recovery/v1/send-email': { body: {} } });
    await auth.sendPasswordResetEmail('a@b.c', 'https://shop/reset');
    expect(requestsTo('/_iam/recovery/v1/send-email')[0].body).toEqual({
      email: 'a@b.c',
      redirect: { url: 'https://shop/reset', clientId: 'CLIENT' },
    });
  });
});

describe('register, login and verification', () => {
  const answer = (body: unknown, status = 200): Reply => ({ status, body });
  const appError = (code: string, message = 'failed'): Reply =>
    answer({ message, details: { applicationError: { code, description: message, data: {} } } }, 400);

  it('register sends loginId, password, profile and captcha tokens', async () => {
    const { auth } = setup({}, { [`POST ${REGISTER}`]: answer({ state: 'SUCCESS', sessionToken: 'SESSION' }) });
    const result = await auth.register({
      email: 'a@b.c',
      password: 'pw123456',
      profile: { nickname: 'nick' },
      captchaTokens: { recaptchaToken: 'RC', invisibleRecaptchaToken: 'IRC' },
    });
    expect(requestsTo(REGISTER)[0].body).toEqual({
      loginId: { email: 'a@b.c' },
      password: 'pw123456',
      profile: { nickname: 'nick' },
      captchaTokens: [{ Recaptcha: 'RC' }, { InvisibleRecaptcha: 'IRC' }],
    });
    expect(result).toEqual({ loginState: 'SUCCESS', data: { sessionToken: 'SESSION' } });
  });

  it.each([
    [{ state: 'SUCCESS', sessionToken: 'S' }, { loginState: 'SUCCESS', data: { sessionToken: 'S' } }],
    [{ state: 'REQUIRE_OWNER_APPROVAL' }, { loginState: 'OWNER_APPROVAL_REQUIRED' }],
    [{ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'ST' }, { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'ST' } }],
    [{ state: 'STATUS_CHECK' }, { loginState: 'FAILURE', error: 'Unknown _state' }],
    [{ state: 'REQUIRE_MFA' }, { loginState: 'FAILURE', error: 'Unknown _state' }],
  ])('maps server state %j to %j', async (server, expected) => {
    const { auth } = setup({}, { [`POST ${LOGIN}`]: answer(server) });
    expect(await auth.login({ email: 'a@b.c', password: 'pw' })).toEqual(expected);
    expect(requestsTo(LOGIN)[0].body).toEqual({ loginId: { email: 'a@b.c' }, password: 'pw' });
  });

  it.each([
    ['-19995', 'emailAlreadyExists'],
    ['-19971', 'missingCaptchaToken'],
    ['-19970', 'invalidCaptchaToken'],
  ])('register maps application code %s to %s', async (code, errorCode) => {
    const { auth } = setup({}, { [`POST ${REGISTER}`]: appError(code, 'Email already exists') });
    expect(await auth.register({ email: 'a@b.c', password: 'pw' })).toEqual({
      loginState: 'FAILURE',
      errorCode,
      error: 'Email already exists',
    });
  });

  it('register maps an EMAIL field violation to invalidEmail with its description', async () => {
    const { auth } = setup({}, {
      [`POST ${REGISTER}`]: answer({
        message: 'bad',
        details: { validationError: { fieldViolations: [{ field: 'loginId.email', description: 'not an email', data: { type: 'EMAIL' } }] } },
      }, 400),
    });
    expect(await auth.register({ email: 'x', password: 'pw' })).toEqual({
      loginState: 'FAILURE',
      errorCode: 'invalidEmail',
      error: 'not an email',
    });
  });

  it('register reports any other failure with only the message', async () => {
    const { auth } = setup({}, { [`POST ${REGISTER}`]: appError('-19999', 'Sign-up is closed') });
    expect(await auth.register({ email: 'a@b.c', password: 'pw' })).toEqual({ loginState: 'FAILURE', error: 'Sign-up is closed' });
    const other = setup({}, {
      [`POST ${REGISTER}`]: answer({ message: 'bad', details: { validationError: { fieldViolations: [{ field: 'password', description: 'too short' }] } } }, 400),
    });
    expect(await other.auth.register({ email: 'a@b.c', password: 'p' })).toEqual({
      loginState: 'FAILURE',
      error: 'INVALID_ARGUMENT: "password" too short',
    });
  });

  it.each([
    ['-19976', 'invalidPassword'],
    ['-19973', 'resetPassword'],
    ['-19971', 'missingCaptchaToken'],
    ['-19970', 'invalidCaptchaToken'],
    ['-19995', 'invalidEmail'],
    ['-19999', 'invalidEmail'],
  ])('login maps application code %s to %s', async (code, errorCode) => {
    const { auth } = setup({}, { [`POST ${LOGIN}`]: appError(code) });
    expect(await auth.login({ email: 'a@b.c', password: 'pw' })).toMatchObject({ loginState: 'FAILURE', errorCode });
  });

  it('login maps a validation error to invalidEmail instead of crashing', async () => {
    const { auth } = setup({}, {
      [`POST ${LOGIN}`]: answer({ message: 'bad', details: { validationError: { fieldViolations: [{ field: 'loginId', description: 'x' }] } } }, 400),
    });
    expect(await auth.login({ email: '', password: 'pw' })).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidEmail' });
  });

  it('processVerification fails with Unknown _state unless verification is required', async () => {
    const { auth } = setup({}, { [`POST ${LOGIN}`]: answer({ state: 'SUCCESS', sessionToken: 'S' }) });
    expect(await auth.processVerification({ verificationCode: '123456' })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
    await auth.login({ email: 'a@b.c', password: 'pw' });
    expect(await auth.processVerification({ verificationCode: '123456' })).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
    expect(requestsTo(VERIFY)).toHaveLength(0);
  });

  it('processVerification sends the code with the state token of EMAIL_VERIFICATION_REQUIRED', async () => {
    const { auth } = setup({}, {
      [`POST ${LOGIN}`]: answer({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'ST' }),
      [`POST ${VERIFY}`]: answer({ state: 'SUCCESS', sessionToken: 'SESSION' }),
    });
    expect(await auth.login({ email: 'a@b.c', password: 'pw', captchaTokens: { invisibleRecaptchaToken: 'I' } })).toEqual({
      loginState: 'EMAIL_VERIFICATION_REQUIRED',
      data: { stateToken: 'ST' },
    });
    expect(requestsTo(LOGIN)[0].body).toMatchObject({ captchaTokens: [{ InvisibleRecaptcha: 'I' }] });
    expect(await auth.processVerification({ verificationCode: '123456' })).toEqual({
      loginState: 'SUCCESS',
      data: { sessionToken: 'SESSION' },
    });
    expect(requestsTo(VERIFY)[0].body).toEqual({ code: '123456', stateToken: 'ST' });
  });

  it('processVerification reports a wrong code as a failure with the server message', async () => {
    const { auth } = setup({}, {
      [`POST ${LOGIN}`]: answer({ state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'ST' }),
      [`POST ${VERIFY}`]: appError('BAD_CODE', 'Wrong code'),
    });
    await auth.login({ email: 'a@b.c', password: 'pw' });
    expect(await auth.processVerification({ verificationCode: '000000' })).toEqual({ loginState: 'FAILURE', error: 'Wrong code' });
  });
});

describe('silent sign-in (getMemberTokensForDirectLogin)', () => {
  /** A frame host that records frames and lets the test post messages. */
  function fakeFrames() {
    const listeners = new Set<(data: unknown) => void>();
    const frames: { url: string; closed: boolean }[] = [];
    const host: FrameHost = {
      open(url) {
        const frame = { url, closed: false };
        frames.push(frame);
        return { close: () => void (frame.closed = true) };
      },
      listen(onMessage) {
        listeners.add(onMessage);
        return () => listeners.delete(onMessage);
      },
    };
    return { host, frames, listeners, post: (data: unknown) => [...listeners].forEach((l) => l(data)) };
  }

  const session = { [`POST ${REDIRECT}`]: { body: { redirectSession: { fullUrl: 'http://shop/authorize?x=1' } } } };

  it('loads the prompt=none session in a hidden frame and exchanges the code of the matching message', async () => {
    const frames = fakeFrames();
    const { auth } = setup({ silentSignIn: { frameHost: frames.host } }, session);
    const pending = auth.getMemberTokensForDirectLogin('SESSION');
    await expect.poll(() => frames.frames.length).toBe(1);
    const sent = requestsTo(REDIRECT)[0].body as { auth: { authRequest: Record<string, unknown>; prompt: string } };
    expect(sent.auth.prompt).toBe('none');
    expect(sent.auth.authRequest).toMatchObject({ responseMode: 'web_message', sessionToken: 'SESSION', clientId: 'CLIENT' });
    expect(sent.auth.authRequest).not.toHaveProperty('redirectUri');
    expect(frames.frames[0].url).toBe('http://shop/authorize?x=1');
    frames.post({ code: 'WRONG', state: 'not-ours' });
    frames.post('noise');
    frames.post({ code: 'CODE', state: sent.auth.authRequest.state });
    const tokens = await pending;
    expect(tokens.refreshToken.role).toBe('member');
    const exchange = requestsTo(TOKEN).at(-1)?.body as Record<string, unknown>;
    expect(exchange).toMatchObject({ grantType: 'authorization_code', code: 'CODE' });
    expect(exchange).not.toHaveProperty('redirectUri');
    expect(frames.frames[0].closed).toBe(true);
    expect(frames.listeners.size).toBe(0);
    expect(auth.loggedIn()).toBe(true);
  });

  it('times out with OAuth flow timed out and removes the frame', async () => {
    const frames = fakeFrames();
    const { auth } = setup({ silentSignIn: { frameHost: frames.host, timeoutMs: 30 } }, session);
    await expect(auth.getMemberTokensForDirectLogin('SESSION')).rejects.toThrow(new Error('OAuth flow timed out'));
    expect(frames.frames[0].closed).toBe(true);
    expect(frames.listeners.size).toBe(0);
  });

  it('rejects with the error description of a matching error message', async () => {
    const frames = fakeFrames();
    const { auth } = setup({ silentSignIn: { frameHost: frames.host } }, session);
    const pending = auth.getMemberTokensForDirectLogin('SESSION');
    await expect.poll(() => frames.frames.length).toBe(1);
    const { state } = (requestsTo(REDIRECT)[0].body as { auth: { authRequest: { state: string } } }).auth.authRequest;
    frames.post({ error: 'login_required', error_description: 'Session expired', state });
    await expect(pending).rejects.toThrow('Session expired');
  });

  it('needs a browser when no frame host is given', async () => {
    const { auth } = setup({}, session);
    await expect(auth.getMemberTokensForDirectLogin('S')).rejects.toThrow(/needs a browser/);
  });
});

describe('ApiKeyStrategy', () => {
  it('sends the raw key with wix-site-id and wix-account-id and never asks for tokens', async () => {
    receiver.reply(() => ({ body: { cart: {} } }));
    const auth = ApiKeyStrategy({ apiKey: 'API-KEY', siteId: 'site-1' });
    const client = createClient({ modules: { currentCart }, auth, baseUrl: receiver.url });
    await client.currentCart.getCurrentCart();
    auth.setAccountId('acc-1');
    await client.currentCart.getCurrentCart();
    expect(receiver.requests[0].headers).toMatchObject({ authorization: 'API-KEY', 'wix-site-id': 'site-1' });
    expect(receiver.requests[0].headers['wix-account-id']).toBeUndefined();
    expect(receiver.requests[1].headers['wix-account-id']).toBe('acc-1');
    expect(receiver.requests.every((r) => r.path !== TOKEN)).toBe(true);
  });
});
