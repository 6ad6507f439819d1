import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_WORKER_ENV, runPrimary, workerCount } from './cluster.js';
import { ConfigError, loadConfig, type Config } from './platform/config.js';
import { DbLockedError, openDb } from './platform/db.js';
import { loadOperationsConfig, type OperationsConfig } from './platform/ops-config.js';
import { PRIVATE_UMASK } from './platform/files.js';

const SHUTDOWN_GRACE_MS = 10_000;
const WEB_DIR = fileURLToPath(new URL('../../../apps/web/dist', import.meta.url));

async function main(): Promise<void> {
  // Everything this process (and the workers it forks) creates is its user's only: 0600/0700.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig(process.env, { webDir: path.resolve(WEB_DIR) });
  const operations = loadOperationsConfig(process.env);
  const workers = cluster.isPrimary ? workerCount(process.env, Boolean(config.databaseUrl)) : 1;
  if (workers > 1) {
    // The primary only supervises: it loads no app and opens no database.
    runPrimary({ workers, exec: fileURLToPath(import.meta.url), log: (line) => process.stdout.write(`${line}\n`) });
    return;
  }
  await serve(config, operations);
}

/** One server process: alone, or one of the cluster's workers on the shared port. */
async function serve(config: Config, operations: OperationsConfig): Promise<void> {
  const { migrateDatabase } = await import('./platform/pooler.js');
  const { buildApp, SEALED_COLUMNS } = await import('./app.js');
  const { seedDemoIfEmpty } = await import('./demo.js');
  // In a cluster only the first worker seeds the demo store and prints the welcome.
  const speaks = cluster.isPrimary || process.env[FIRST_WORKER_ENV] === '1';
  const { loadKeyring, resealAll } = await import('./platform/secrets.js');
  // Before the database opens: a PostgreSQL start without BODEGA_SECRET_KEY stops here, in one line.
  const keyring = loadKeyring(process.env, config);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pooler: operations.databasePooler, directUrl: operations.databaseDirectUrl });
  await migrateDatabase(db, operations);
  // Secrets stored before encryption (or under a key since rotated away) are sealed now.
  // A value sealed with a key this server lacks (a rotation not finished) must not stop every
  // site: it is left as it is, and said once.
  if (speaks) {
    let unreadable = 0;
    await resealAll(db, keyring, SEALED_COLUMNS, undefined, () => { unreadable += 1; });
    if (unreadable) process.emitWarning(`${unreadable} stored secrets are sealed with a key this server does not have; give it to \`bodega secrets rotate --old-key\``);
  }
  const { stripeApiFromUrl } = await import('./services/payments/service.js');
  const stripeApi = stripeApiFromUrl(process.env.STRIPE_API_URL);
  const { localDiskStorage } = await import('./platform/storage.js');
  const storage = localDiskStorage(path.join(config.dataDir, 'files'));
  const app = await buildApp({ db, config, operations, keyring, storage, webhooks: { deliver: true }, ...(stripeApi && { payments: { stripeApi } }) });
  const stopBackups = db.kind === 'pglite' ? (await import('./platform/backup.js')).serveBackupRequests(db, config.dataDir) : () => undefined;
  const demo = speaks ? await seedDemoIfEmpty(app, config) : undefined;
  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  if (speaks) process.stdout.write(`Bodega is serving ${config.publicUrl} on ${where}\n`);
  if (demo) {
    process.stdout.write(
      [
        `Created the demo store (${demo.productCount} products; try the coupon ${demo.couponCode}): open ${config.publicUrl}/`,
        `  siteId:   ${demo.siteId}`,
        `  clientId: ${demo.clientId}`,
        `  apiKey:   ${demo.apiKey}   (shown once)`,
        `  owner:    ${demo.ownerEmail} / ${demo.ownerPassword}   (back office: ${config.publicUrl}/admin)`,
        '',
      ].join('\n'),
    );
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // /readyz turns 503 so a balancer stops sending; then stop accepting and finish in-flight
    // requests (background workers stop in their onClose hooks), but never wait forever on a
    // client that stopped reading.
    app.operations.draining = true;
    const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await app.close();
    clearTimeout(deadline);
    stopBackups();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DbLockedError) {
    process.stderr.write(`bodega: ${error.message}\n`);
  } else {
    process.stderr.write(`bodega: could not start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  }
  process.exit(1);
});
