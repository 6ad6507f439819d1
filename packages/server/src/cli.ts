import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './platform/config.js';
import { DbLockedError, openDb, type Db } from './platform/db.js';
import { ApiError } from './platform/errors.js';
import { migrate } from './platform/migrate.js';
import { loadOperationsConfig } from './platform/ops-config.js';
import { migrateDatabase } from './platform/pooler.js';
import { BackupError, backup, restore } from './platform/backup.js';
import type { CatalogVersion, SignupPolicy, SiteStatus } from './services/sites/service.js';
import { PRIVATE_UMASK } from './platform/files.js';
import { keyring as secretKeyring, loadKeyring, parseKey, resealAll, SecretError } from './platform/secrets.js';

const USAGE = `Usage: npm run bodega -- <command>

  serve                           start the built server (npm run build first)
  migrate                         apply database migrations
  backup --out FILE               save the whole database (works while the server runs)
  restore --from FILE             load a backup into an empty DATA_DIR or database
  sites create --name N [--signup-policy open|email-verification|owner-approval]
               [--currency USD] [--status ENABLED|DEMO|PENDING]
               [--owner-email E --owner-password W] [--allowed-origin O ...] [--catalog v1|v3]
               [--domain shop.example ...] [--json]
  sites update --site S [--allowed-origin O ...] [--catalog v1|v3] [--domain shop.example ...] [--json]
                                  each option given replaces that setting: allowed origins, catalog
                                  version, the host names the site's pages answer at
  sites list [--json]
  sites set-status --site S --status ENABLED|DISABLED|PENDING|DEMO
  seed-demo                       create the demo site if the database has no site
  secrets rotate --old-key KEY    re-seal every stored secret with the current key (BODEGA_SECRET_KEY,
                                  else DATA_DIR/secret.key), opening those sealed with KEY

Works on DATA_DIR (embedded PGlite) or DATABASE_URL.`;

function out(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

function parse(argv: string[]) {
  return parseArgs({
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
      catalog: { type: 'string' },
      domain: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      from: { type: 'string' },
      'old-key': { type: 'string' },
    },
  });
}

type Parsed = ReturnType<typeof parse>;

const COMMANDS = ['serve', 'backup', 'restore', 'migrate', 'sites create', 'sites update', 'sites list', 'sites set-status', 'seed-demo', 'secrets rotate'];

/** `--catalog v1|v3` as the catalog version setting. */
function catalogVersion(value: string | undefined): CatalogVersion | undefined {
  if (value === undefined) return undefined;
  const version = ({ v1: 'V1_CATALOG', v3: 'V3_CATALOG' } as const)[value.toLowerCase() as 'v1' | 'v3'];
  if (!version) throw new UsageError('--catalog takes v1 or v3');
  return version;
}

/** Usage mistakes are found before the database is opened. */
function checkUsage({ values, positionals }: Parsed): void {
  const command = positionals.slice(0, positionals[0] === 'sites' || positionals[0] === 'secrets' ? 2 : 1).join(' ');
  if (!command) throw new UsageError('No command given');
  if (!COMMANDS.includes(command)) throw new UsageError(`Unknown command "${command}"`);
  if (command === 'sites create' && !values.name) throw new UsageError('sites create needs --name');
  if (values['owner-email'] && !values['owner-password']) throw new UsageError('--owner-email needs --owner-password');
  if (command === 'sites set-status' && (!values.site || !values.status)) throw new UsageError('sites set-status needs --site and --status');
  if (command === 'backup' && !values.out) throw new UsageError('backup needs --out FILE');
  if (command === 'restore' && !values.from) throw new UsageError('restore needs --from FILE');
  if (command === 'secrets rotate' && !values['old-key']) throw new UsageError('secrets rotate needs --old-key (the key the secrets are sealed with now)');
  if (command === 'sites update' && !values.site) throw new UsageError('sites update needs --site');
  if (command === 'sites update' && !values['allowed-origin'] && !values.catalog && !values.domain) throw new UsageError('sites update needs --allowed-origin, --catalog or --domain');
  catalogVersion(values.catalog);
}

