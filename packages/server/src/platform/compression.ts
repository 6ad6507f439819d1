// Compression of what the server writes as it answers: API answers and rendered pages above a
// size, in brotli or gzip as the client accepts. The web build's static files are compressed at
// build time and served as they are (see services/storefront/routes.ts), so no request pays for them.
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import zlib from 'node:zlib';

/**
 * Answers smaller than this go out as they are: a small JSON answer (a cart, a token) gains a
 * few hundred bytes at most and would pay the compressor's CPU on every request.
 */
export const COMPRESS_THRESHOLD_BYTES = 2048;

/** Text, JSON, XML and JavaScript; never an event stream, an image or other binary upload. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|javascript(?:;|$)/u;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    // Quality 4 (the plugin's default) for answers made per request: near gzip's speed, smaller.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 6 },
  });
}
