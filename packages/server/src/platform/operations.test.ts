import http from 'node:http';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { openDb, type Db } from './db.js';
import { testDb } from '../test/harness.js';
import { DEFAULT_OPERATIONS, UNLIMITED_OPERATIONS, loadOperationsConfig, type OperationsConfig } from './ops-config.js';

/** Limits, readiness and metrics through a listening server: some answers come before Fastify sees a request. */

const config = { publicUrl: 'http://localhost:3000', logLevel: 'silent' as const, webDir: undefined, smtpUrl: undefined };

interface Served {
  app: FastifyInstance;
  port: number;
  close(): Promise<void>;
}

async function serve(db: Db, operations: OperationsConfig): Promise<Served> {
  const app = await buildApp({ db, config, operations });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  return { app, port, close: () => app.close() };
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes bytes on a raw socket and parses whatever comes back before the server closes it. */
function rawExchange(port: number, payload: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status, headers, body: JSON.parse(rest.join('\r\n\r\n')) as unknown });
    });
  });
}

function expectWireError(answer: { status: number; headers: Record<string, unknown>; body: unknown }, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(String(answer.headers['x-wix-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.body).toMatchObject({ message: expect.any(String), details: { applicationError: { code, description: expect.any(String), data: expect.any(Object) } } });
}

let db: Db;
beforeAll(async () => {
  db = await testDb();
});
afterAll(async () => {
  await db.close();
});

describe('requests the HTTP parser refuses', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(db, UNLIMITED_OPERATIONS);
  });
  afterAll(() => served.close());

  it('answers a URL over the header limit with 414 in the wire shape', async () => {
    const answer = await rawExchange(served.port, `GET /ecom/v1/carts/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectWireError(answer, 414, 'URI_TOO_LONG');
  });

  it('answers a URL over MAX_URL_BYTES but under the header limit with 414 too', async () => {
    const res = await served.app.inject({ method: 'GET', url: `/wix-data/v2/items/query?q=${'b'.repeat(9000)}` });
    expectWireError({ status: res.statusCode, headers: res.headers, body: res.json() }, 414, 'URI_TOO_LONG');
  });

  it('answers headers over the limit with 431 in the wire shape', async () => {
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: served.port, path: '/healthz', headers: { 'x-big': 'c'.repeat(20_000) } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body: JSON.parse(text) as unknown }));
      });
      req.on('error', reject);
      req.end();
    });
    expectWireError(answer, 431, 'HEADERS_TOO_LARGE');
  });

  it('answers bytes that are not HTTP with 400 in the wire shape', async () => {
    expectWireError(await rawExchange(served.port, 'HELLO THERE\r\n\r\n'), 400, 'BAD_REQUEST');
  });
});

describe('slow clients', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(db, { ...UNLIMITED_OPERATIONS, timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 300, checkIntervalMs: 50 } });
  });
  afterAll(() => served.close());

  it('closes a connection that trickles its headers, with a 408, while others are served', async () => {
    const socket = net.connect(served.port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('error', () => undefined);
    const gone = new Promise<void>((resolve) => socket.on('close', () => ((closed = true), resolve())));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    // One byte at a time, each well inside any idle timer: only the whole-headers limit can stop it.
    const trickle = setInterval(() => socket.writable && socket.write('z'), 20);
    try {
      const meanwhile = await fetch(`http://127.0.0.1:${served.port}/healthz`);
      expect(meanwhile.status).toBe(200);
      await gone;
    } finally {
      clearInterval(trickle);
    }
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(text.split('\r\n\r\n')[1]) as { details: { applicationError: { code: string } } };
    expect(body.details.applicationError.code).toBe('REQUEST_TIMEOUT');
  });
});

