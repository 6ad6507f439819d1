import fs from 'node:fs';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDb, type Db } from '../platform/db.js';
import { buildApp } from '../app.js';
import type { CreateSiteInput } from '../services/sites/service.js';
import type { OperationsConfig } from '../platform/ops-config.js';
import type { DomainProofOptions } from '../services/sites/domain-proof.js';
import type { PaymentsDeps } from '../app.js';

/**
 * Tests isolate by site, not by database: one database per test file (a PGlite loaded from the
 * migrated snapshot) or the shared PostgreSQL of DATABASE_URL, with a new site per test.
 */
export async function testDb(): Promise<Db> {
  if (process.env.DATABASE_URL) return openDb({ databaseUrl: process.env.DATABASE_URL });
  const snapshot = inject('pgliteSnapshot');
  return openDb({ memory: true, snapshot: new Blob([fs.readFileSync(snapshot)]) });
}

export interface TestSite {
  siteId: string;
  clientId: string;
  apiKey: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Creates a fresh site (default: open sign-up, USD). */
  createSite(input?: Partial<CreateSiteInput>): Promise<TestSite>;
  /** The sites this app created: what its sweeps may touch when test files share one database. */
  siteIds: string[];
  /** A visitor access token for the site. */
  visitorToken(site: TestSite): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  now?: () => Date;
  publicUrl?: string;
  webDir?: string;
  /** Limits (rate limits and the like); default: none. */
  operations?: OperationsConfig;
  /** DEFAULT_SITE_ID: the site pages get when the Host names none. */
  defaultSiteId?: string;
  /** Reuse a database opened by the caller (several apps on one database). */
  db?: Db;
  /** How domains are proven (the loopback DNS server and well-known port of domain tests). */
  domainProof?: Partial<DomainProofOptions>;
  /** Extra routes registered before the app is ready (wire-rule tests). */
  routes?: (app: FastifyInstance) => void;
  /** Payments: a Stripe stand-in's address, the sweep's timing (default: no sweep timer; tests run it). */
  payments?: PaymentsDeps;
}

let counter = 0;

export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await testDb());
  const app = await buildApp({
    db,
    config: { publicUrl: options.publicUrl ?? 'http://localhost:3000', logLevel: 'silent', webDir: options.webDir, smtpUrl: undefined, defaultSiteId: options.defaultSiteId },
    now: options.now,
    operations: options.operations,
    domainProof: options.domainProof,
    payments: { sweepIntervalMs: 0, ...options.payments },
  });
  options.routes?.(app);
  await app.ready();
  const siteIds: string[] = [];
  return {
    app,
    db,
    siteIds,
    async createSite(input = {}) {
      const created = await app.services.sites.createSite({ name: `Test site ${++counter}`, ...input });
      siteIds.push(created.site.siteId);
      return { siteId: created.site.siteId, clientId: created.clientId, apiKey: created.apiKey };
    },
    async visitorToken(site) {
      const res = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
      if (res.statusCode !== 200) throw new Error(`anonymous grant failed: ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
  }
}
