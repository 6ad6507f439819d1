/** A webhook receiver on loopback that keeps what it gets and answers what the test says. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queryable } from '../platform/db.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The test clock when it arrived. */
  at: Date;
}

export class Receiver {
  readonly received: Received[] = [];
  /** Status to answer for the n-th request (0-based) and its body; default 200. */
  answer: (n: number, body: string) => Promise<number> | number = () => 200;
  private readonly server: http.Server;

  constructor(private readonly clock: () => Date = () => new Date()) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const n = this.received.length;
        this.received.push({ headers: req.headers, body, at: this.clock() });
        Promise.resolve(this.answer(n, body)).then(
          (status) => res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`),
          (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
        );
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Gives the site a paused subscription to every event: the outbox keeps only events something
 * consumes, so a test that reads a site's outbox rows makes them wanted first. Paused, so a worker
 * run by the test never sends them.
 */
export async function keepEveryEvent(db: Queryable, siteId: string): Promise<void> {
  await db.query(
    `INSERT INTO webhook_subscriptions (site_id, subscription_id, url, event_types, format, secret, status, created_at, updated_at)
     VALUES ($1, 'keep-every-event', 'http://127.0.0.1:9/never', '{*}', 'STANDARD', 'whsec_dGVzdA==', 'PAUSED', now(), now())
     ON CONFLICT DO NOTHING`,
    [siteId],
  );
}
