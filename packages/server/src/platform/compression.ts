// Compression of what the server writes as it answers: API answers and rendered pages above a
// size, in brotli or gzip as the client accepts. The web build's static files are compressed at
// build time and served as they are (see services/storefront/routes.ts), so no request pays for them.
import type { FastifyInstance } from 'fastify';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import zlib from 'node:zlib';

/**
 * API answers smaller than this go out as they are: a cart of a few lines (3-4 KB of JSON) gains
 * little over a local network and would pay the compressor's CPU on every read; lists and pages of
 * items, tens of KB, are compressed.
 */
export const COMPRESS_THRESHOLD_BYTES = 8 * 1024;
/** Rendered pages are compressed from 1 KB: they are fetched once per view, over the shopper's link. */
export const PAGE_COMPRESS_THRESHOLD_BYTES = 1024;

/** Text, JSON, XML and JavaScript; never an event stream, an image or other binary upload. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|javascript(?:;|$)/u;

function options(threshold: number): FastifyCompressOptions {
  return {
    encodings: ['br', 'gzip'],
    threshold,
    customTypes: COMPRESSIBLE,
    // Quality 4 (the plugin's default) for answers made per request: near gzip's speed, smaller.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 6 },
  };
}

/** A route's `compress` option for rendered pages (a route's options replace the global ones whole). */
export const PAGE_COMPRESSION = options(PAGE_COMPRESS_THRESHOLD_BYTES);

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, ...options(COMPRESS_THRESHOLD_BYTES) });
}
