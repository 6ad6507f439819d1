/**
 * @bodega/sdk's silent sign-in in Chromium: a page on the server's origin loads the SDK (bundled
 * by esbuild from packages/sdk/src) and calls `getMemberTokensForDirectLogin(sessionToken)`,
 * which loads the authorize URL in a hidden iframe and waits for its `web_message` answer.
 * A second case makes the frame never answer and checks `OAuth flow timed out` with the
 * time-out shortened through `silentSignIn.timeoutMs`.
 * Needs Debian's Chromium at /usr/bin/chromium (never `npx playwright install`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { createClient, OAuthStrategy, type Tokens } from '@bodega/sdk';
import type * as Sdk from '@bodega/sdk';
import { PASSWORD, sessionTokenOf, startServer, uniqueEmail, type Server, type TestSite } from '../packages/sdk/integration/support.js';

const SDK_ENTRY = fileURLToPath(new URL('../packages/sdk/src/index.ts', import.meta.url));
if (!hasChromium) console.warn(`Skipping the SDK silent sign-in browser test: ${CHROMIUM} is missing.`);

/** What the test page puts on `window`. */
type PageSdk = Pick<typeof Sdk, 'createClient' | 'OAuthStrategy' | 'members' | 'cookieTokenStorage'>;

async function bundleSdk(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { createClient, OAuthStrategy, members, cookieTokenStorage } from ${JSON.stringify(SDK_ENTRY)};\n` +
        'window.bodega = { createClient, OAuthStrategy, members, cookieTokenStorage };\n',
      resolveDir: path.dirname(SDK_ENTRY),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0].text;
}

describe.skipIf(!hasChromium)('@bodega/sdk silent sign-in in Chromium', () => {
  let server: Server;
  let site: TestSite;
  let browser: BrowserContext;
  let chromiumHandle: Chromium | undefined;

  beforeAll(async () => {
    const script = await bundleSdk();
    server = await startServer({
      routes: (app) => {
        app.get('/sdk-test/page.html', async (_req, reply) =>
          reply.type('text/html').send('<!doctype html><html><body><script type="module" src="/sdk-test/sdk.js"></script></body></html>'));
        app.get('/sdk-test/sdk.js', async (_req, reply) => reply.type('text/javascript').send(script));
      },
    });
    site = await server.createSite({ signupPolicy: 'open' });
    chromiumHandle = await launchChromium();
    browser = chromiumHandle.context;
  }, 60_000);

  afterAll(async () => {
    await chromiumHandle?.close();
    await server?.close();
  });

  async function sdkPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/sdk-test/page.html`);
    await page.waitForFunction(() => 'bodega' in window);
    return page;
  }

  /** A session token as register (in Node, through the same SDK) hands it to an app. */
  async function sessionToken(): Promise<string> {
    const node = createClient({ baseUrl: server.origin, auth: OAuthStrategy({ clientId: site.clientId }) });
    return sessionTokenOf(await node.auth.register({ email: uniqueEmail('silent'), password: PASSWORD }));
  }

  it('gets member tokens from the hidden iframe and signs the page in, kept in a cookie across a reload', async () => {
    const token = await sessionToken();
    const page = await sdkPage();
    const result = await page.evaluate(async ({ clientId, sessionToken }) => {
      const { createClient, OAuthStrategy, members, cookieTokenStorage } = (window as unknown as { bodega: PageSdk }).bodega;
      const client = createClient({
        baseUrl: location.origin, auth: OAuthStrategy({ clientId, tokenStorage: cookieTokenStorage() }), modules: { members },
      });
      const tokens: Tokens = await client.auth.getMemberTokensForDirectLogin(sessionToken);
      const me = await client.members.getCurrentMember({ fieldsets: ['FULL'] });
      return {
        tokens,
        loggedIn: client.auth.loggedIn(),
        stored: client.auth.getTokens().refreshToken.value === tokens.refreshToken.value,
        memberId: me.member?._id,
        framesLeft: document.querySelectorAll('iframe').length,
      };
    }, { clientId: site.clientId, sessionToken: token });
    expect(result.tokens.refreshToken.role).toBe('member');
    expect(result.tokens.accessToken.value).not.toBe('');
    expect(result.tokens.accessToken.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect([result.loggedIn, result.stored, result.framesLeft]).toEqual([true, true, 0]);
    expect(result.memberId).toEqual(expect.any(String));

    const [cookie] = (await browser.cookies(server.origin)).filter((c) => c.name === 'bodega_tokens');
    expect(cookie?.path).toBe('/');
    await page.reload();
    await page.waitForFunction(() => 'bodega' in window);
    const again = await page.evaluate(async ({ clientId }) => {
      const { createClient, OAuthStrategy, members, cookieTokenStorage } = (window as unknown as { bodega: PageSdk }).bodega;
      const client = createClient({
        baseUrl: location.origin, auth: OAuthStrategy({ clientId, tokenStorage: cookieTokenStorage() }), modules: { members },
      });
      return { loggedIn: client.auth.loggedIn(), memberId: (await client.members.getCurrentMember()).member?._id };
    }, { clientId: site.clientId });
    expect(again).toEqual({ loggedIn: true, memberId: result.memberId });
    await page.close();
  }, 60_000);

  it('rejects with "OAuth flow timed out" when the frame never answers (time-out shortened)', async () => {
    const token = await sessionToken();
    const page = await sdkPage();
    // The authorize page is replaced, for this page only, by one that never posts a message.
    await page.route('**/oauth2/authorize**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>silent</p>' }));
    const result = await page.evaluate(async ({ clientId, sessionToken }) => {
      const { createClient, OAuthStrategy } = (window as unknown as { bodega: PageSdk }).bodega;
      const client = createClient({
        baseUrl: location.origin,
        auth: OAuthStrategy({ clientId, silentSignIn: { timeoutMs: 1500 } }),
      });
      const started = performance.now();
      let framesWhileWaiting = 0;
      const watch = setInterval(() => {
        framesWhileWaiting = Math.max(framesWhileWaiting, document.querySelectorAll('iframe').length);
      }, 50);
      try {
        await client.auth.getMemberTokensForDirectLogin(sessionToken);
        return { message: 'resolved', elapsed: 0, framesWhileWaiting, framesLeft: 0, loggedIn: true };
      } catch (error) {
        return {
          message: error instanceof Error ? error.message : String(error),
          elapsed: performance.now() - started,
          framesWhileWaiting,
          framesLeft: document.querySelectorAll('iframe').length,
          loggedIn: client.auth.loggedIn(),
        };
      } finally {
        clearInterval(watch);
      }
    }, { clientId: site.clientId, sessionToken: token });
    expect(result.message).toBe('OAuth flow timed out');
    expect(result.elapsed).toBeGreaterThanOrEqual(1400);
    expect(result.elapsed).toBeLessThan(30_000);
    expect([result.framesWhileWaiting, result.framesLeft, result.loggedIn]).toEqual([1, 0, false]);
    await page.close();
  }, 60_000);
});
