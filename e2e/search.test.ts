/**
 * The catalog search in Chromium, as a visitor: suggestions in the header's combobox (keyboard),
 * the search page's results with the matched words marked, facets as filters kept in the URL (the
 * back button undoes one), the "no results" page with its "did you mean", and the phone layout
 * with the facets in a drawer. axe on each state; screenshots at desktop and phone width.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { axeViolations, ready, screenshots, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the search browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('catalog search in Chromium', () => {
  const shop = useShop();

  async function check(page: Page, name: string, fullPage = true) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name, fullPage);
  }
  // Each flow drives Chromium through a dozen pages; on the shared machine it takes 20–40 s.
  const BROWSER_FLOW_MS = 90_000;
  const count = (page: Page) => page.locator('.page-head [role=status]').textContent({ timeout: 30_000 });

  it('suggests as one types, searches, filters by facets in the URL and offers a near query', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.url}/`);
    await ready(page);

    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.click();
    await box.pressSequentially('swea');
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await listbox.getByRole('option', { name: /Merino Crew Sweater/ }).waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await box.press('ArrowDown');
    await expect.poll(() => box.getAttribute('aria-activedescendant')).toBeTruthy();
    const active = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    await check(page, 'search-suggestions', false);
    await box.press('Escape');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');

    await box.fill('sweater');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=sweater$/);
    await page.getByRole('heading', { name: 'Results for “sweater”' }).waitFor();
    await expect.poll(() => count(page)).toBe('1 product');
    expect(await page.locator('.card-title mark').allTextContents()).toEqual(['Sweater']);

    // Facets: OR within one, AND across them, each pick in the URL; back takes the last one away.
    await page.goto(`${site.url}/search`);
    await page.getByRole('heading', { name: 'Search' }).waitFor();
    await expect.poll(() => count(page)).toBe('13 products');
    const filters = page.getByRole('complementary', { name: 'Filters' });
    await filters.getByRole('group', { name: 'Colour' }).getByRole('checkbox', { name: /Charcoal/ }).click();
    await page.waitForURL(/o\.Colour=Charcoal/);
    await page.waitForFunction(() => document.querySelector('main [role=status]')?.textContent === '2 products');
    await filters.getByRole('group', { name: 'Collection' }).getByRole('checkbox', { name: /Apparel/ }).click();
    await page.waitForURL(/collection=/);
    await page.waitForFunction(() => document.querySelector('main [role=status]')?.textContent === '1 product');
    expect(await page.locator('.card-title').allTextContents()).toEqual(['Merino Crew Sweater']);
    await check(page, 'search-facets');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('main [role=status]')?.textContent === '2 products');
    expect(await filters.getByRole('group', { name: 'Collection' }).getByRole('checkbox', { name: /Apparel/ }).isChecked()).toBe(false);

    // Nothing found: an honest page with a near query and the collections.
    await page.goto(`${site.url}/search?q=swaeter`);
    await page.getByRole('heading', { name: 'No products match “swaeter”' }).waitFor();
    expect(await box.inputValue()).toBe('swaeter');
    await check(page, 'search-no-results');
    await page.getByRole('link', { name: 'sweater' }).click();
    await page.waitForURL(/q=sweater/);
    await page.waitForFunction(() => document.querySelector('main [role=status]')?.textContent === '1 product');
    expect(errors).toEqual([]);
  }, BROWSER_FLOW_MS);

  it('puts the facets in a drawer on a phone', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${site.url}/search?q=linen`);
    await ready(page);
    await page.getByRole('heading', { name: 'Results for “linen”' }).waitFor();
    await page.getByRole('button', { name: /Filters/ }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Filters' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: /Filters/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await drawer.getByRole('checkbox', { name: /Kitchen & Home/ }).click();
    await page.waitForURL(/collection=/);
    expect(await axeViolations(page), 'axe on the facets drawer').toEqual([]);
    await page.screenshot({ path: new URL('./output/search-drawer-phone.png', import.meta.url).pathname });
    await drawer.getByRole('button', { name: /Show 1 product$/ }).click();
    expect(await page.locator('.card-title').allTextContents()).toEqual(['Linen Tea Towels, Set of 2']);
  }, BROWSER_FLOW_MS);
});
