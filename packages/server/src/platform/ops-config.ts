import { ConfigError } from './config.js';

/** The operator's settings for limits, health, metrics and pooling (README "Operating Bodega"). */
export interface OperationsConfig {
  rateLimit: {
    /** Requests per window one IP address may make without a token; 0 turns the limit off. */
    perIp: number;
    /** Requests per window one access token or API key may make; 0 turns the limit off. */
    perToken: number;
    windowMs: number;
  };
  metrics: {
    /** METRICS=true: /metrics is open (for a scraper on a private network). */
    open: boolean;
    /** METRICS_TOKEN: /metrics answers only `Authorization: Bearer <token>`. */
    token: string | undefined;
  };
  timeouts: {
    /** The whole request line and headers must arrive within this (slowloris). */
    headersMs: number;
    /** The whole request, body included, must arrive within this. */
    requestMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveMs: number;
    /** How often Node checks connections against the two limits above. */
    checkIntervalMs: number;
  };
  /** Request line plus headers, in bytes; beyond it the answer is 414 or 431. */
  maxHeaderBytes: number;
  /** The request target (path and query), in bytes; beyond it the answer is 414. */
  maxUrlBytes: number;
  /** `transaction`: a pooler (PgBouncer) sits in front; nothing may rely on a session. */
  databasePooler: 'none' | 'transaction';
  /** A connection that bypasses the pooler, for the migration lock and other session work. */
  databaseDirectUrl: string | undefined;
}

export const DEFAULT_OPERATIONS: OperationsConfig = {
  // A storefront page makes 10–20 API calls; several shoppers can share one IP behind a NAT.
  rateLimit: { perIp: 1200, perToken: 600, windowMs: 60_000 },
  metrics: { open: false, token: undefined },
  timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkIntervalMs: 1_000 },
  maxHeaderBytes: 16 * 1024,
  maxUrlBytes: 8 * 1024,
  databasePooler: 'none',
  databaseDirectUrl: undefined,
};

/** In-process apps (tests, benches) get no rate limit unless they ask for one. */
export const UNLIMITED_OPERATIONS: OperationsConfig = {
  ...DEFAULT_OPERATIONS,
  rateLimit: { perIp: 0, perToken: 0, windowMs: 60_000 },
};

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number${min ? ` of at least ${min}` : ''} (got "${raw}")`);
  }
  return Number(raw);
}

export function loadOperationsConfig(env: NodeJS.ProcessEnv): OperationsConfig {
  const d = DEFAULT_OPERATIONS;
  const metricsFlag = env.METRICS?.trim().toLowerCase();
  if (metricsFlag !== undefined && metricsFlag !== '' && !['true', 'false'].includes(metricsFlag)) {
    throw new ConfigError(`METRICS must be true or false (got "${env.METRICS}")`);
  }
  const pooler = env.DATABASE_POOLER?.trim() || 'none';
  if (pooler !== 'none' && pooler !== 'transaction') {
    throw new ConfigError(`DATABASE_POOLER must be none or transaction (got "${env.DATABASE_POOLER}")`);
  }
  const directUrl = env.DATABASE_DIRECT_URL?.trim() || undefined;
  if (directUrl && !/^postgres(ql)?:\/\//.test(directUrl)) {
    throw new ConfigError('DATABASE_DIRECT_URL must start with postgres:// or postgresql://');
  }
  return {
    rateLimit: {
      perIp: whole(env, 'RATE_LIMIT_PER_IP', d.rateLimit.perIp),
      perToken: whole(env, 'RATE_LIMIT_PER_TOKEN', d.rateLimit.perToken),
      windowMs: whole(env, 'RATE_LIMIT_WINDOW_MS', d.rateLimit.windowMs, 1000),
    },
    metrics: { open: metricsFlag === 'true', token: env.METRICS_TOKEN?.trim() || undefined },
    timeouts: {
      headersMs: whole(env, 'HEADERS_TIMEOUT_MS', d.timeouts.headersMs, 100),
      requestMs: whole(env, 'REQUEST_TIMEOUT_MS', d.timeouts.requestMs, 100),
      keepAliveMs: whole(env, 'KEEP_ALIVE_TIMEOUT_MS', d.timeouts.keepAliveMs, 100),
      checkIntervalMs: d.timeouts.checkIntervalMs,
    },
    maxHeaderBytes: whole(env, 'MAX_HEADER_BYTES', d.maxHeaderBytes, 1024),
    maxUrlBytes: whole(env, 'MAX_URL_BYTES', d.maxUrlBytes, 256),
    databasePooler: pooler,
    databaseDirectUrl: directUrl,
  };
}
