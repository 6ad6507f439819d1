import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { checkKey, localDiskStorage, StorageError } from './storage.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('local disk storage', () => {
  const storage = localDiskStorage(root);

  it('keeps a file with its content type and reads it whole or by range', async () => {
    const stored = await storage.put('site-1/downloads/a1', Readable.from([Buffer.from('hello '), Buffer.from('world')]), { contentType: 'application/pdf', maxBytes: 1000 });
    expect(stored).toEqual({ size: 11, contentType: 'application/pdf' });
    expect(await storage.stat('site-1/downloads/a1')).toEqual({ size: 11, contentType: 'application/pdf' });
    expect(await text(storage.read('site-1/downloads/a1'))).toBe('hello world');
    expect(await text(storage.read('site-1/downloads/a1', { start: 6, end: 10 }))).toBe('world');
    await storage.delete('site-1/downloads/a1');
    expect(await storage.stat('site-1/downloads/a1')).toBeUndefined();
  });

  it('refuses a file over the size limit and leaves nothing behind', async () => {
    await expect(storage.put('site-1/downloads/big', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { contentType: 'application/zip', maxBytes: 1000 }))
      .rejects.toMatchObject({ reason: 'TOO_LARGE' });
    expect(await storage.stat('site-1/downloads/big')).toBeUndefined();
    expect(fs.readdirSync(path.join(root, 'site-1', 'downloads')).filter((f) => f.startsWith('big'))).toEqual([]);
  });

  it('never lets a key leave the root', () => {
    for (const bad of ['../etc/passwd', 'site/../../x', '/abs/path', 'site//x', 'single', 'site/.hidden', 'site/a\\b']) {
      expect(() => checkKey(bad), bad).toThrow(StorageError);
    }
    expect(checkKey('site-1/media/photo.jpg')).toEqual(['site-1', 'media', 'photo.jpg']);
  });
});
