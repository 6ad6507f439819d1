/**
 * A member's side of the storefront in Chromium: a visitor fills a cart, registers on a site that
 * verifies e-mail (the code read from the captured SMTP message), finds the cart in their account,
 * places an order and sees it in ORDERS; every account and sign-in page is axe-clean and
 * photographed at desktop and phone width. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { axeViolations, checkOutWithPickup, freeShipping, ready, screenshots, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the account browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('member account in Chromium', () => {
  const shop = useShop();

  async function check(page: Page, name: string) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name);
  }

  it('registers with the e-mailed code, finds the visitor cart, orders, and sees the order in ORDERS', async () => {
    const site = await shopSite(shop(), 'email-verification');
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `member.${Date.now()}@example.com`;

    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const drawer = page.getByRole('dialog', { name: /Your cart/ });
    await drawer.getByRole('link', { name: 'Waxed Canvas Tote' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The button looks ready before the form is filled; pressing it says what is missing, at the fields.
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter your e-mail address').waitFor();
    await page.getByText('Enter your password').waitFor();
    await check(page, 'sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await check(page, 'forgot-password');
    await page.goBack();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create account' }).isEnabled()).toBe(true);
    await check(page, 'register');

    const before = shop().mail.count();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await check(page, 'verify');
    const mail = await shop().mail.waitFor(email, (m) => /verification code/i.test(m.subject), 10_000, before);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code, mail.text).toBeDefined();
    await page.getByLabel('Verification code').fill(code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();

    // Signed in: back on the product they came from, and the visitor's cart is now the member's.
    await page.waitForURL(/\/products\/waxed-canvas-tote$/);
    await page.getByRole('button', { name: /account menu/ }).waitFor();
    await page.getByRole('button', { name: 'Cart, 1 item' }).waitFor();
    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await check(page, 'account-profile');
    await page.getByLabel('New password', { exact: true }).fill('another-good-password');
    await page.getByLabel('New password again').fill('another-good-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();

    await page.goto(`${site.url}/cart`);
    await page.getByRole('link', { name: 'Waxed Canvas Tote' }).waitFor();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    const { number } = await checkOutWithPickup(page, { email, firstName: 'Grace', lastName: 'Member' }, () => screenshots(page, 'checkout-pickup'));
    await screenshots(page, 'thank-you-pickup');

    await page.getByRole('link', { name: 'See your orders' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.getByRole('link', { name: `Order #${number}` }).waitFor();
    await check(page, 'account-orders');
    await page.getByRole('link', { name: `Order #${number}` }).click();
    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await freeShipping(page);
    await check(page, 'account-order');

    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Addresses' }).click();
    await page.getByRole('heading', { name: 'Addresses' }).waitFor();
    await page.getByRole('button', { name: 'Add an address' }).click();
    await page.getByLabel('Street and number').fill('5 Elm St');
    await page.getByLabel('City').fill('Boston');
    await page.getByLabel('Postal code').fill('02108');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('5 Elm St').first().waitFor();
    await check(page, 'account-addresses');
    for (const section of ['bookings', 'subscriptions', 'events']) {
      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: section.charAt(0).toUpperCase() + section.slice(1) }).click();
      await page.waitForURL(new RegExp(`/account/${section}$`));
      await page.getByRole('heading', { name: `No ${section}` }).waitFor();
      await check(page, `account-${section}`);
    }

    await page.getByRole('button', { name: /account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${site.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);
});