async function run({ values, positionals }: Parsed, db: Db): Promise<void> {
  const [command, sub] = positionals;
  const json = values.json ?? false;
  if (command === 'migrate') {
    const applied = await migrateDatabase(db, loadOperationsConfig(process.env));
    out(json, { applied }, applied.length ? `Applied ${applied.join(', ')}` : 'The database is up to date');
    return;
  }
  await migrate(db);
  // Loaded here, not at the top: `serve` should not load (and, under tsx, compile) the app twice.
  const { buildApp, buildServices, SEALED_COLUMNS } = await import('./app.js');
  const { seedDemoIfEmpty } = await import('./demo.js');
  const keyring = loadKeyring(process.env, loadConfig(process.env));
  if (command === 'secrets' && sub === 'rotate') {
    const ring = secretKeyring(keyring.current, [parseKey('--old-key', values['old-key'] ?? '')]);
    const resealed = await resealAll(db, ring, SEALED_COLUMNS);
    out(json, { resealed, keyId: ring.current.id }, `Re-sealed ${resealed} stored secrets with key ${ring.current.id}`);
    return;
  }
  // PUBLIC_URL's host is never a site's domain, also when the operator sets it.
  const services = buildServices(db, () => new Date(), { publicUrl: loadConfig(process.env).publicUrl, keyring });
  if (command === 'sites' && sub === 'create') {
    const created = await services.sites.createSite({
      name: values.name ?? '',
      signupPolicy: values['signup-policy'] as SignupPolicy | undefined,
      currency: values.currency,
      status: values.status as SiteStatus | undefined,
      ownerEmail: values['owner-email'],
      ownerPassword: values['owner-password'],
      allowedOrigins: values['allowed-origin'],
      catalogVersion: catalogVersion(values.catalog),
      domains: values.domain,
    });
    const result = {
      siteId: created.site.siteId,
      clientId: created.clientId,
      apiKey: created.apiKey,
      name: created.site.name,
      status: created.site.status,
      signupPolicy: created.site.settings.signupPolicy,
      currency: created.site.settings.currency,
      catalogVersion: created.site.settings.catalogVersion ?? 'V1_CATALOG',
      ownerEmail: values['owner-email'],
      domains: await services.sites.domains(created.ctx),
    };
    out(json, result, `Created site ${result.siteId}\n  clientId: ${result.clientId}\n  apiKey:   ${result.apiKey}   (shown once)`);
    return;
  }
  if (command === 'sites' && sub === 'list') {
    const sites = await services.sites.listSites();
    const rows = await Promise.all(sites.map(async (s) => ({
      siteId: s.siteId, name: s.name, status: s.status,
      clientIds: await services.sites.clientIds(services.sites.contextFor(s.siteId)), domains: await services.sites.domains(services.sites.contextFor(s.siteId)),
    })));
    out(json, { sites: rows }, rows.map((r) => `${r.siteId}  ${r.status.padEnd(8)}  ${r.name}  clientId ${r.clientIds.join(',')}${r.domains.length ? `  ${r.domains.join(',')}` : ''}`).join('\n') || 'No sites');
    return;
  }
  if (command === 'sites' && sub === 'update') {
    const siteId = values.site ?? '';
    if (!(await services.sites.findSite(siteId))) throw new ApiError(404, 'SITE_NOT_FOUND', `No site ${siteId}`);
    const site = services.sites.contextFor(siteId);
    if (values['allowed-origin']) await services.sites.setAllowedOrigins(site, values['allowed-origin']);
    const version = catalogVersion(values.catalog);
    if (version) await services.sites.setCatalogVersion(site, version);
    // The operator owns the server: the domains it sets are trusted as verified.
    if (values.domain) await services.sites.setDomains(site, values.domain, { operator: true });
    const settings = (await services.sites.findSite(siteId))?.settings;
    const result = {
      siteId, allowedOrigins: settings?.allowedOrigins ?? [], catalogVersion: settings?.catalogVersion ?? 'V1_CATALOG',
      domains: await services.sites.domains(site),
    };
    out(json, result, `Site ${siteId}\n  allowed origins: ${result.allowedOrigins.join(' ') || '(none)'}\n  catalog: ${result.catalogVersion}\n  domains: ${result.domains.join(' ') || '(none)'}`);
    return;
  }
  if (command === 'sites' && sub === 'set-status') {
    await services.sites.setStatus(services.sites.contextFor(values.site ?? ''), values.status as SiteStatus);
    out(json, { siteId: values.site, status: values.status }, `Site ${values.site} is now ${values.status}`);
    return;
  }
  if (command === 'seed-demo') {
    const config = loadConfig(process.env);
    const app = await buildApp({ db, config: { ...config, logLevel: 'silent', webDir: undefined }, keyring });
    const demo = await seedDemoIfEmpty(app, config).finally(() => app.close());
    out(json, demo ?? {}, demo ? `Created the demo site ${demo.siteId} (clientId ${demo.clientId})` : 'The database already has a site');
    return;
  }
  throw new UsageError(`Unknown command "${[command, sub].filter(Boolean).join(' ')}"`);
}

class UsageError extends Error {}

async function main(): Promise<void> {
  // What the CLI writes (the embedded database, backups) is its user's only: 0600/0700.
  process.umask(PRIVATE_UMASK);
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const parsed = parse(argv);
  checkUsage(parsed);
  const [command] = parsed.positionals;
  if (command === 'serve') {
    // The compiled server, not this TypeScript: a restart costs no compile step.
    const built = fileURLToPath(new URL('../dist/main.js', import.meta.url));
    if (!fs.existsSync(built)) throw new UsageError('The server is not built; run `npm run build` (or `npm start`, which builds when needed)');
    await import(built);
    return;
  }
  const config = loadConfig(process.env);
  if (command === 'backup' || command === 'restore') {
    // pg_dump needs a session: it goes to the direct URL when a pooler sits in front.
    const target = { databaseUrl: loadOperationsConfig(process.env).databaseDirectUrl ?? config.databaseUrl, dataDir: config.dataDir };
    const json = parsed.values.json ?? false;
    if (command === 'backup') {
      await backup(target, parsed.values.out ?? '');
      out(json, { out: parsed.values.out }, `Wrote the backup to ${parsed.values.out}`);
    } else {
      await restore(target, parsed.values.from ?? '');
      out(json, { from: parsed.values.from }, `Restored ${parsed.values.from} into ${target.databaseUrl ? 'the database' : config.dataDir}`);
    }
    return;
  }
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pooler: loadOperationsConfig(process.env).databasePooler });
  try {
    await run(parsed, db);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`bodega: ${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ApiError) process.stderr.write(`bodega: ${error.message}\n`);
  else if (error instanceof ConfigError || error instanceof DbLockedError || error instanceof BackupError || error instanceof SecretError) process.stderr.write(`bodega: ${error.message}\n`);
  else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) process.stderr.write(`bodega: ${error.message}\n\n${USAGE}\n`);
  else process.stderr.write(`bodega: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
