/**
 * The owner's rule that staff sign in with a second step, in Chromium: the owner turns it on in the
 * back office's settings and is at once asked to set up a step of their own; a contributor without
 * one signs in on the hosted page with an e-mailed code (read from the captured SMTP message),
 * remembers the device, is led through setting up an authenticator app (recovery codes shown once)
 * and reaches the dashboard and its Security page (factors, signed-in sessions); signing in again from the remembered device skips the second step.
 * Pages are axe-clean and photographed at desktop and phone width (e2e/output/staff-rule-*).
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { CHROMIUM, hasChromium } from './chromium.js';
import { ready, useShop } from './shop.js';
import { checkPage, signInToAdmin, submitSignIn } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the staff-rule browser tests: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@staff-rule.example.com';
const OWNER_PASSWORD = 'owner-password-1';
const CONTRIBUTOR_EMAIL = 'contributor@staff-rule.example.com';
const CONTRIBUTOR_PASSWORD = 'contributor-password-1';

describe.skipIf(!hasChromium)('the staff rule in Chromium', () => {
  const shop = useShop();

  async function signOutOfGate(page: Page) {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
  }

  it('the owner turns it on; a contributor without a factor signs in with an e-mailed code, sets up an app and reaches the dashboard', async () => {
    const site = await shop().t.createShop({ name: 'Staff rule store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD });
    const app = shop().t.app;
    const registered = await app.inject({
      method: 'POST', url: '/_api/iam/authentication/v2/register', headers: { authorization: await shop().t.visitorToken(site) },
      payload: { loginId: { email: CONTRIBUTOR_EMAIL }, password: CONTRIBUTOR_PASSWORD },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const contributorId = registered.json().identity.id as string;
    const role = await app.inject({
      method: 'POST', url: `/members/v1/members/${contributorId}/role`, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { role: 'CONTRIBUTOR' },
    });
    expect(role.statusCode, role.body).toBe(200);

    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The owner turns the rule on; without a step of their own, the back office asks for one at once.
    await signInToAdmin(page, site.origin, OWNER_EMAIL, OWNER_PASSWORD, '/admin/settings');
    const panel = page.getByRole('form', { name: 'Sign-in security' });
    await panel.getByLabel('Owners and contributors must sign in with a second step').check();
    await checkPage(page, 'staff-rule-settings');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Set up a second sign-in step' }).waitFor();
    await checkPage(page, 'staff-rule-owner-gate');
    await signOutOfGate(page);

    // The contributor: password, then the rule's e-mail code (the hosted page offers only that).
    await page.goto(`${site.origin}/auth/sign-in?returnTo=${encodeURIComponent('/admin')}`);
    await ready(page);
    await submitSignIn(page, CONTRIBUTOR_EMAIL, CONTRIBUTOR_PASSWORD);
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await page.getByRole('radio').count(), 'the app waiting for activation is not offered').toBe(0);
    const before = shop().mail.count();
    await page.getByRole('button', { name: 'Send the code' }).click();
    await page.getByText(/We sent a code to/).waitFor();
    await checkPage(page, 'staff-rule-email-code');
    const mail = await shop().mail.waitFor(CONTRIBUTOR_EMAIL, () => true, 10_000, before);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code, mail.text).toBeDefined();
    await page.getByLabel('Code from the e-mail').fill(code ?? '');
    await page.getByLabel('Remember this device for 30 days').check();
    await page.getByRole('button', { name: 'Continue' }).click();

    // The back office leads through enrolment instead of showing errors.
    await page.getByRole('heading', { name: 'Set up a second sign-in step' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();
    await checkPage(page, 'staff-rule-gate');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.locator('code.secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await checkPage(page, 'staff-rule-gate-totp');
    await page.getByLabel('The 6-digit code your app shows').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    expect(await page.locator('.recovery-codes code').allTextContents()).toHaveLength(10);
    await checkPage(page, 'staff-rule-gate-codes');
    await page.getByRole('button', { name: 'I saved my codes — continue' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // The back-office profile's Security page: the factor, the recovery codes, this signed-in session.
    await page.getByRole('link', { name: 'Security', exact: true }).click();
    await page.getByRole('heading', { name: 'Signed-in sessions' }).waitFor();
    await page.getByText('· this session').waitFor();
    await page.getByRole('button', { name: 'Remove Authenticator app' }).waitFor();
    await checkPage(page, 'staff-rule-security');

    // Signed out and in again from the remembered device: no second step.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await signInToAdmin(page, site.origin, CONTRIBUTOR_EMAIL, CONTRIBUTOR_PASSWORD, '/admin');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  }, 240_000);
});
