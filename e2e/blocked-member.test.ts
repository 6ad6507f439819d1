/**
 * A member blocked in the back office while signed in to the storefront in Chromium: their next
 * page finds the server refusing their tokens (401), and the storefront signs them out (the header
 * offers "Sign in" again) instead of showing them as signed in until the token expires.
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { ready, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the blocked-member browser test: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('a blocked member in Chromium', () => {
  const shop = useShop();

  it('is signed out of the storefront on their next page', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `blocked.${Date.now()}@example.com`;

    await page.goto(`${site.url}/`);
    await ready(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();

    const [member] = await shop().t.db.query<{ member_id: string }>(
      'SELECT member_id FROM members WHERE site_id = $1 AND lower(login_email) = $2', [site.siteId, email]);
    const blocked = await shop().t.app.inject({
      method: 'POST', url: `/members/v1/members/${member.member_id}/block`,
      headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: {},
    });
    expect(blocked.statusCode, blocked.body).toBe(200);

    await page.goto(`${site.url}/account`);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('button', { name: /account menu/ }).count()).toBe(0);
    // Signed out for good: the stored tokens are a visitor's now.
    await page.reload();
    await ready(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);
});
