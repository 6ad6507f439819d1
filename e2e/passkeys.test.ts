/**
 * Passkeys in Chromium with a virtual authenticator (Chrome DevTools Protocol `WebAuthn.enable`,
 * `WebAuthn.addVirtualAuthenticator`: CTAP2, internal, resident keys, user verification): a
 * member adds a passkey on the account's Security page, signs out, and signs in again with "Use
 * a passkey" on the hosted sign-in page, without a password; then, with an authenticator app as
 * well, the passkey finishes the second step of a password sign-in. axe-clean, photographed.
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { CHROMIUM, hasChromium } from './chromium.js';
import { axeViolations, ready, registerInBrowser, screenshots, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the passkey browser tests: ${CHROMIUM} is missing.`);

/** A platform authenticator that holds discoverable credentials and verifies the user (a fingerprint, say) every time. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Off: the authenticator waits (no touch), so a pending passkey autofill stays pending. */
    presence: async (enabled: boolean) => { await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }); },
  };
}

describe.skipIf(!hasChromium)('passkeys in Chromium', () => {
  const shop = useShop();

  async function check(page: Page, name: string) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name);
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
  }

  it('adds a passkey on the Security page, then signs in with "Use a passkey"; it is also the second step', async () => {
    const site = await shopSite(shop(), 'open');
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const authenticator = await virtualAuthenticator(page);
    const email = `passkey.${Date.now()}@example.com`;

    await registerInBrowser(page, site.url, email);

    await page.goto(`${site.url}/account/security`);
    await page.getByRole('heading', { name: 'Passkeys', level: 2 }).waitFor();
    await page.getByLabel('Passkey name').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey “Test laptop” added').waitFor();
    await page.getByRole('button', { name: 'Remove Test laptop' }).waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    const made = (await authenticator.credentials())[0].signCount;
    await check(page, 'account-security-passkey');

    await page.getByRole('button', { name: 'Rename Test laptop' }).click();
    await page.getByLabel('New name for Test laptop').fill('Work laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Remove Work laptop' }).waitFor();

    // Passkey autofill (conditional mediation): the virtual authenticator picks the passkey as the page opens.
    await signOut(page);
    await page.goto(`${site.url}/auth/sign-in`);
    await page.getByRole('button', { name: /account menu/ }).waitFor();
    expect((await authenticator.credentials())[0].signCount).toBe(made + 1);

    // "Use a passkey": with the authenticator untouched the autofill waits; the button asks outright.
    await signOut(page);
    await authenticator.presence(false);
    await page.goto(`${site.url}/auth/sign-in`);
    await ready(page);
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await check(page, 'sign-in-passkey');
    await authenticator.presence(true);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();
    expect((await authenticator.credentials())[0].signCount).toBe(made + 2);

    // With an authenticator app too, a password sign-in asks for a second step, and the passkey is one.
    await page.goto(`${site.url}/account/security`);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.locator('code.secret').textContent()) ?? '';
    await page.getByLabel('The 6-digit code your app shows').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await signOut(page);
    await authenticator.presence(false);
    await page.goto(`${site.url}/auth/sign-in`);
    await ready(page);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await page.getByRole('radio', { name: 'Passkey' }).check();
    await check(page, 'sign-in-second-factor-passkey');
    await authenticator.presence(true);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();
    expect(errors).toEqual([]);
  }, 180_000);
});
