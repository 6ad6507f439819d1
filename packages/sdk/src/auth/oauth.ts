/**
 * OAuthStrategy: visitor and member tokens, PKCE sign-in, register/login state machine
 * (spec §4, §5, §8, §9; wire-surface §2).
 */
import { BodegaError } from '../core/errors.js';
import { mapArgumentNames } from '../core/generated.js';
import { AUTHENTICATION, OAUTH_TOKEN, RECOVERY, REDIRECT_SESSION, VERIFICATION } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type {
  CaptchaTokens, LoginErrorCode, OAuthData, RedirectSession, RefreshToken, StateMachine,
  StateMachineResponse, TokenRole, Tokens,
} from '../types.js';
import { codeChallengeS256, createCodeVerifier } from './pkce.js';
import { browserFrameHost, type FrameHost } from './silent-frame.js';
import { emptyTokens, memoryTokenStorage, type TokenStorage } from './storage.js';
import type { AuthStrategy } from './strategy.js';

export const SILENT_SIGN_IN_TIMEOUT_MS = 120_000;

export interface OAuthStrategyOptions {
  clientId: string;
  /** Initial tokens (written to the storage). */
  tokens?: Tokens;
  /** Defaults to an in-memory storage. */
  tokenStorage?: TokenStorage;
  /** Clock in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
  silentSignIn?: {
    /** Defaults to 120000 ms. */
    timeoutMs?: number;
    /** Defaults to a hidden iframe in the current document. */
    frameHost?: FrameHost;
  };
}

export type ResponseMode = 'fragment' | 'query' | 'web_message';

export interface AuthUrlOptions {
  prompt?: 'login' | 'none' | 'consent' | 'select_account';
  responseMode?: ResponseMode;
  sessionToken?: string;
}

export interface AuthUrl {
  authUrl: string;
  authorizationEndpoint?: string;
  sessionToken?: string;
}

export interface ParsedRedirect {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
}

export interface RegisterParams {
  email: string;
  password: string;
  profile?: Record<string, unknown>;
  captchaTokens?: CaptchaTokens;
}

export interface LoginParams {
  email: string;
  password: string;
  captchaTokens?: CaptchaTokens;
}

export interface OAuthStrategy extends AuthStrategy {
  connect(transport: Transport): void;
  getTokens(): Tokens;
  setTokens(tokens: Tokens): void;
  loggedIn(): boolean;
  generateVisitorTokens(tokens?: Partial<Tokens>): Promise<Tokens>;
  renewToken(refreshToken: RefreshToken): Promise<Tokens>;
  generateOAuthData(redirectUri: string, originalUri?: string): Promise<OAuthData>;
  getAuthUrl(oauthData: OAuthData, options?: AuthUrlOptions): Promise<AuthUrl>;
  parseFromUrl(url?: string, responseMode?: 'fragment' | 'query'): ParsedRedirect;
  getMemberTokens(code: string | undefined, state: string | undefined, oauthData: OAuthData): Promise<Tokens>;
  register(params: RegisterParams): Promise<StateMachine>;
  login(params: LoginParams): Promise<StateMachine>;
  processVerification(params: { verificationCode: string }): Promise<StateMachine>;
  getMemberTokensForDirectLogin(sessionToken: string): Promise<Tokens>;
  sendPasswordResetEmail(email: string, redirectUri: string): Promise<void>;
  logout(postFlowUrl: string): Promise<{ logoutUrl: string }>;
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number | string;
}

const REGISTER_ERRORS: Record<string, LoginErrorCode> = {
  '-19995': 'emailAlreadyExists',
  '-19971': 'missingCaptchaToken',
  '-19970': 'invalidCaptchaToken',
};
const LOGIN_ERRORS: Record<string, LoginErrorCode> = {
  '-19976': 'invalidPassword',
  '-19973': 'resetPassword',
  '-19971': 'missingCaptchaToken',
  '-19970': 'invalidCaptchaToken',
};
const UNKNOWN_STATE: StateMachine = { loginState: 'FAILURE', error: 'Unknown _state' };

