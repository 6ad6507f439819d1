// Uploaded product pictures: the original kept as sent (type sniffed, size and pixels limited),
// and sizes in modern formats made from it on first request, once, and kept in the file storage.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Db } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { siteContext, withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import type { FileStorage } from '../../platform/storage.js';
import { sniffImageType } from './sniff.js';
import { findMediaFile, insertMediaFile, type MediaFile } from './store.js';

export type { MediaFile } from './store.js';

/** The widths a picture is served at; a wider one than the original is served at the original's. */
export const MEDIA_WIDTHS = [160, 320, 640, 960, 1280, 1920] as const;
export const MEDIA_FORMATS = ['avif', 'webp', 'jpeg', 'png'] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];
/** Largest upload. */
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;
/** Largest picture in pixels (a small file can decode to a huge one). */
export const MAX_MEDIA_PIXELS = 40_000_000;
export const MEDIA_TYPES_TEXT = 'a JPEG, PNG, WebP, AVIF or GIF picture';

const CONTENT_TYPES: Record<MediaFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' };

export interface Rendition {
  key: string;
  contentType: string;
  size: number;
}

const originalKey = (siteId: string, hash: string) => `${siteId}/media/${hash}/original`;

export const MEDIA_PATH = '/media/u';
/** Where a site's picture is served (a path on this server; the wire makes it absolute). */
export const mediaPath = (siteId: string, hash: string) => `${MEDIA_PATH}/${siteId}/${hash}`;
/** An uploaded picture's address, on any host this server answers on, or as a path. */
const OWN_MEDIA = /^(?:https?:\/\/[^/]+)?\/media\/u\/([A-Za-z0-9-]+)\/([0-9a-f]{64})$/;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The best format the browser takes: AVIF, then WebP, else the original's own family. */
export function formatFor(accept: string | undefined, original: MediaFile['contentType']): MediaFormat {
  const types = (accept ?? '').toLowerCase();
  if (types.includes('image/avif')) return 'avif';
  if (types.includes('image/webp')) return 'webp';
  return original === 'image/jpeg' ? 'jpeg' : 'png';
}

export class MediaService {
  /** Sizes being made now, by storage key: a second request for one waits for the first. */
  private readonly making = new Map<string, Promise<Rendition>>();
  /** How many sizes were made since start (tests check that concurrent first requests make one). */
  made = 0;

  constructor(private readonly db: Db, private readonly now: () => Date, private readonly storage: FileStorage) {}

  /** Keeps an uploaded picture; the same bytes uploaded twice are one picture. */
  async upload(ctx: RequestContext, bytes: Buffer, fileName: string): Promise<MediaFile> {
    const refuse = (description: string) => ApiError.validation([{ field: 'file', rule: 'FORMAT', description }]);
    if (bytes.length === 0) throw refuse('the file is empty');
    if (bytes.length > MAX_MEDIA_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `A picture may be at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`);
    const contentType = sniffImageType(bytes);
    if (!contentType) throw refuse(`must be ${MEDIA_TYPES_TEXT}`);
    const meta = await sharp(bytes, { limitInputPixels: MAX_MEDIA_PIXELS }).metadata().catch(() => undefined);
    if (!meta?.width || !meta.height) throw refuse('the picture cannot be read');
    if (meta.width * meta.height > MAX_MEDIA_PIXELS) throw refuse(`the picture is larger than ${MAX_MEDIA_PIXELS} pixels`);
    // As shown: a phone photo's EXIF orientation 5–8 turns it a quarter.
    const turned = (meta.orientation ?? 1) >= 5;
    const hash = createHash('sha256').update(bytes).digest('hex');
    const file: MediaFile = {
      hash, contentType, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height,
      sizeBytes: bytes.length, fileName: fileName.slice(0, 200), createdDate: ctx.now(),
    };
    await this.storage.put(originalKey(ctx.siteId, hash), Readable.from([bytes]), { contentType, maxBytes: MAX_MEDIA_BYTES });
    return withTransaction(ctx, async (tx) => {
      const added = await insertMediaFile(tx, file);
      const saved = added ? file : await findMediaFile(tx, hash);
      if (!saved) throw new Error(`The picture ${hash} vanished while it was uploaded`);
      await recordAudit(tx, {
        action: 'media.uploaded', objectType: 'media', objectId: hash,
        after: { fileName: saved.fileName, contentType, width: saved.width, height: saved.height, sizeBytes: saved.sizeBytes },
      });
      return saved;
    });
  }

  /**
   * The stored file to answer with: the original when neither width nor format is asked, else
   * the size (never wider than the original) in the format, made now if it is the first request.
   */
  async rendition(siteId: string, hash: string, asked: { width?: number; format?: MediaFormat; accept?: string }): Promise<Rendition> {
    if (asked.width !== undefined && !(MEDIA_WIDTHS as readonly number[]).includes(asked.width)) {
      throw ApiError.validation([{ field: 'w', rule: 'VALIDATION', description: `must be one of ${MEDIA_WIDTHS.join(', ')}` }]);
    }
    const file = await findMediaFile(siteContext(this.db, siteId, this.now), hash);
    if (!file) throw ApiError.notFound('MEDIA_NOT_FOUND', 'No such picture');
    if (asked.width === undefined && asked.format === undefined) {
      return { key: originalKey(siteId, hash), contentType: file.contentType, size: file.sizeBytes };
    }
    const width = Math.min(asked.width ?? file.width, file.width);
    const format = asked.format ?? formatFor(asked.accept, file.contentType);
    const key = `${siteId}/media/${hash}/w${width}.${format}`;
    const stored = await this.storage.stat(key);
    if (stored) return { key, contentType: stored.contentType, size: stored.size };
    let making = this.making.get(key);
    if (!making) {
      making = this.make(siteId, hash, key, width, format).finally(() => this.making.delete(key));
      this.making.set(key, making);
    }
    return making;
  }

  /**
   * Product media as the catalog keeps them: a picture uploaded to this site by its path (the
   * host may change) with its real size, whatever the caller said; anything else unchanged.
   */
  async ownSizes<T extends { url: string; width: number; height: number }>(ctx: SiteContext, items: T[]): Promise<T[]> {
    return Promise.all(items.map(async (item) => {
      const match = OWN_MEDIA.exec(item.url);
      if (!match || match[1] !== ctx.siteId) return item;
      const file = await findMediaFile(ctx, match[2]!);
      return file ? { ...item, url: mediaPath(ctx.siteId, file.hash), width: file.width, height: file.height } : item;
    }));
  }

  read(rendition: Rendition): Readable {
    return this.storage.read(rendition.key);
  }

  private async make(siteId: string, hash: string, key: string, width: number, format: MediaFormat): Promise<Rendition> {
    const original = await readAll(this.storage.read(originalKey(siteId, hash)));
    let image = sharp(original, { limitInputPixels: MAX_MEDIA_PIXELS }).rotate().resize({ width, withoutEnlargement: true });
    if (format === 'avif') image = image.avif({ quality: 55, effort: 2 });
    else if (format === 'webp') image = image.webp({ quality: 78 });
    else if (format === 'jpeg') image = image.jpeg({ quality: 82, mozjpeg: true });
    else image = image.png();
    const bytes = await image.toBuffer();
    const contentType = CONTENT_TYPES[format];
    const stored = await this.storage.put(key, Readable.from([bytes]), { contentType, maxBytes: MAX_MEDIA_BYTES * 4 });
    this.made++;
    return { key, contentType, size: stored.size };
  }
}
