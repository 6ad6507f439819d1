// Product pictures: the back office uploads one (`POST /bodega/v1/media`, the bytes as the body)
// and anyone fetches it at `/media/u/<site>/<hash>`, a size with `?w=`, in the format the Accept
// header prefers (or `format=`). The URL names the bytes, so it is cached for a year.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_MEDIA_BYTES, MEDIA_FORMATS, MEDIA_PATH, mediaPath, type MediaFile, type MediaService } from './service.js';
import { UploadedMediaAnswer } from './wire-schemas.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const UploadQuery = Type.Object({ fileName: Type.Optional(Type.String({ maxLength: 200 })) });
const ServeParams = Type.Object({ siteId: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' }), hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
const ServeQuery = Type.Object({
  w: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  format: Type.Optional(Type.Union(MEDIA_FORMATS.map((f) => Type.Literal(f)))),
});


function toWireMedia(siteId: string, f: MediaFile, publicUrl: string) {
  return {
    id: f.hash, url: `${publicUrl.replace(/\/+$/, '')}${mediaPath(siteId, f.hash)}`, width: f.width, height: f.height,
    contentType: f.contentType, sizeBytes: f.sizeBytes, fileName: f.fileName, createdDate: f.createdDate.toISOString(),
  };
}

export function mediaRoutes(media: MediaService, publicUrl: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // The picture's bytes are the body; what they are is sniffed, whatever this header says.
    const keepBytes = (_req: unknown, body: string | Buffer, done: (err: null, body: Buffer) => void) => done(null, Buffer.isBuffer(body) ? body : Buffer.from(body));
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_MEDIA_BYTES }, keepBytes);
    app.addContentTypeParser(/^image\//, { parseAs: 'buffer', bodyLimit: MAX_MEDIA_BYTES }, keepBytes);

    app.post('/bodega/v1/media', {
      config: { access: 'staff' }, bodyLimit: MAX_MEDIA_BYTES,
      schema: { querystring: UploadQuery, response: { 200: UploadedMediaAnswer } },
    }, async (req) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const file = await media.upload(req.ctx, body, req.query.fileName ?? '');
      return { media: toWireMedia(req.ctx.siteId, file, publicUrl) };
    });

    app.get(`${MEDIA_PATH}/:siteId/:hash`, { schema: { params: ServeParams, querystring: ServeQuery } }, async (req, reply) => {
      const { w, format } = req.query;
      const negotiated = w !== undefined && format === undefined;
      const rendition = await media.rendition(req.params.siteId, req.params.hash, {
        ...(w !== undefined && { width: w }),
        ...(format !== undefined && { format }),
        ...(req.headers.accept !== undefined && { accept: req.headers.accept }),
      });
      reply.header('cache-control', IMMUTABLE).header('content-type', rendition.contentType).header('content-length', rendition.size)
        .header('x-content-type-options', 'nosniff');
      if (negotiated) reply.header('vary', 'Accept');
      return reply.send(media.read(rendition));
    });
  };
}