describe('rate limits', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(db, { ...UNLIMITED_OPERATIONS, rateLimit: { perIp: 3, perToken: 5, windowMs: 60_000 } });
  });
  afterAll(() => served.close());

  const call = (authorization?: string) =>
    served.app.inject({ method: 'GET', url: '/ecom/v1/nothing', remoteAddress: '10.1.2.3', headers: authorization ? { authorization } : {} });

  it('answers 429 in the wire shape with Retry-After once an IP spends its budget', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call()).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const res = await call();
    expectWireError({ status: res.statusCode, headers: res.headers, body: res.json() }, 429, 'TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts a token apart from its IP, each token on its own', async () => {
    const token = `Bearer ${randomUUID()}`;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(token)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    expect((await call(`Bearer ${randomUUID()}`)).statusCode).toBe(404);
  });

  it('never limits the probes', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await served.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.9.9.9' });
      expect(res.statusCode).toBe(200);
    }
  });

  it('reads RATE_LIMIT_* settings, with defaults a real shop needs', () => {
    expect(loadOperationsConfig({}).rateLimit).toEqual(DEFAULT_OPERATIONS.rateLimit);
    expect(loadOperationsConfig({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '50', RATE_LIMIT_WINDOW_MS: '1000' }).rateLimit).toEqual({ perIp: 0, perToken: 50, windowMs: 1000 });
    expect(() => loadOperationsConfig({ RATE_LIMIT_PER_IP: 'lots' })).toThrow(/RATE_LIMIT_PER_IP must be a whole number/);
  });
});

describe('/readyz', () => {
  it('is ready on a migrated database and not while draining', async () => {
    const served = await serve(db, UNLIMITED_OPERATIONS);
    try {
      const ready = await served.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      served.app.operations.draining = true;
      const draining = await served.app.inject({ method: 'GET', url: '/readyz' });
      expectWireError({ status: draining.statusCode, headers: draining.headers, body: draining.json() }, 503, 'NOT_READY');
      expect(draining.json()).toMatchObject({ details: { applicationError: { data: { reason: 'draining' } } } });
    } finally {
      await served.close();
    }
  });

  it('is not ready while migrations are pending, and says which', async () => {
    const schema = `ready_${randomUUID().replace(/-/g, '')}`;
    let bare: Db;
    if (process.env.DATABASE_URL) {
      await db.exec(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.schema_migrations (name text PRIMARY KEY)`);
      const url = new URL(process.env.DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      bare = await openDb({ databaseUrl: url.toString() });
    } else {
      bare = await openDb({ memory: true });
    }
    const app = await buildApp({ db: bare, config, operations: UNLIMITED_OPERATIONS });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ details: { applicationError: { code: 'NOT_READY', data: { reason: 'migrations', pending: expect.arrayContaining(['0001_platform.sql']) } } } });
    } finally {
      await app.close();
      await bare.close();
      if (process.env.DATABASE_URL) await db.exec(`DROP SCHEMA ${schema} CASCADE`);
    }
  });

  it('is not ready when the database does not answer', async () => {
    const own = await testDb();
    const app = await buildApp({ db: own, config, operations: UNLIMITED_OPERATIONS });
    try {
      await own.close();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ details: { applicationError: { code: 'NOT_READY', data: { reason: 'database' } } } });
    } finally {
      await app.close();
    }
  });
});

describe('/metrics', () => {
  it('does not exist unless METRICS or METRICS_TOKEN is set', async () => {
    const app = await buildApp({ db, config, operations: UNLIMITED_OPERATIONS });
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('with a token: refuses other callers, and counts requests by route pattern and status', async () => {
    const app = await buildApp({ db, config, operations: { ...UNLIMITED_OPERATIONS, metrics: { open: false, token: 'scrape-me' } } });
    try {
      const refused = await app.inject({ method: 'GET', url: '/metrics' });
      expectWireError({ status: refused.statusCode, headers: refused.headers, body: refused.json() }, 401, 'UNAUTHENTICATED');
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
      await app.inject({ method: 'GET', url: '/healthz' });
      await app.inject({ method: 'GET', url: `/wix-data/v2/items/${randomUUID()}` });
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-me' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('bodega_http_requests_total{method="GET",route="/healthz",status="200"} 1');
      expect(res.body).toMatch(/bodega_http_requests_total\{method="GET",route="\/wix-data\/v2\/items\/:dataItemId",status="4\d\d"\} 1/);
      expect(res.body).toContain('bodega_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/healthz",status="200"}');
      expect(res.body).toMatch(/^bodega_outbox_backlog \d+$/m);
      if (db.kind === 'postgres') expect(res.body).toMatch(/^bodega_db_pool_connections\{state="total"\} \d+$/m);
    } finally {
      await app.close();
    }
  });
});
