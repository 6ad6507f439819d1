/**
 * A second factor in Chromium: a member sets up an authenticator app on the account's Security
 * page (QR code, secret, first code, recovery codes shown once), signs out, and the hosted sign-in
 * page then asks for the code; a recovery code works once. Security and second-step pages are
 * axe-clean and photographed. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { CHROMIUM, hasChromium } from './chromium.js';
import { axeViolations, ready, registerInBrowser, screenshots, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the second-factor browser tests: ${CHROMIUM} is missing.`);

/** The code of the next 30-second step (accepted: one step either side), so it differs from the one just used. */
function nextCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + 30_000 });
}

describe.skipIf(!hasChromium)('second factor in Chromium', () => {
  const shop = useShop();

  async function check(page: Page, name: string) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name);
  }

  async function signIn(page: Page, url: string, email: string) {
    await page.goto(`${url}/auth/sign-in`);
    await ready(page);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('sets up an authenticator app on the Security page, then the hosted sign-in asks for its code', async () => {
    const site = await shopSite(shop(), 'open');
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `mfa.${Date.now()}@example.com`;

    await registerInBrowser(page, site.url, email);

    await page.goto(`${site.url}/account/security`);
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await check(page, 'account-security');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.locator('code.secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await check(page, 'account-security-totp');
    await page.getByLabel('The 6-digit code your app shows').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.locator('.recovery-codes code').allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'Remove Authenticator app' }).waitFor();
    await check(page, 'account-security-enabled');

    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();

    await signIn(page, site.url, email);
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await check(page, 'sign-in-second-factor');
    await page.getByLabel('Code from your authenticator app').fill(nextCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();

    // A recovery code instead of the app, once.
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await signIn(page, site.url, email);
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await page.getByRole('radio', { name: 'Recovery code' }).check();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0]);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();
    expect(errors).toEqual([]);
  }, 120_000);
});