function captchaWire(tokens: CaptchaTokens | undefined): Record<string, string>[] | undefined {
  const list: Record<string, string>[] = [];
  if (tokens?.recaptchaToken) list.push({ Recaptcha: tokens.recaptchaToken });
  if (tokens?.invisibleRecaptchaToken) list.push({ InvisibleRecaptcha: tokens.invisibleRecaptchaToken });
  return list.length ? list : undefined;
}

/** Server auth state → login state (spec §4). */
export function loginStateOf(response: StateMachineResponse): StateMachine {
  switch (response.state) {
    case 'SUCCESS':
      return { loginState: 'SUCCESS', data: { sessionToken: response.sessionToken ?? '' } };
    case 'REQUIRE_OWNER_APPROVAL':
      return { loginState: 'OWNER_APPROVAL_REQUIRED' };
    case 'REQUIRE_EMAIL_VERIFICATION':
      return { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: response.stateToken ?? '' } };
    default:
      return UNKNOWN_STATE;
  }
}

function serverError(error: unknown): BodegaError {
  // Network failures and client bugs are not sign-in outcomes: they propagate.
  if (!(error instanceof BodegaError) || error.status === undefined) throw error;
  return error;
}

/** Register failures (spec §8): EMAIL violation, then the application-code map, else the message. */
export function registerFailure(error: unknown): StateMachine {
  const failure = serverError(error);
  const emailViolation = failure.details.validationError?.fieldViolations.find((v) => v.data?.type === 'EMAIL');
  if (emailViolation) return { loginState: 'FAILURE', errorCode: 'invalidEmail', error: emailViolation.description };
  const message = (mapArgumentNames(failure) as Error).message;
  const errorCode = REGISTER_ERRORS[String(failure.details.applicationError?.code)];
  return errorCode ? { loginState: 'FAILURE', errorCode, error: message } : { loginState: 'FAILURE', error: message };
}

/** Verification failures: the server message. */
export function verificationFailure(error: unknown): StateMachine {
  return { loginState: 'FAILURE', error: (mapArgumentNames(serverError(error)) as Error).message };
}

/** Login failures (spec §8): the application-code map, anything else is invalidEmail. */
export function loginFailure(error: unknown): StateMachine {
  const failure = serverError(error);
  const message = (mapArgumentNames(failure) as Error).message;
  const errorCode = LOGIN_ERRORS[String(failure.details.applicationError?.code)] ?? 'invalidEmail';
  return { loginState: 'FAILURE', errorCode, error: message };
}

