// Wires uploaded pictures into the app: the service on the file storage main passes (DATA_DIR/files),
// or — for tests and tools — on a directory of the app's own, removed when it closes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import { localDiskStorage, type FileStorage } from '../../platform/storage.js';
import { mediaRoutes } from './routes.js';
import { MediaService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

export async function registerMedia(app: FastifyInstance, deps: { db: Db; now: () => Date; publicUrl: string; storage?: FileStorage }): Promise<void> {
  let storage = deps.storage;
  if (!storage) {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bodega-files-'));
    app.addHook('onClose', async () => fs.promises.rm(dir, { recursive: true, force: true }));
    storage = localDiskStorage(dir);
  }
  const media = new MediaService(deps.db, deps.now, storage);
  app.decorate('media', media);
  await app.register(mediaRoutes(media, deps.publicUrl));
}
