import type { FastifyInstance } from 'fastify';
import type { Db } from './db.js';
import { registerReadiness, type OperationsState } from './health.js';
import { registerRateLimits, registerUrlLimit } from './limits.js';
import { registerMetrics } from './metrics.js';
import type { OperationsConfig } from './ops-config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Shutdown sets `draining`, which /readyz reports. */
    operations: OperationsState;
  }
}

/** Readiness, metrics, the URL limit and rate limits, registered once by buildApp. */
export async function registerOperations(app: FastifyInstance, db: Db, ops: OperationsConfig): Promise<void> {
  const state: OperationsState = { draining: false };
  app.decorate('operations', state);
  registerUrlLimit(app, ops);
  await registerRateLimits(app, ops);
  registerReadiness(app, db, state);
  registerMetrics(app, db, ops);
}
