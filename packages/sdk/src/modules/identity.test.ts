import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { authentication } from './authentication.js';
import { recovery } from './recovery.js';
import { redirects } from './redirects.js';
import { verification } from './verification.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () =>
  createClient({
    modules: { authentication, recovery, redirects, verification },
    auth: ApiKeyStrategy({ apiKey: 'K' }),
    baseUrl: receiver.url,
  });

describe('identity and redirect modules', () => {
  it('send their calls to the custom-host paths', async () => {
    receiver.reply(() => ({
      body: { state: 'SUCCESS', sessionToken: 'S', identity: { id: 'ident-1', createdDate: '2024-05-01T10:00:00.000Z' } },
    }));
    const c = client();
    const registered = await c.authentication.registerV2({ email: 'a@b.c' }, { password: 'pw123456', profile: { nickname: 'n' } });
    await c.authentication.loginV2({ email: 'a@b.c' }, { password: 'pw' });
    await c.authentication.changePassword('new-pw');
    await c.authentication.logout({ postLogoutRedirectUri: 'https://x/', clientId: 'C' });
    await c.recovery.sendRecoveryEmail('a@b.c', { redirect: { url: 'https://x/', clientId: 'C' } });
    await c.recovery.recover('T', { password: 'pw' });
    await c.verification.start({ identityId: 'ident-1', target: 'EMAIL' });
    await c.verification.verifyDuringAuthentication('123456', { stateToken: 'ST' });
    await c.redirects.createRedirectSession({ ecomCheckout: { checkoutId: 'co-1' }, callbacks: { postFlowUrl: 'https://x/' } });
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /_api/iam/authentication/v2/register',
      'POST /_api/iam/authentication/v2/login',
      'POST /_api/iam/authentication/v2/change-password',
      'GET /_api/iam/authentication/v1/logout?postLogoutRedirectUri=https%3A%2F%2Fx%2F&clientId=C',
      'POST /_iam/recovery/v1/send-email',
      'POST /_iam/recovery/v1/recover',
      'POST /_api/iam/verification/v1/start',
      'POST /_api/iam/verification/v1/auth/verify',
      'POST /headless/v1/redirect-session',
    ]);
    expect(receiver.requests[0].body).toEqual({
      loginId: { email: 'a@b.c' },
      password: 'pw123456',
      profile: { nickname: 'n' },
    });
    expect(receiver.requests[7].body).toEqual({ code: '123456', stateToken: 'ST' });
    expect(registered.identity).toEqual({ _id: 'ident-1', _createdDate: new Date('2024-05-01T10:00:00.000Z') });
  });

  it('createRedirectSession returns the session with _id', async () => {
    receiver.reply(() => ({ body: { redirectSession: { id: 'rs-1', fullUrl: 'https://login' } } }));
    const body = await client().redirects.createRedirectSession({ login: {} });
    expect(body).toEqual({ redirectSession: { _id: 'rs-1', fullUrl: 'https://login' } });
  });
});
