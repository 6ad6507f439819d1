/**
 * Product pictures in Chromium: the owner uploads two pictures on the product form (the file
 * picker, several at once), gives one alt text, makes it the main picture from the keyboard and
 * sets it as the Blue choice's picture; the shop's product page then shows it at the width its
 * `srcset`/`sizes` ask for (the decoded picture is that wide), preloaded in the served HTML, and
 * picking Blue brings the choice's picture to the front. axe and screenshots at desktop and phone
 * width (e2e/output/media-*). Needs `npm run build` and /usr/bin/chromium.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { ready, useShop } from './shop.js';
import { checkPage, signInToAdmin } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the product pictures browser test: ${CHROMIUM} is missing.`);

const PASSWORD = 'owner-password-1';

async function photo(color: string, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="#f3efe7"/><circle cx="600" cy="450" r="300" fill="${color}"/><text x="600" y="470" font-size="80" text-anchor="middle" fill="#fff">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

describe.skipIf(!hasChromium)('product pictures in Chromium', () => {
  const shop = useShop();

  it('uploads pictures in the back office and shows them in the shop at the size the page asks for', async () => {
    const n = Date.now();
    const site = await shop().t.createShop({ name: 'Picture store', ownerEmail: `owner.media.${n}@example.com`, ownerPassword: PASSWORD, demo: false });
    const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const created = await shop().t.app.inject({
      method: 'POST', url: '/stores/v1/products', headers: key,
      payload: { product: { name: 'Stoneware Mug', priceData: { price: 18 }, manageVariants: true, productOptions: [{ name: 'Color', choices: [{ value: 'Red', description: 'Red' }, { value: 'Blue', description: 'Blue' }] }] } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const product = created.json().product as { id: string; slug: string };

    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, site.origin, `owner.media.${n}@example.com`, PASSWORD, `/admin/products/${product.id}`);
    await owner.getByRole('heading', { name: 'Pictures' }).waitFor();

    await owner.locator('input[type=file]').setInputFiles([
      { name: 'red.jpg', mimeType: 'image/jpeg', buffer: await photo('#b3362b', 'RED') },
      { name: 'blue.jpg', mimeType: 'image/jpeg', buffer: await photo('#2b4db3', 'BLUE') },
    ]);
    const pictures = owner.getByRole('list', { name: 'Pictures, in order' }).getByRole('listitem');
    await expect.poll(() => pictures.count()).toBe(2);
    await owner.getByRole('list', { name: 'Uploads' }).waitFor({ state: 'detached' });
    // Uploads finish in any order; find the blue one by its file's turn in the list.
    const order = await pictures.evaluateAll((items) => items.map((li) => li.querySelector('img')?.getAttribute('src') ?? ''));
    expect(order.every((src) => /^\/media\/u\/[^/]+\/[0-9a-f]{64}\?w=640$/.test(src))).toBe(true);
    expect(await pictures.first().textContent()).toContain('1200×900');

    // The second picture becomes the main one from the keyboard, then gets its alt text.
    await owner.getByRole('button', { name: 'Move picture 2 earlier' }).focus();
    await owner.keyboard.press('Enter');
    await owner.getByLabel('Alt text of picture 1').fill('A mug, first of two');
    await owner.getByLabel('Alt text of picture 2').fill('A mug, second of two');
    await owner.getByLabel('Color: Blue').selectOption({ label: 'Picture 1: A mug, first of two' });
    await checkPage(owner, 'media-admin-product');
    await owner.getByRole('button', { name: 'Save changes' }).click();
    await owner.getByText('Saved.').waitFor();

    const saved = (await shop().t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${product.id}`, headers: key })).json().product;
    const main = saved.media.mainMedia.image as { url: string; width: number; height: number; altText: string };
    expect(main).toMatchObject({ width: 1200, height: 900, altText: 'A mug, first of two' });
    expect(saved.productOptions[0].choices.find((c: { value: string }) => c.value === 'Blue').media.mainMedia.image.url).toBe(main.url);
    const mainPath = new URL(main.url).pathname;

    // The served page preloads the main picture in the sizes its <img> picks from.
    const html = (await shop().t.app.inject({ method: 'GET', url: `/products/${product.slug}`, headers: { host: new URL(site.origin).host, accept: 'text/html' } })).body;
    expect(html).toMatch(new RegExp(`<link rel="preload" as="image" href="${mainPath}\\?w=640" imagesrcset="${mainPath}\\?w=160 160w, [^"]*" imagesizes="[^"]+"`));

    const shopper = await shop().chromium.context.newPage();
    shopper.on('pageerror', (e) => errors.push(e.message));
    const types = new Map<string, string | undefined>();
    shopper.on('response', (r) => { if (r.request().resourceType() === 'image') types.set(r.url(), r.headers()['content-type']); });
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await shopper.setViewportSize({ width, height });
      await shopper.goto(`${site.origin}/products/${product.slug}`);
      await ready(shopper);
      const img = shopper.getByRole('img', { name: 'A mug, first of two' });
      await img.waitFor();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      // The bytes behind currentSrc, decoded (naturalWidth is scaled by the srcset's w descriptor).
      const shown = await img.evaluate(async (el: HTMLImageElement) => {
        const res = await fetch(el.currentSrc, { headers: { accept: 'image/avif,image/webp,*/*' } });
        const bitmap = await createImageBitmap(await res.blob());
        return { src: el.currentSrc, natural: bitmap.width, type: res.headers.get('content-type'), css: el.getBoundingClientRect().width, dpr: window.devicePixelRatio, w: el.getAttribute('width'), h: el.getAttribute('height') };
      });
      const asked = Number(new URL(shown.src).searchParams.get('w'));
      // The smallest size at least as wide as the picture is shown, and the picture decoded is that wide.
      expect(asked, JSON.stringify(shown)).toBeGreaterThanOrEqual(shown.css * shown.dpr);
      expect(shown.natural).toBe(asked);
      expect([shown.w, shown.h]).toEqual(['1200', '900']);
      // Chromium's own request for the <img> takes AVIF.
      expect(types.get(shown.src)).toBe('image/avif');
    }

    // Another picture shown, then picking Blue brings its own picture back to the front.
    await shopper.getByRole('button', { name: 'Picture 2 of 2' }).click();
    await shopper.getByRole('img', { name: 'A mug, second of two' }).waitFor();
    await shopper.getByRole('radio', { name: /Blue/ }).check({ force: true });
    await shopper.getByRole('img', { name: 'A mug, first of two' }).waitFor();
    await checkPage(shopper, 'media-shop-product');
    expect(errors).toEqual([]);
  }, 240_000);
});
