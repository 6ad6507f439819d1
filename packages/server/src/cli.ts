import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './platform/config.js';
import { DbLockedError, openDb, type Db } from './platform/db.js';
import { ApiError } from './platform/errors.js';
import { migrate } from './platform/migrate.js';
import { buildServices } from './app.js';
import { seedDemoIfEmpty } from './demo.js';
import type { SignupPolicy, SiteStatus } from './services/sites/service.js';

const USAGE = `Usage: npm run bodega -- <command>

  migrate                         apply database migrations
  sites create --name N [--signup-policy open|email-verification|owner-approval]
               [--currency USD] [--status ENABLED|DEMO|PENDING]
               [--owner-email E --owner-password W] [--allowed-origin O ...] [--json]
  sites list [--json]
  sites set-status --site S --status ENABLED|DISABLED|PENDING|DEMO
  seed-demo                       create the demo site if the database has no site

Works on DATA_DIR (embedded PGlite) or DATABASE_URL.`;

function out(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

async function run(argv: string[], db: Db): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'signup-policy': { type: 'string' },
      currency: { type: 'string' },
      status: { type: 'string' },
      site: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-password': { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, sub] = positionals;
  const json = values.json ?? false;
  if (command === 'migrate') {
    const applied = await migrate(db);
    out(json, { applied }, applied.length ? `Applied ${applied.join(', ')}` : 'The database is up to date');
    return;
  }
  await migrate(db);
  const services = buildServices(db, () => new Date());
  if (command === 'sites' && sub === 'create') {
    if (!values.name) throw new UsageError('sites create needs --name');
    if (values['owner-email'] && !values['owner-password']) throw new UsageError('--owner-email needs --owner-password');
    const created = await services.sites.createSite({
      name: values.name,
      signupPolicy: values['signup-policy'] as SignupPolicy | undefined,
      currency: values.currency,
      status: values.status as SiteStatus | undefined,
      ownerEmail: values['owner-email'],
      ownerPassword: values['owner-password'],
      allowedOrigins: values['allowed-origin'],
    });
    const result = {
      siteId: created.site.siteId,
      clientId: created.clientId,
      apiKey: created.apiKey,
      name: created.site.name,
      status: created.site.status,
      signupPolicy: created.site.settings.signupPolicy,
      currency: created.site.settings.currency,
      ownerEmail: values['owner-email'],
    };
    out(json, result, `Created site ${result.siteId}\n  clientId: ${result.clientId}\n  apiKey:   ${result.apiKey}   (shown once)`);
    return;
  }
  if (command === 'sites' && sub === 'list') {
    const sites = await services.sites.listSites();
    const rows = await Promise.all(sites.map(async (s) => ({ siteId: s.siteId, name: s.name, status: s.status, clientIds: await services.sites.clientIds(s.siteId) })));
    out(json, { sites: rows }, rows.map((r) => `${r.siteId}  ${r.status.padEnd(8)}  ${r.name}  clientId ${r.clientIds.join(',')}`).join('\n') || 'No sites');
    return;
  }
  if (command === 'sites' && sub === 'set-status') {
    if (!values.site || !values.status) throw new UsageError('sites set-status needs --site and --status');
    await services.sites.setStatus(values.site, values.status as SiteStatus);
    out(json, { siteId: values.site, status: values.status }, `Site ${values.site} is now ${values.status}`);
    return;
  }
  if (command === 'seed-demo') {
    const demo = await seedDemoIfEmpty(services, loadConfig(process.env));
    out(json, demo ?? {}, demo ? `Created the demo site ${demo.siteId} (clientId ${demo.clientId})` : 'The database already has a site');
    return;
  }
  throw new UsageError(command ? `Unknown command "${[command, sub].filter(Boolean).join(' ')}"` : 'No command given');
}

class UsageError extends Error {}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig(process.env);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await run(argv, db);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`bodega: ${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ApiError) process.stderr.write(`bodega: ${error.message}\n`);
  else if (error instanceof ConfigError || error instanceof DbLockedError) process.stderr.write(`bodega: ${error.message}\n`);
  else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) process.stderr.write(`bodega: ${error.message}\n\n${USAGE}\n`);
  else process.stderr.write(`bodega: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
