/**
 * A second factor through the official `@wix/sdk` and `@wix/identity` against a listening server.
 * What the SDK handles: `authentication.loginV2` answers REQUIRE_MFA with the state token and
 * the factors; there is no SDK call for `v2/{factorType}/verify`, so the app posts it with the
 * client's `fetchWithAuth`; the session token it answers goes through the SDK's own getAuthUrl
 * (prompt none) and getMemberTokens. `OAuthStrategy.login` knows only SUCCESS and the e-mail and
 * owner states: for REQUIRE_MFA it answers FAILURE ("Unknown _state").
 */
import { describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { authentication } from '@wix/identity';
import { sdkMemberTokens, useSdkSignInWithMail } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';
import { totpCode } from './totp.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const app = useSdkSignInWithMail({ now });
let counter = 0;

const PASSWORD = 'a-good-password';
const VERIFY = 'https://www.wixapis.com/_api/iam/authentication/v2';


function sdkClient(site: TestSite) {
  return createClient({ auth: OAuthStrategy({ clientId: site.clientId }), modules: { authentication } });
}
type Client = ReturnType<typeof sdkClient>;

async function memberTokensFor(client: Client, sessionToken: string) {
  return (await sdkMemberTokens(client.auth, app().t.url, sessionToken)).tokens;
}

/** A member signed in through the SDK, and a call to their Security page with their token. */
async function signedUp(site: TestSite) {
  const client = sdkClient(site);
  const email = `sdk-mfa.${++counter}.${Date.now()}@example.com`;
  const registered = await client.auth.register({ email, password: PASSWORD });
  expect(registered.loginState).toBe('SUCCESS');
  const tokens = await memberTokensFor(client, (registered as { data: { sessionToken: string } }).data.sessionToken);
  const security = async (path: string, body: Record<string, unknown> = {}) => {
    const res = await fetch(`${app().t.url}/bodega/v1/my/security${path}`, {
      method: 'POST', headers: { authorization: tokens.accessToken.value, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return { email, security };
}

async function verify(client: Client, factorType: string, body: Record<string, unknown>) {
  const res = await client.fetchWithAuth(`${VERIFY}/${factorType}/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as Record<string, unknown> & { state?: string; sessionToken?: string } };
}

describe('a second factor through the official SDK', () => {
  it('TOTP: loginV2 answers REQUIRE_MFA; verify finishes it; the SDK then gets member tokens', async () => {
    const site = await app().t.createSite();
    const { email, security } = await signedUp(site);
    const started = await security('/totp');
    expect(started.otpauthUri).toEqual(expect.stringMatching(/^otpauth:\/\/totp\//));
    await security('/totp/confirm', { code: totpCode(started.secret as string, now()) });
    const client = sdkClient(site);

    const unhandled = await client.auth.login({ email, password: PASSWORD });
    expect(unhandled.loginState, 'OAuthStrategy.login does not handle REQUIRE_MFA').toBe('FAILURE');

    offsetMs += 30_000;
    const answer = await client.authentication.loginV2({ email }, { password: PASSWORD });
    expect(answer.state).toBe('REQUIRE_MFA');
    expect(answer.stateToken).toEqual(expect.any(String));
    expect(answer.sessionToken ?? undefined).toBeUndefined();
    const done = await verify(client, 'TOTP', { stateToken: answer.stateToken, totpData: { code: totpCode(started.secret as string, now()) } });
    expect(done.status).toBe(200);
    expect(done.body.state).toBe('SUCCESS');
    const tokens = await memberTokensFor(client, done.body.sessionToken as string);
    client.auth.setTokens(tokens);
    expect(client.auth.loggedIn()).toBe(true);
  });

  it('EMAIL: the code arrives through SMTP and finishes the sign-in', async () => {
    const site = await app().t.createSite();
    const { email, security } = await signedUp(site);
    await security('/email');
    const client = sdkClient(site);
    const answer = await client.authentication.loginV2({ email }, { password: PASSWORD });
    expect(answer.state).toBe('REQUIRE_MFA');
    const before = app().smtp.count();
    const challenge = await verify(client, 'EMAIL', { stateToken: answer.stateToken, emailData: {} });
    expect(challenge.body.state).toBe('MFA_CHALLENGE');
    const mail = await app().smtp.waitFor(email, (m) => /\b\d{6}\b/.test(m.text), 10_000, before);
    expect(mail.text).toMatch(/10 minutes/);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] as string;
    const done = await verify(client, 'EMAIL', { stateToken: answer.stateToken, emailData: { code } });
    expect(done.body.state).toBe('SUCCESS');
    expect((await memberTokensFor(client, done.body.sessionToken as string)).refreshToken.role).toBe('member');
  });
});
