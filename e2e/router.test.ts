/**
 * The app's own router (apps/web/src/router/) in Chromium: a client-side navigation moves focus
 * to the new page's heading, the back and forward buttons return to the page as it was (query
 * string and scroll position kept), a modified click is left to the browser, and an unknown path
 * inside a page's section is the 404 page. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { ready, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the router browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('router in Chromium', () => {
  const shop = useShop();

  it('navigates in the page, keeps the query string and the scroll position on back and forward, and focuses the new heading', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 500 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    let documents = 0;
    page.on('request', (request) => { if (request.resourceType() === 'document') documents += 1; });

    await page.goto(`${site.url}/products?sort=price_desc`);
    await ready(page);
    expect(documents).toBe(1);
    const marker = await page.evaluate(() => { (window as unknown as { marker: number }).marker = 1; return 1; });

    await page.getByRole('complementary', { name: 'Filters' }).getByRole('link', { name: 'Apparel' }).click();
    await page.waitForURL(/collection=apparel/);
    await page.getByRole('heading', { name: 'Apparel' }).waitFor();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('price_desc');

    const card = page.getByRole('link', { name: 'Linen Camp Shirt' });
    await card.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await card.click();
    await page.getByRole('heading', { name: 'Linen Camp Shirt', level: 1 }).waitFor();
    // The new page starts at the top with its heading focused (a screen reader announces it).
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await page.getByRole('heading', { name: 'Apparel' }).waitFor();
    expect(new URL(page.url()).search).toContain('collection=apparel');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
    await page.goForward();
    await page.getByRole('heading', { name: 'Linen Camp Shirt', level: 1 }).waitFor();
    await page.goBack();
    await page.goBack();
    await page.getByRole('heading', { name: 'All products' }).waitFor();
    expect(new URL(page.url()).search).toBe('?sort=price_desc');

    // All of it in one document: nothing reloaded the page.
    expect(documents).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);

    // A click with a modifier is the browser's (a new tab), not a navigation in this page.
    const popup = page.context().waitForEvent('page');
    await page.getByRole('link', { name: 'Linen Camp Shirt' }).click({ modifiers: ['ControlOrMeta'] });
    const opened = await popup;
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/products/linen-camp-shirt');
    await opened.close();
    expect(new URL(page.url()).pathname).toBe('/products');

    // An unknown page below a section (here the account) is the shop’s 404 page.
    await page.goto(`${site.url}/account/nowhere`);
    await page.getByRole('heading', { name: /can’t find that page/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
