import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ApiError } from './errors.js';
import type { Db } from './db.js';
import type { OperationsConfig } from './ops-config.js';

/**
 * `/metrics` in the Prometheus text format: request counts and latencies by route and status,
 * the database pool, the event outbox backlog and mail delivery. Off unless METRICS=true or
 * METRICS_TOKEN is set; with a token only `Authorization: Bearer <token>` may read it.
 */
export function registerMetrics(app: FastifyInstance, db: Db, ops: OperationsConfig): void {
  const { open, token } = ops.metrics;
  if (!open && !token) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bodega_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'bodega_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'bodega_http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'bodega_db_pool_connections',
    help: 'Database pool connections by state (PostgreSQL only)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'bodega_outbox_backlog',
    help: 'Events recorded but not yet delivered',
    registers: [registry],
    async collect() {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events WHERE delivered_at IS NULL');
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: 'bodega_mail_messages',
    help: 'E-mails in the mail outbox by delivery status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM mail_outbox GROUP BY status');
      for (const r of rows) this.set({ status: r.status }, r.n);
    },
  });

  app.addHook('onResponse', async (req, reply) => {
    if (req.url === '/metrics') return;
    // The route's pattern, never the raw URL: ids in paths would make every request its own series.
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', async (req, reply) => {
    if (!open && req.headers.authorization !== `Bearer ${token}`) {
      throw ApiError.unauthenticated('/metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}
