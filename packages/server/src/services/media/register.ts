// Builds the uploaded pictures' service for an app (app.ts registers its routes): on the file storage
// main passes (DATA_DIR/files), or — for tests and tools — on a directory of the app's own, removed
// when it closes; it gives the catalog the real size of an uploaded picture.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import { localDiskStorage, type FileStorage } from '../../platform/storage.js';
import { MediaService } from './service.js';
import type { CatalogService } from '../catalog/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

export async function mediaService(app: FastifyInstance, deps: { db: Db; now: () => Date; storage?: FileStorage; catalog: CatalogService }): Promise<MediaService> {
  let storage = deps.storage;
  if (!storage) {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bodega-files-'));
    app.addHook('onClose', async () => fs.promises.rm(dir, { recursive: true, force: true }));
    storage = localDiskStorage(dir);
  }
  const media = new MediaService(deps.db, deps.now, storage);
  app.decorate('media', media);
  deps.catalog.useMediaSizes((ctx, items) => media.ownSizes(ctx, items));
  return media;
}
