// A fetch that reaches this server's own API in-process (Fastify inject): server rendering
// calls the API the way the browser app does, without a socket.
import type { FastifyInstance } from 'fastify';
import { internalRequestHeaders } from '../../platform/internal-requests.js';

const NO_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `authorization` is sent when the request carries none, so the SDK needs no auth strategy;
 * relative URLs resolve against `origin`.
 */
export function injectFetch(app: FastifyInstance, origin: string, authorization: string, host?: string): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), origin), init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    headers.authorization ??= authorization;
    // In process there is nothing to gain from a compressed answer, only its CPU.
    delete headers['accept-encoding'];
    // Counted once, as the page request that caused it (see platform/internal-requests.ts).
    Object.assign(headers, internalRequestHeaders());
    if (host) headers.host = host;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(hasBody && { payload: Buffer.from(await request.arrayBuffer()) }),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(v));
    }
    const body = NO_BODY_STATUSES.has(res.statusCode) || request.method === 'HEAD' ? null : new Uint8Array(res.rawPayload);
    return new Response(body, { status: res.statusCode, headers: responseHeaders });
  };
}
