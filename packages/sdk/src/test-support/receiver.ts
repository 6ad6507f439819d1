/// <reference types="node" />
/**
 * A small real HTTP receiver for unit tests: records every request and answers with canned
 * responses. It tests the client's own request/response handling over real HTTP.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path with the query string, as sent. */
  url: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
}

export interface Reply {
  status?: number;
  statusText?: string;
  body?: unknown;
  /** Sent verbatim instead of JSON of `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export type Handler = (request: Recorded) => Reply | Promise<Reply>;

export interface Receiver {
  url: string;
  requests: Recorded[];
  /** Replaces the handler for the following requests. */
  reply(handler: Handler): void;
  close(): Promise<void>;
}

export async function startReceiver(handler: Handler = () => ({ body: {} })): Promise<Receiver> {
  let current = handler;
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const parsed = new URL(req.url ?? '/', 'http://receiver');
      let body: unknown;
      try {
        body = rawBody ? (JSON.parse(rawBody) as unknown) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: Recorded = {
        method: req.method ?? '',
        path: parsed.pathname,
        url: req.url ?? '',
        query: parsed.searchParams,
        headers: req.headers,
        rawBody,
        body,
      };
      requests.push(recorded);
      Promise.resolve(current(recorded)).then(
        (reply) => {
          const payload = reply.rawBody ?? JSON.stringify(reply.body ?? {});
          res.writeHead(reply.status ?? 200, reply.statusText, {
            'content-type': 'application/json',
            ...reply.headers,
          });
          res.end(payload);
        },
        (error: unknown) => {
          res.writeHead(599);
          res.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Decodes the `.r` parameter of a request. */
export function decodeR(request: Recorded): unknown {
  const value = request.query.get('.r');
  if (value === null) throw new Error(`no .r parameter in ${request.url}`);
  return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
}

/** Answers by `METHOD path`; unknown routes get 404. */
export function routes(table: Record<string, Reply | ((request: Recorded) => Reply)>): Handler {
  return (request) => {
    const entry = table[`${request.method} ${request.path}`];
    if (entry === undefined) return { status: 404, body: { message: `no route ${request.method} ${request.path}` } };
    return typeof entry === 'function' ? entry(request) : entry;
  };
}
