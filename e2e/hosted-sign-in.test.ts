/**
 * The hosted sign-in page in Chromium: an application asks for a login (prompt=login) through the
 * official SDK, the member signs in on the web app's page, and the browser lands back on the
 * application's redirect URI with a code that buys member tokens.
 * Needs `npm run build` (apps/web/dist) and Debian's Chromium at /usr/bin/chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserContext } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { redirectWixApis, signInApp, type SignInApp } from '../packages/server/src/test/sign-in.js';
import type { TestSite } from '../packages/server/src/test/harness.js';

const WEB_DIR = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
if (!hasChromium) console.warn(`Skipping the hosted sign-in browser test: ${CHROMIUM} is missing (apt-get install chromium).`);

describe.skipIf(!hasChromium)('hosted sign-in page in Chromium', () => {
  let t: SignInApp;
  let site: TestSite;
  let browser: BrowserContext;
  let chromiumHandle: Chromium | undefined;
  let restoreFetch: () => void;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(WEB_DIR, 'client', 'index.html'))) throw new Error(`${WEB_DIR} has no client/index.html: run \`npm run build\` first`);
    t = await signInApp({ listen: true, webDir: WEB_DIR });
    restoreFetch = redirectWixApis(t.url);
    site = await t.createSite({ signupPolicy: 'open' });
    chromiumHandle = await launchChromium();
    browser = chromiumHandle.context;
  }, 60_000);

  afterAll(async () => {
    await chromiumHandle?.close();
    restoreFetch?.();
    await t?.close();
  });

  async function startLogin() {
    const client = createClient({ auth: OAuthStrategy({ clientId: site.clientId }) });
    const oauthData = client.auth.generateOAuthData(`${t.url}/signed-in`);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { prompt: 'login', responseMode: 'query' });
    return { client, oauthData, authUrl };
  }

  it('signs in on the hosted page (announcing a wrong password) and lands back with a code', async () => {
    const email = `browser.${Date.now()}@example.com`;
    const visitor = await t.visitorToken(site);
    const registered = await t.app.inject({
      method: 'POST', url: '/_api/iam/authentication/v2/register', headers: { authorization: visitor },
      payload: { loginId: { email }, password: 'browser-password' },
    });
    expect(registered.statusCode, registered.body).toBe(200);

    const { client, oauthData, authUrl } = await startLogin();
    const page = await browser.newPage();
    await page.goto(authUrl);
    await page.waitForURL(/\/auth\/sign-in\?/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'visible', timeout: 15_000 });

    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('wrong');

    await page.getByLabel('Password').fill('browser-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/signed-in\?/);
    const { code, state } = client.auth.parseFromUrl(page.url(), 'query');
    expect(code).toEqual(expect.any(String));
    client.auth.setTokens(await client.auth.getMemberTokens(code, state, oauthData));
    expect(client.auth.loggedIn()).toBe(true);
    await page.close();
  }, 60_000);

  it('signs in silently in a hidden iframe: the web_message page posts {code, state} to its parent', async () => {
    const email = `silent.${Date.now()}@example.com`;
    const visitor = await t.visitorToken(site);
    const registered = await t.app.inject({
      method: 'POST', url: '/_api/iam/authentication/v2/register', headers: { authorization: visitor },
      payload: { loginId: { email }, password: 'silent-password' },
    });
    const client = createClient({ auth: OAuthStrategy({ clientId: site.clientId }) });
    const oauthData = client.auth.generateOAuthData('');
    // As getMemberTokensForDirectLogin asks: web_message, prompt none, no redirectUri; the page's origin answers.
    const session = await t.app.inject({
      method: 'POST', url: '/_api/redirects-api/v1/redirect-session', headers: { authorization: visitor, origin: t.url },
      payload: { auth: { prompt: 'none', authRequest: {
        clientId: site.clientId, codeChallenge: oauthData.codeChallenge, codeChallengeMethod: 'S256', responseMode: 'web_message',
        responseType: 'code', scope: 'offline_access', state: oauthData.state, sessionToken: registered.json().sessionToken,
      } } },
    });
    expect(session.statusCode, session.body).toBe(200);
    const page = await browser.newPage();
    await page.goto(`${t.url}/`);
    const message = await page.evaluate((src) => new Promise<{ code?: string; state?: string }>((resolve) => {
      window.addEventListener('message', (event) => resolve(event.data as { code?: string; state?: string }));
      const frame = document.createElement('iframe');
      frame.style.display = 'none';
      frame.src = src;
      document.body.appendChild(frame);
    }), session.json().redirectSession.fullUrl as string);
    expect(message.state).toBe(oauthData.state);
    client.auth.setTokens(await client.auth.getMemberTokens(message.code as string, message.state as string, oauthData));
    expect(client.auth.loggedIn()).toBe(true);
    await page.close();
  }, 60_000);

  it('creates an account on the hosted register page and lands back with a code', async () => {
    const { client, oauthData, authUrl } = await startLogin();
    const page = await browser.newPage();
    await page.goto(authUrl);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/auth\/register\?/);
    // The address changes at once; the page itself comes with its chunk (the sign-in form stays until then).
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('E-mail').fill(`new.${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByText('Use 8 to 256 characters.').isVisible()).toBe(true);
    await page.getByLabel('Password').fill('a-fine-new-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/signed-in\?/);
    const { code, state } = client.auth.parseFromUrl(page.url(), 'query');
    client.auth.setTokens(await client.auth.getMemberTokens(code, state, oauthData));
    expect(client.auth.loggedIn()).toBe(true);
    await page.close();
  }, 60_000);
});
