/**
 * The back office's site scripts in Chromium (issue 24, finding 4): the owner adds a script tag
 * (an empty one is explained first), saves, and the list is what `@wix/astro`'s call answers.
 * axe and screenshots (e2e/output/admin-site-scripts-*).
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { useShop } from './shop.js';
import { checkPage, signInToAdmin } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the site scripts browser test: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@site-scripts.example.com';
const OWNER_PASSWORD = 'owner-password-1';
const TAG = '<script async src="https://analytics.example/tag.js"></script>';

describe.skipIf(!hasChromium)('site scripts in the back office', () => {
  const shop = useShop();

  it('the owner adds a script tag that the site-scripts call then answers', async () => {
    const site = await shop().t.createShop({ name: 'Scripts store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD, demo: false });
    const page = await shop().chromium.context.newPage();
    try {
      await signInToAdmin(page, site.origin, OWNER_EMAIL, OWNER_PASSWORD, '/admin/settings');
      const form = page.getByRole('form', { name: 'Site scripts' });
      await form.getByText('No site scripts.').waitFor();
      await form.getByRole('button', { name: 'Add a script' }).click();
      await form.getByRole('button', { name: 'Save site scripts' }).click();
      await form.getByText('Paste the script tag, or remove this script').waitFor();
      await form.getByLabel('HTML').fill(TAG);
      await form.getByLabel('Where on the page').selectOption('BODY_END');
      await checkPage(page, 'admin-site-scripts');
      await form.getByRole('button', { name: 'Save site scripts' }).click();
      await page.getByText('Site scripts saved.').waitFor();
      const listed = await shop().t.app.inject({ method: 'GET', url: '/assets/scripts/v1/site-scripts', headers: { authorization: await shop().t.visitorToken(site) } });
      expect(listed.json()).toEqual({ siteScripts: [{ position: 'BODY_END', html: TAG }] });
      await page.reload();
      await expect.poll(() => page.getByRole('form', { name: 'Site scripts' }).getByLabel('HTML').inputValue()).toBe(TAG);
    } finally {
      await page.close();
    }
  });
});