export function OAuthStrategy(options: OAuthStrategyOptions): OAuthStrategy {
  const { clientId } = options;
  const storage = options.tokenStorage ?? memoryTokenStorage();
  if (options.tokens) storage.setTokens(options.tokens);
  const now = options.now ?? Date.now;
  const nowSeconds = (): number => Math.floor(now() / 1000);
  const isExpired = (tokens: Tokens): boolean => tokens.accessToken.expiresAt <= nowSeconds();
  let transport: Transport | undefined;
  let pendingTokens: Promise<Tokens> | undefined;
  let flow: StateMachine = { loginState: 'INITIAL' };

  function wire(): Transport {
    if (!transport) throw new Error('OAuthStrategy is not connected: pass it to createClient({ auth })');
    return transport;
  }

  async function tokenRequest(body: Record<string, unknown>, role: TokenRole): Promise<Tokens> {
    const response = await wire().raw(OAUTH_TOKEN, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) {
      const requestId = response.headers.get('x-wix-request-id');
      throw new Error(
        `Failed to fetch tokens from OAuth API: ${response.statusText}. request id: ${requestId}. Response: ${text}`,
      );
    }
    const json = JSON.parse(text) as TokenResponse;
    return {
      accessToken: { value: json.access_token, expiresAt: nowSeconds() + Number(json.expires_in) },
      refreshToken: { value: json.refresh_token ?? '', role },
    };
  }

  const visitorTokens = (): Promise<Tokens> => tokenRequest({ clientId, grantType: 'anonymous' }, 'visitor');

  async function renewToken(refreshToken: RefreshToken): Promise<Tokens> {
    const renewed = await tokenRequest(
      { clientId, refreshToken: refreshToken.value, grantType: 'refresh_token' },
      refreshToken.role,
    );
    // Refresh tokens are not rotated: the one we hold stays valid.
    return { accessToken: renewed.accessToken, refreshToken };
  }

  /** From the refresh token when there is one, else (or when that fails) a new visitor token. */
  async function freshTokens(refreshToken: RefreshToken | undefined): Promise<Tokens> {
    if (refreshToken?.value) {
      try {
        return await renewToken(refreshToken);
      } catch {
        // The refresh token was revoked or expired: continue as a visitor.
      }
    }
    return visitorTokens();
  }

  function currentTokens(): Promise<Tokens> {
    const tokens = storage.getTokens();
    if (tokens.accessToken.value && !isExpired(tokens)) return Promise.resolve(tokens);
    // Concurrent requests share one token call.
    pendingTokens ??= freshTokens(tokens.refreshToken)
      .then((next) => {
        storage.setTokens(next);
        return next;
      })
      .finally(() => {
        pendingTokens = undefined;
      });
    return pendingTokens;
  }

  async function createOAuthData(redirectUri?: string, originalUri?: string): Promise<OAuthData> {
    const codeVerifier = createCodeVerifier();
    return {
      codeVerifier,
      codeChallenge: await codeChallengeS256(codeVerifier),
      state: createCodeVerifier(),
      redirectUri,
      originalUri: originalUri ?? '',
    };
  }

  async function getAuthUrl(oauthData: OAuthData, urlOptions: AuthUrlOptions = {}): Promise<AuthUrl> {
    const authRequest = {
      redirectUri: oauthData.redirectUri,
      clientId,
      codeChallenge: oauthData.codeChallenge,
      codeChallengeMethod: 'S256',
      responseMode: urlOptions.responseMode ?? 'fragment',
      responseType: 'code',
      scope: 'offline_access',
      state: oauthData.state,
      sessionToken: urlOptions.sessionToken,
    };
    const { redirectSession } = await wire().send<{ redirectSession: RedirectSession }>({
      method: 'POST',
      path: REDIRECT_SESSION,
      payload: { auth: { authRequest, prompt: urlOptions.prompt ?? 'login' } },
    });
    return {
      authUrl: redirectSession.fullUrl ?? '',
      authorizationEndpoint: redirectSession.urlDetails?.endpoint,
      sessionToken: redirectSession.sessionToken,
    };
  }

  async function getMemberTokens(
    code: string | undefined,
    state: string | undefined,
    oauthData: OAuthData,
  ): Promise<Tokens> {
    if (!code || !state) throw new Error('Missing code or _state');
    if (state !== oauthData.state) throw new Error('Invalid _state');
    const tokens = await tokenRequest(
      {
        clientId,
        grantType: 'authorization_code',
        redirectUri: oauthData.redirectUri,
        code,
        codeVerifier: oauthData.codeVerifier,
      },
      'member',
    );
    storage.setTokens(tokens);
    return tokens;
  }

  async function stateCall(path: string, payload: Record<string, unknown>, onError: (e: unknown) => StateMachine) {
    try {
      flow = loginStateOf(await wire().send<StateMachineResponse>({ method: 'POST', path, payload }));
    } catch (error) {
      flow = onError(error);
    }
    return flow;
  }

  function waitForCode(url: string, state: string, host: FrameHost, timeoutMs: number): Promise<ParsedRedirect> {
    return new Promise((resolve, reject) => {
      let frame: { close(): void } | undefined;
      let stopListening = (): void => {};
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        stopListening();
        frame?.close();
      };
      stopListening = host.listen((data) => {
        if (typeof data !== 'object' || data === null) return;
        const message = data as Record<string, unknown>;
        if (message.state !== state) return;
        finish();
        if (typeof message.code === 'string') {
          resolve({ code: message.code, state });
        } else {
          const description = message.error_description ?? message.errorDescription ?? message.error;
          reject(new Error(typeof description === 'string' ? description : 'OAuth flow failed'));
        }
      });
      timer = setTimeout(() => {
        finish();
        reject(new Error('OAuth flow timed out'));
      }, timeoutMs);
      frame = host.open(url);
    });
  }

  return {
    connect(next) {
      transport = next;
    },
    async getAuthHeaders() {
      return { headers: { Authorization: (await currentTokens()).accessToken.value } };
    },
    getTokens: () => storage.getTokens(),
    setTokens: (tokens) => storage.setTokens(tokens),
    loggedIn: () => storage.getTokens().refreshToken.role === 'member',

    async generateVisitorTokens(tokens) {
      const given = tokens?.accessToken?.value && tokens.refreshToken?.value ? (tokens as Tokens) : undefined;
      const next = given && !isExpired(given) ? given : await freshTokens(tokens?.refreshToken);
      storage.setTokens(next);
      return next;
    },
    renewToken,

    generateOAuthData: (redirectUri, originalUri) => createOAuthData(redirectUri, originalUri),
    getAuthUrl,

    parseFromUrl(url, responseMode) {
      const parsed = new URL(url ?? globalThis.location.href);
      const read = (mode: 'fragment' | 'query'): URLSearchParams =>
        new URLSearchParams(mode === 'query' ? parsed.search : parsed.hash.replace(/^#/, ''));
      let params = read(responseMode ?? 'fragment');
      if (!responseMode && !params.has('code') && !params.has('error')) params = read('query');
      return {
        code: params.get('code') ?? undefined,
        state: params.get('state') ?? undefined,
        error: params.get('error') ?? undefined,
        errorDescription: params.get('error_description') ?? undefined,
      };
    },
    getMemberTokens,

    register: ({ email, password, profile, captchaTokens }) =>
      stateCall(
        `${AUTHENTICATION}/v2/register`,
        { loginId: { email }, password, profile, captchaTokens: captchaWire(captchaTokens) },
        registerFailure,
      ),
    login: ({ email, password, captchaTokens }) =>
      stateCall(
        `${AUTHENTICATION}/v2/login`,
        { loginId: { email }, password, captchaTokens: captchaWire(captchaTokens) },
        loginFailure,
      ),
    async processVerification({ verificationCode }) {
      if (flow.loginState !== 'EMAIL_VERIFICATION_REQUIRED') return UNKNOWN_STATE;
      return stateCall(
        `${VERIFICATION}/auth/verify`,
        { code: verificationCode, stateToken: flow.data.stateToken },
        verificationFailure,
      );
    },

    async getMemberTokensForDirectLogin(sessionToken) {
      const oauthData = await createOAuthData();
      const { authUrl } = await getAuthUrl(oauthData, { prompt: 'none', responseMode: 'web_message', sessionToken });
      const host = options.silentSignIn?.frameHost ?? browserFrameHost();
      const timeoutMs = options.silentSignIn?.timeoutMs ?? SILENT_SIGN_IN_TIMEOUT_MS;
      const { code, state } = await waitForCode(authUrl, oauthData.state, host, timeoutMs);
      return getMemberTokens(code, state, oauthData);
    },

    async sendPasswordResetEmail(email, redirectUri) {
      await wire().send({
        method: 'POST',
        path: `${RECOVERY}/send-email`,
        payload: { email, redirect: { url: redirectUri, clientId } },
      });
    },

    async logout(postFlowUrl) {
      try {
        const { redirectSession } = await wire().send<{ redirectSession: RedirectSession }>({
          method: 'POST',
          path: REDIRECT_SESSION,
          payload: { logout: { clientId }, callbacks: { postFlowUrl } },
        });
        return { logoutUrl: redirectSession.fullUrl ?? '' };
      } finally {
        // Signed out locally even when the server call fails.
        storage.setTokens(emptyTokens());
        flow = { loginState: 'INITIAL' };
      }
    },
  };
}
