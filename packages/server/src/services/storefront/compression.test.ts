import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { createProduct, STORES_APP_ID } from '../../test/commerce.js';
import { COMPRESS_THRESHOLD_BYTES, PAGE_COMPRESS_THRESHOLD_BYTES } from '../../platform/compression.js';

const PRECOMPRESS = fileURLToPath(new URL('../../../../../apps/web/scripts/precompress.mjs', import.meta.url));

/** A web build as `npm run build` leaves it: a big script, a tiny file, and the build's own precompression. */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-compress-'));
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word number ${i}`))};\n`;
const TEMPLATE = `<!doctype html><html lang="en"><head><!--app-head--><script type="module" src="/assets/index-abc123.js"></script></head>
<body><div id="root"><!--app-html--></div></body></html>`;
// A page big enough to be compressed: the renderer writes a long list.
const ENTRY_SERVER = `export async function render() {
  return { status: 200, head: '<title>Shop</title>', html: '<ul>' + Array.from({ length: 400 }, (_, i) => '<li>Item ' + i + '</li>').join('') + '</ul>', state: null };
}`;
function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(webDir, file)), { recursive: true });
  fs.writeFileSync(path.join(webDir, file), text);
}
write('client/index.html', TEMPLATE);
write('client/assets/index-abc123.js', SCRIPT);
write('client/robots-extra.txt', 'tiny');
write('server/entry-server.js', ENTRY_SERVER);
execFileSync(process.execPath, [PRECOMPRESS, path.join(webDir, 'client')]);

let t: TestApp;
let shop: TestSite;
const HOST = `compress-${randomUUID().slice(0, 8)}.localhost`;
beforeAll(async () => {
  t = await testApp({ webDir });
  shop = await t.createSite({ name: 'Compressed shop', domains: [HOST] });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const varies = (headers: Record<string, unknown>) => String(headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

describe('the build precompresses, the server sends the precompressed file', () => {
  it('writes a .br and a .gz beside each text asset that shrinks, and none for the template or a file too small to gain', () => {
    const assets = fs.readdirSync(path.join(webDir, 'client/assets')).sort();
    expect(assets).toEqual(['index-abc123.js', 'index-abc123.js.br', 'index-abc123.js.gz']);
    expect(fs.existsSync(path.join(webDir, 'client/index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(webDir, 'client/robots-extra.txt.br'))).toBe(false);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(webDir, 'client/assets/index-abc123.js.br'))).toString()).toBe(SCRIPT);
  });

  it('sends brotli to a client that accepts it, gzip to one that accepts only gzip, the file itself otherwise; always Vary', async () => {
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(br.headers)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(varies(gz.headers)).toBe(true);
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-abc123.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain.headers)).toBe(true);
    expect(plain.body).toBe(SCRIPT);
  });

  it('gives the compressed siblings no address of their own', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz']) {
      expect((await get(url, { 'accept-encoding': 'br' })).statusCode).toBe(404);
    }
  });
});

describe('answers made per request', () => {
  it('compresses a rendered page above the threshold', async () => {
    const res = await get('/products', { host: HOST, accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(varies(res.headers)).toBe(true);
    const html = zlib.brotliDecompressSync(res.rawPayload).toString();
    expect(html.length).toBeGreaterThan(PAGE_COMPRESS_THRESHOLD_BYTES);
    expect(html).toContain('<li>Item 399</li>');
    expect(html).toContain(`"clientId":"${shop.clientId}"`);
  });

  it('compresses a large API answer with gzip when that is all the client takes', async () => {
    const res = await get('/bodega/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const json = JSON.parse(zlib.gunzipSync(res.rawPayload).toString()) as { openapi?: string };
    expect(json.openapi).toMatch(/^3\./);
  });

  it('leaves small JSON answers (a token, a health check, a cart) as they are, whatever the client accepts', async () => {
    const token = await t.app.inject({ method: 'POST', url: '/oauth2/token', headers: { 'accept-encoding': 'br, gzip' }, payload: { clientId: shop.clientId, grantType: 'anonymous' } });
    expect(token.statusCode).toBe(200);
    expect(token.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(token.headers['content-encoding']).toBeUndefined();
    expect(token.json()).toMatchObject({ access_token: expect.any(String) });
    const products = await Promise.all(['Mug', 'Beans', 'Tote'].map((name) => createProduct(t.app, shop, { name, priceData: { price: 10 } })));
    const lineItems = products.map((p) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId: p.id }, quantity: 1 }));
    const cart = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: (token.json() as { access_token: string }).access_token, 'accept-encoding': 'br, gzip' }, payload: { lineItems } });
    expect(cart.statusCode).toBe(200);
    expect(cart.rawPayload.length).toBeGreaterThan(PAGE_COMPRESS_THRESHOLD_BYTES);
    expect(cart.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(cart.headers['content-encoding']).toBeUndefined();
    const health = await get('/healthz', { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('sends a large answer plain to a client that accepts no encoding', async () => {
    const res = await get('/products', { host: HOST, accept: 'text/html' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('<li>Item 399</li>');
  });
});
