/**
 * Reviews and back-in-stock on the storefront in Chromium (issue 24): a member writes a review and
 * edits it, the product page shows its rating (and the served HTML its JSON-LD aggregateRating), a
 * visitor is asked to sign in to write one; a shopper asks to be told about a sold-out size, the
 * owner restocks it and the mail arrives once. axe-clean, photographed at desktop and phone width.
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import { axeViolations, ready, screenshots, type ShopSite, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the reviews browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('reviews and back-in-stock on the storefront', () => {
  const shop = useShop();

  async function check(page: Page, name: string) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name);
  }

  async function register(page: Page, site: ShopSite, email: string) {
    await page.goto(`${site.url}/`);
    await ready(page);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Create an account' }).click();
    // The register page is a chunk of its own: until it arrives the sign-in page, with its own
    // E-mail and Password fields, is still on screen and would take the typing.
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-good-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: /account menu/ }).waitFor();
  }

  async function productBySlug(site: ShopSite, slug: string) {
    const id = site.content.products.find((p) => p.slug === slug)?.id ?? '';
    const res = await shop().t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: apiKey(site) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { product: { id: string; variants: { id: string; choices: Record<string, string> }[] } }).product;
  }

  async function ldJson(site: ShopSite, slug: string): Promise<Record<string, unknown>> {
    const html = (await shop().t.app.inject({ method: 'GET', url: `/products/${slug}`, headers: { host: site.domain } })).body;
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
    return JSON.parse(script) as Record<string, unknown>;
  }

  it('a member writes and edits a review; the page shows the rating, a visitor is asked to sign in', { timeout: 60_000 }, async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    expect(await ldJson(site, 'waxed-canvas-tote')).not.toHaveProperty('aggregateRating');

    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByText('No reviews yet.').waitFor();
    await page.getByRole('link', { name: 'Sign in to write a review' }).waitFor();

    const email = `reviewer.${Date.now()}@example.com`;
    await register(page, site, email);
    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    const form = page.getByRole('form', { name: 'Write a review' });
    await form.getByRole('button', { name: 'Post review' }).click();
    await form.getByText('Choose a rating from 1 to 5 stars').waitFor(); // zod says what is missing
    await form.getByRole('radio', { name: '4 stars' }).check();
    await form.getByLabel('Title').fill('Carries everything');
    await form.getByLabel('Your review').fill('Sturdy canvas, and the strap is long enough to wear across.');
    await form.getByRole('button', { name: 'Post review' }).click();
    const list = page.getByRole('list').filter({ has: page.getByRole('article') });
    await list.getByRole('heading', { name: 'Carries everything' }).waitFor();
    await page.getByRole('img', { name: 'Rated 4.0 out of 5' }).waitFor();
    await page.getByRole('link', { name: '4.0 · 1 review' }).waitFor();

    // Editing: the form comes back filled with the member's review.
    const edit = page.getByRole('form', { name: 'Edit your review' });
    await edit.waitFor();
    expect(await edit.getByLabel('Title').inputValue()).toBe('Carries everything');
    await edit.getByRole('radio', { name: '5 stars' }).check();
    await edit.getByRole('button', { name: 'Save your review' }).click();
    await page.getByRole('img', { name: 'Rated 5.0 out of 5' }).waitFor();
    await check(page, 'product-reviews');

    expect(await ldJson(site, 'waxed-canvas-tote')).toMatchObject({ aggregateRating: { '@type': 'AggregateRating', ratingValue: '5.0', reviewCount: 1 } });

    // A member asking about a sold-out size finds their address filled in.
    await page.goto(`${site.url}/products/linen-camp-shirt`);
    await ready(page);
    await page.getByRole('radio', { name: 'XL', exact: true }).check();
    await page.getByRole('radio', { name: 'Navy (sold out)' }).check();
    await expect.poll(() => page.getByRole('form', { name: "Email me when it's back" }).getByLabel('E-mail').inputValue()).toBe(email);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a shopper asks about a sold-out size; restocking it mails them once', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `waiting.${Date.now()}@example.com`;

    await page.goto(`${site.url}/products/linen-camp-shirt`);
    await ready(page);
    await page.getByRole('radio', { name: 'XL', exact: true }).check();
    await page.getByRole('radio', { name: 'Navy (sold out)' }).check();
    const ask = page.getByRole('form', { name: "Email me when it's back" });
    await ask.getByRole('button', { name: "Email me when it's back" }).click();
    await ask.getByText('Enter an e-mail address like name@example.com').waitFor();
    await check(page, 'product-back-in-stock');
    await ask.getByLabel('E-mail').fill(email);
    await ask.getByRole('button', { name: "Email me when it's back" }).click();
    await page.getByText(`Thanks! We will e-mail ${email} when Linen Camp Shirt · XL · Navy is back in stock.`).waitFor();

    const product = await productBySlug(site, 'linen-camp-shirt');
    const xlNavy = product.variants.find((v) => v.choices.Size === 'XL' && v.choices.Colour === 'Navy');
    expect(xlNavy).toBeDefined();
    const restock = async (quantity: number) => {
      const res = await shop().t.app.inject({ method: 'PATCH', url: `/stores/v2/inventoryItems/product/${product.id}`, headers: apiKey(site), payload: { inventoryItem: { trackQuantity: true, variants: [{ variantId: xlNavy?.id, quantity }] } } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const before = shop().mail.count();
    await restock(4);
    const mail = await shop().mail.waitFor(email, (m) => /back in stock/i.test(m.subject), 10_000, before);
    expect(mail.text).toContain(`${site.url}/products/linen-camp-shirt`);
    // Sold out and back again: the request was answered, no second mail is queued.
    await restock(0);
    await restock(2);
    const queued = await shop().t.db.query<{ n: string }>("SELECT count(*)::text AS n FROM mail_outbox WHERE site_id = $1 AND kind = 'BACK_IN_STOCK'", [site.siteId]);
    expect(queued[0].n).toBe('1');
    expect(errors).toEqual([]);
    await page.close();
  });
});
