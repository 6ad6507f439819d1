// Uploaded pictures in the catalog's Wix shapes: their real size whatever the caller says, order
// (the first is the main picture), alt text, a picture per option choice; ids stay across saves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, CALLERS, type BackOfficeSite } from '../../test/backoffice.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let front: string;
let back: string;
let productId: string;

interface WireMedia { id: string; image: { url: string; width: number; height: number; altText?: string } }
interface WireProduct { media: { mainMedia?: WireMedia; items: WireMedia[] }; productOptions: { name: string; choices: { value: string; media: { mainMedia?: WireMedia; items: WireMedia[] } }[] }[] }

async function uploaded(width: number, height: number, color: string): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
  const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/media', headers: { ...a.headers.apiKey, 'content-type': 'image/png' }, payload: bytes });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().media.url as string;
}

async function product(id = productId, site = a): Promise<WireProduct> {
  const res = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: site.headers.apiKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product as WireProduct;
}

const save = (media: { url: string; altText?: string }[]) => t.app.inject({
  method: 'PATCH', url: `/stores/v1/products/${productId}`, headers: a.headers.apiKey,
  payload: { product: { media: { items: media.map((m) => ({ image: { url: m.url, ...(m.altText && { altText: m.altText }) } })) } } },
});

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  front = await uploaded(900, 1200, '#a33');
  back = await uploaded(1000, 500, '#33a');
  const created = await t.app.inject({
    method: 'POST', url: '/stores/v1/products', headers: a.headers.apiKey,
    payload: { product: {
      name: 'Mug', priceData: { price: 12 }, manageVariants: true,
      productOptions: [{ name: 'Color', choices: [{ value: 'Red', description: 'Red' }, { value: 'Blue', description: 'Blue' }] }],
      media: { items: [{ image: { url: front, width: 1, height: 1, altText: 'The front' } }, { image: { url: back } }] },
    } },
  });
  expect(created.statusCode, created.body).toBe(200);
  productId = created.json().product.id;
});
afterAll(async () => t.close());

describe('uploaded pictures on the wire', () => {
  it('appear in media.mainMedia and media.items with their real width and height and their alt text', async () => {
    const p = await product();
    expect(p.media.items.map((m) => [m.image.url, m.image.width, m.image.height, m.image.altText])).toEqual([
      [front, 900, 1200, 'The front'], [back, 1000, 500, undefined],
    ]);
    expect(p.media.mainMedia?.image.url).toBe(front);
  });

  it('reorder: the first is the main picture, and each keeps its id; alt text changes', async () => {
    const before = await product();
    const ids = Object.fromEntries(before.media.items.map((m) => [m.image.url, m.id]));
    expect((await save([{ url: back, altText: 'The back' }, { url: front, altText: 'The front, again' }])).statusCode).toBe(200);
    const p = await product();
    expect(p.media.mainMedia?.image).toMatchObject({ url: back, altText: 'The back', width: 1000 });
    expect(p.media.items.map((m) => [m.id, m.image.altText])).toEqual([[ids[back], 'The back'], [ids[front], 'The front, again']]);
  });

  it('addProductMedia with an uploaded picture takes its real size', async () => {
    const side = await uploaded(640, 480, '#3a3');
    const res = await t.app.inject({ method: 'POST', url: `/stores/v1/products/${productId}/media`, headers: a.headers.apiKey, payload: { media: [{ url: side }] } });
    expect(res.statusCode, res.body).toBe(200);
    const added = (await product()).media.items.find((m) => m.image.url === side);
    expect([added?.image.width, added?.image.height]).toEqual([640, 480]);
  });

  it('a picture per choice: added and removed through the Wix calls, kept across a save of the options', async () => {
    const items = (await product()).media.items;
    const frontId = items.find((m) => m.image.url === front)!.id;
    const add = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${productId}/choices/media`, headers: a.headers.apiKey, payload: { media: [{ option: 'Color', choice: 'Red', mediaIds: [frontId] }] } });
    expect(add.statusCode, add.body).toBe(200);
    const red = () => product().then((p) => p.productOptions[0]!.choices.find((c) => c.value === 'Red')!);
    expect((await red()).media.mainMedia?.image).toMatchObject({ url: front, width: 900, height: 1200 });
    expect((await red()).media.items).toHaveLength(1);

    const options = await t.app.inject({
      method: 'PATCH', url: `/stores/v1/products/${productId}`, headers: a.headers.apiKey,
      payload: { product: { productOptions: [{ name: 'Color', choices: [{ value: 'Red', description: 'Red' }, { value: 'Blue', description: 'Blue' }, { value: 'Green', description: 'Green' }] }] } },
    });
    expect(options.statusCode, options.body).toBe(200);
    expect((await red()).media.items.map((m) => m.id)).toEqual([frontId]);

    const remove = await t.app.inject({ method: 'POST', url: `/stores/v1/products/${productId}/choices/media/delete`, headers: a.headers.apiKey, payload: { media: [{ option: 'Color', choice: 'Red', mediaIds: [] }] } });
    expect(remove.statusCode, remove.body).toBe(200);
    expect((await red()).media).toEqual({ items: [] });
  });

  it('an unknown choice or media id is a 400 in the error shape', async () => {
    for (const media of [[{ option: 'Size', choice: 'XL', mediaIds: [] }], [{ option: 'Color', choice: 'Red', mediaIds: ['nope'] }]]) {
      const res = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${productId}/choices/media`, headers: a.headers.apiKey, payload: { media } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.validationError.fieldViolations[0].field).toMatch(/^media\[0\]/);
    }
  });

  it('a choice\'s pictures: this site\'s staff succeed; another site finds no product; shoppers and no token are refused', async () => {
    const frontId = (await product()).media.items.find((m) => m.image.url === front)!.id;
    for (const [method, path] of [['PATCH', 'choices/media'], ['POST', 'choices/media/delete']] as const) {
      const payload = { media: [{ option: 'Color', choice: 'Blue', mediaIds: [frontId] }] };
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ method, url: `/stores/v1/products/${productId}/${path}`, headers: a.headers[who], payload });
        expect(res.statusCode, `${who} ${path}: ${res.body}`).toBe(200);
      }
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ method, url: `/stores/v1/products/${productId}/${path}`, headers: b.headers[who], payload });
        expect(res.statusCode, `other site's ${who} ${path}`).toBe(404);
      }
      for (const who of CALLERS.filter((c) => !['owner', 'contributor', 'apiKey'].includes(c))) {
        const res = await t.app.inject({ method, url: `/stores/v1/products/${productId}/${path}`, headers: a.headers[who], payload });
        expect(res.statusCode, `${who} ${path}`).toBe(who === 'anonymous' ? 401 : 403);
      }
    }
  });
});
