// Where uploaded files live (issue 30: digital goods, product media): a small interface with a
// local-disk default under DATA_DIR/files. An S3-compatible store can implement the same four
// calls. Keys are `<siteId>/<kind>/<id>` made of safe segments only, so a key never leaves the root.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  size: number;
  contentType: string;
}

export interface FileStorage {
  /** Writes the whole stream under `key` (replacing what was there only once it is complete). */
  put(key: string, body: Readable, meta: { contentType: string; maxBytes: number }): Promise<StoredFile>;
  stat(key: string): Promise<StoredFile | undefined>;
  /** The bytes from `start` to `end` inclusive (a range request), or all of them. */
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
}

export class StorageError extends Error {
  constructor(readonly reason: 'KEY' | 'TOO_LARGE', message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A key's segments, each checked (no `..`, no separators, no empty parts). */
export function checkKey(key: string): string[] {
  const parts = key.split('/');
  if (parts.length < 2 || parts.length > 6 || !parts.every((p) => SEGMENT.test(p) && p !== '..' && !p.includes('..'))) {
    throw new StorageError('KEY', `Not a storage key: ${JSON.stringify(key)}`);
  }
  return parts;
}

/** Files on the local disk under `root`, each with a `.json` side file holding its content type. */
export function localDiskStorage(root: string): FileStorage {
  const fileOf = (key: string) => path.join(root, ...checkKey(key));
  const metaOf = (key: string) => `${fileOf(key)}.meta.json`;
  return {
    async put(key, body, meta) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${randomUUID()}.part`;
      let size = 0;
      // The file is opened before anything is written: a stream that opened it by itself could do so
      // after a refusal had already removed it, leaving the part behind.
      const handle = await fs.promises.open(temp, 'w', 0o600);
      try {
        await pipeline(body, async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > meta.maxBytes) throw new StorageError('TOO_LARGE', `The file is larger than ${meta.maxBytes} bytes`);
            yield chunk;
          }
        }, handle.createWriteStream());
        await fs.promises.writeFile(metaOf(key), JSON.stringify({ contentType: meta.contentType, size }), { mode: 0o600 });
        await fs.promises.rename(temp, file);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
      return { size, contentType: meta.contentType };
    },
    async stat(key) {
      try {
        const [stat, meta] = await Promise.all([fs.promises.stat(fileOf(key)), fs.promises.readFile(metaOf(key), 'utf8')]);
        const parsed = JSON.parse(meta) as { contentType?: unknown };
        return { size: stat.size, contentType: typeof parsed.contentType === 'string' ? parsed.contentType : 'application/octet-stream' };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    read(key, range) {
      return fs.createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
      await fs.promises.rm(metaOf(key), { force: true });
    },
  };
}
