import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { ApiError } from './errors.js';
import type { OperationsConfig } from './ops-config.js';
import { isInternalRequest } from './internal-requests.js';

/** Probes and scrapes are never rate-limited: an orchestrator must always reach them. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Slow-client limits for the HTTP server: a client must send its headers within headersMs and
 * its whole request within requestMs; idle keep-alive connections close after keepAliveMs. Node
 * checks every checkIntervalMs, so a trickling connection is closed within that much of its limit.
 */
export function serverOptions(ops: OperationsConfig): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'clientErrorHandler'> & {
  http: http.ServerOptions;
} {
  const { timeouts } = ops;
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      maxHeaderSize: ops.maxHeaderBytes,
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, ops),
  };
}

interface ParserError extends Error {
  code?: string;
  /** Node passes the bytes it choked on (Fastify's typing has their JSON form). */
  rawPacket?: Buffer | { data: number[] };
}

function rawBytes(packet: ParserError['rawPacket']): Buffer | undefined {
  if (!packet) return undefined;
  return Buffer.isBuffer(packet) ? packet : Buffer.from(packet.data);
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request: answered in the wire error
 * shape with a request id, like every other error, then the connection is closed.
 */
function answerClientError(error: ParserError, socket: Socket, ops: OperationsConfig): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let apiError: ApiError;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    apiError = new ApiError(408, 'REQUEST_TIMEOUT', 'The request did not arrive in time');
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    apiError = requestLineTooLong(rawBytes(error.rawPacket), ops.maxUrlBytes)
      ? new ApiError(414, 'URI_TOO_LONG', `The request URL is longer than ${ops.maxUrlBytes} bytes`)
      : new ApiError(431, 'HEADERS_TOO_LARGE', `The request headers are larger than ${ops.maxHeaderBytes} bytes`);
  } else {
    apiError = new ApiError(400, 'BAD_REQUEST', 'The request is not valid HTTP');
  }
  if (socket.writable) {
    const body = JSON.stringify(apiError.toBody());
    socket.end(
      `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-wix-request-id: ${randomUUID()}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroySoon();
}

/** The overflow came while the request line was still arriving (no line break yet, or a long first line). */
function requestLineTooLong(raw: Buffer | undefined, maxUrlBytes: number): boolean {
  if (!raw || raw.length === 0) return false;
  const firstBreak = raw.indexOf('\r\n');
  if (firstBreak === -1) return /^[A-Z]+ /.test(raw.subarray(0, 16).toString('latin1')) || !raw.includes(':'.charCodeAt(0));
  return firstBreak > maxUrlBytes;
}

/** A URL under the parser's limit but over ours is refused before routing. */
export function registerUrlLimit(app: FastifyInstance, ops: OperationsConfig): void {
  app.addHook('onRequest', async (req) => {
    if (Buffer.byteLength(req.url) > ops.maxUrlBytes) {
      throw new ApiError(414, 'URI_TOO_LONG', `The request URL is longer than ${ops.maxUrlBytes} bytes`);
    }
  });
}

/** The caller's credential as sent, hashed so the limiter never keeps a token in memory. */
function credentialKey(authorization: string | undefined): string | undefined {
  const value = authorization?.replace(/^Bearer\s+/i, '').trim();
  if (!value) return undefined;
  return `token:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;
}

/**
 * Every endpoint is limited per caller: a request with a token or API key counts against that
 * credential (many shoppers can share one IP behind a NAT), one without counts against its IP.
 * Minting an anonymous token is itself an untokened request, so fresh tokens cost IP budget.
 */
export async function registerRateLimits(app: FastifyInstance, ops: OperationsConfig): Promise<void> {
  const { perIp, perToken, windowMs } = ops.rateLimit;
  if (perIp <= 0 && perToken <= 0) return;
  let byToken: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  let byIp: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  // The plugin's own hooks stay off (global: false); one hook below picks the bucket.
  await app.register(async (scope) => {
    await scope.register(rateLimit, { global: false });
    if (perToken > 0) byToken = scope.createRateLimit({ max: perToken, timeWindow: windowMs, keyGenerator: (req) => credentialKey(req.headers.authorization) ?? '' });
    if (perIp > 0) byIp = scope.createRateLimit({ max: perIp, timeWindow: windowMs, keyGenerator: (req) => `ip:${req.ip}` });
  });
  app.addHook('onRequest', async (req, reply) => {
    if (UNLIMITED_PATHS.has(req.url.split('?')[0]) || isInternalRequest(req)) return;
    const limiter = credentialKey(req.headers.authorization) ? byToken : byIp;
    if (!limiter) return;
    const result = await limiter(req);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    return reply
      .code(429)
      .send(new ApiError(429, 'TOO_MANY_REQUESTS', `Too many requests; retry in ${seconds} s`, { retryAfterSeconds: seconds }).toBody());
  });
}

/**
 * A per-IP limit on the routes of one plugin that opt in with `config: { rateLimit: {} }` (sign-in
 * calls, gift-card balance checks): `perMinute` is read per request; 0 turns it off.
 */
export async function registerPerIpLimit(app: FastifyInstance, perMinute: () => number, what: string): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    max: () => Math.max(1, perMinute()),
    timeWindow: 60_000,
    allowList: () => perMinute() <= 0,
    errorResponseBuilder: (_req, context) => new ApiError(429, 'TOO_MANY_REQUESTS', `Too many ${what} from this address; retry in ${context.after}`),
  });
}
