// Requests the server makes to itself in-process (server rendering calls the API through Fastify
// inject). They carry a per-process secret, so no outside caller can pass for one; the page
// request that caused them was already counted, so rate limits let them through.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const INTERNAL_REQUEST_HEADER = 'x-bodega-internal';
const SECRET = randomBytes(24).toString('base64url');

export function internalRequestHeaders(): Record<string, string> {
  return { [INTERNAL_REQUEST_HEADER]: SECRET };
}

export function isInternalRequest(req: FastifyRequest): boolean {
  return req.headers[INTERNAL_REQUEST_HEADER] === SECRET;
}
