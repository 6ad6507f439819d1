// Builds the uploaded pictures' service for an app (app.ts registers its routes) on the app's file
// storage; it gives the catalog the real size of an uploaded picture.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { FileStorage } from '../../platform/storage.js';
import { MediaService } from './service.js';
import type { CatalogService } from '../catalog/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

export function mediaService(app: FastifyInstance, deps: { db: Db; now: () => Date; storage: FileStorage; catalog: CatalogService }): MediaService {
  const media = new MediaService(deps.db, deps.now, deps.storage);
  app.decorate('media', media);
  deps.catalog.useMediaSizes((ctx, items) => media.ownSizes(ctx, items));
  return media;
}
