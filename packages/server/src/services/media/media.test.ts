// Uploaded pictures through HTTP: the upload (type sniffed, size read, audited), the sizes served
// in the format the browser takes (read back with sharp), never upscaled, made once, cached a year.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, CALLERS, type BackOfficeSite } from '../../test/backoffice.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let jpeg: Buffer;

const AVIF = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
const WEBP = 'image/webp,*/*';

/** An 800×600 picture with some detail (a flat one would say little about sizes). */
async function picture(width = 800, height = 600): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#d8c9b0"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#7a3b2e"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

async function upload(site: BackOfficeSite, bytes: Buffer, who: 'owner' | 'apiKey' | 'contributor' = 'owner', contentType = 'image/jpeg') {
  return t.app.inject({ method: 'POST', url: '/bodega/v1/media?fileName=cup.jpg', headers: { ...site.headers[who], 'content-type': contentType }, payload: bytes });
}

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  jpeg = await picture();
});
afterAll(async () => t.close());

describe('uploading a picture', () => {
  it('keeps the original with its real size, under a URL named by its bytes, and writes it to the audit log', async () => {
    const res = await upload(a, jpeg);
    expect(res.statusCode, res.body).toBe(200);
    const media = res.json().media;
    expect(media).toMatchObject({ width: 800, height: 600, contentType: 'image/jpeg', sizeBytes: jpeg.length, fileName: 'cup.jpg' });
    expect(media.url).toMatch(new RegExp(`^http://localhost:3000/media/u/${a.site.siteId}/[0-9a-f]{64}$`));

    const original = await t.app.inject({ method: 'GET', url: new URL(media.url).pathname });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(original.rawPayload.equals(jpeg)).toBe(true);

    const audit = await t.app.inject({ method: 'GET', url: '/bodega/v1/audit-log?action=media.uploaded', headers: a.headers.owner });
    expect(audit.json().entries[0]).toMatchObject({ action: 'media.uploaded', object: { type: 'media', id: media.id }, after: { width: 800, height: 600, contentType: 'image/jpeg' } });
  });

  it('takes the type from the bytes: a PNG sent as octet-stream is a PNG, a text file named .jpg is refused', async () => {
    const png = await sharp(jpeg).png().toBuffer();
    const ok = await upload(a, png, 'owner', 'application/octet-stream');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().media.contentType).toBe('image/png');

    for (const bytes of [Buffer.from('this is not a picture at all'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]) {
      const refused = await upload(a, bytes);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'file', description: expect.stringContaining('JPEG, PNG, WebP, AVIF or GIF') });
    }
    const empty = await upload(a, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
  });

  it('refuses a picture larger than the limit with 413 in the error shape', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(21 * 1024 * 1024)]);
    const res = await upload(a, big);
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json()).toHaveProperty('message');
  });
});

describe('serving sizes', () => {
  let path: string;
  beforeAll(async () => {
    path = new URL((await upload(a, jpeg)).json().media.url).pathname;
  });

  it('answers the asked width in AVIF or WebP by the Accept header, varying by it', async () => {
    for (const [accept, type, format] of [[AVIF, 'image/avif', 'heif'], [WEBP, 'image/webp', 'webp'], ['image/*', 'image/jpeg', 'jpeg']] as const) {
      const res = await t.app.inject({ method: 'GET', url: `${path}?w=320`, headers: { accept } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers.vary).toMatch(/Accept/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 320, 240]);
    }
  });

  it('takes an explicit format without varying', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${path}?w=160&format=png`, headers: { accept: AVIF } });
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers.vary ?? '').not.toMatch(/Accept/);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(160);
  });

  it('never upscales: a width beyond the original answers the original width', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${path}?w=1920`, headers: { accept: WEBP } });
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([800, 600]);
  });

  it('makes a size once, however many first requests ask for it at the same time', async () => {
    const before = t.app.media.made;
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: `${path}?w=640`, headers: { accept: AVIF } })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((r) => r.rawPayload.toString('base64'))).size).toBe(1);
    expect(t.app.media.made - before).toBe(1);
    await t.app.inject({ method: 'GET', url: `${path}?w=640`, headers: { accept: AVIF } });
    expect(t.app.media.made - before).toBe(1);
  });

  it('answers a bad width or format with 400 in the error shape, and an unknown picture with 404', async () => {
    for (const query of ['w=333', 'w=abc', 'format=bmp', 'w=0']) {
      const res = await t.app.inject({ method: 'GET', url: `${path}?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toHaveProperty('details');
    }
    const unknown = await t.app.inject({ method: 'GET', url: `/media/u/${a.site.siteId}/${'0'.repeat(64)}?w=320` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().details.applicationError.code).toBe('MEDIA_NOT_FOUND');
    const otherSite = await t.app.inject({ method: 'GET', url: path.replace(a.site.siteId, b.site.siteId) });
    expect(otherSite.statusCode).toBe(404);
    const badHash = await t.app.inject({ method: 'GET', url: `/media/u/${a.site.siteId}/..%2F..%2Fetc` });
    expect(badHash.statusCode).toBe(400);
  });
});

describe('who may upload', () => {
  it('this site\'s owner, contributor and API key; another site\'s owner and key upload to their own site; shoppers and no token are refused', async () => {
    for (const who of ['owner', 'contributor', 'apiKey'] as const) {
      const res = await upload(a, jpeg, who);
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      expect(res.json().media.url).toContain(`/media/u/${a.site.siteId}/`);
    }
    for (const who of ['owner', 'apiKey'] as const) {
      const res = await upload(b, jpeg, who);
      expect(res.statusCode, `other site's ${who}`).toBe(200);
      expect(res.json().media.url).toContain(`/media/u/${b.site.siteId}/`);
    }
    for (const who of CALLERS.filter((c) => !['owner', 'contributor', 'apiKey'].includes(c))) {
      const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/media', headers: { ...a.headers[who], 'content-type': 'image/jpeg' }, payload: jpeg });
      expect(res.statusCode, who).toBe(who === 'anonymous' ? 401 : 403);
    }
  });
});
