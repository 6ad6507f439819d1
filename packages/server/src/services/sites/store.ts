// SQL for sites, OAuth clients and API keys. A site's own rows are read through its context;
// the lookups that find a site (by client id, or all of them) take the pool's context.
import type { DbContext, SiteContext } from '../../platform/context.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

export type SiteStatus = 'ENABLED' | 'DISABLED' | 'PENDING' | 'DEMO';

export interface SiteRow {
  site_id: string;
  name: string;
  status: SiteStatus;
  settings: Record<string, unknown>;
  created_at: Date;
}

export async function insertSite(
  ctx: Ctx,
  site: { name: string; status: SiteStatus; settings: Record<string, unknown> },
): Promise<void> {
  await ctx.db.query('INSERT INTO sites (site_id, name, status, settings) VALUES ($1, $2, $3, $4::jsonb)', [
    ctx.siteId, site.name, site.status, JSON.stringify(site.settings),
  ]);
}

export async function findSite(ctx: Ctx): Promise<SiteRow | undefined> {
  const rows = await ctx.db.query<SiteRow & Record<string, unknown>>(
    'SELECT site_id, name, status, settings, created_at FROM sites WHERE site_id = $1', [ctx.siteId]);
  return rows[0];
}

export async function listSites(pool: DbContext): Promise<SiteRow[]> {
  return pool.db.query<SiteRow & Record<string, unknown>>(
    'SELECT site_id, name, status, settings, created_at FROM sites ORDER BY created_at');
}

/** The site a Host that names no shop falls back to: the demo store first, else the oldest serving one. */
export async function firstServingSite(pool: DbContext): Promise<SiteRow | undefined> {
  const rows = await pool.db.query<SiteRow & Record<string, unknown>>(
    `SELECT site_id, name, status, settings, created_at FROM sites WHERE status <> 'DISABLED'
     ORDER BY status = 'DEMO' DESC, created_at LIMIT 1`);
  return rows[0];
}

export async function hasSites(pool: DbContext): Promise<boolean> {
  return (await pool.db.query('SELECT 1 FROM sites LIMIT 1')).length > 0;
}

export async function updateSiteStatus(ctx: Ctx, status: SiteStatus): Promise<boolean> {
  const rows = await ctx.db.query('UPDATE sites SET status = $2, updated_at = now() WHERE site_id = $1 RETURNING site_id', [ctx.siteId, status]);
  return rows.length === 1;
}

/** Merges `patch` into the site's settings in one statement, so concurrent patches lose nothing. */
export async function patchSiteSettings(ctx: Ctx, patch: Record<string, unknown>): Promise<SiteRow | undefined> {
  const rows = await ctx.db.query<SiteRow & Record<string, unknown>>(
    `UPDATE sites SET settings = settings || $2::jsonb, updated_at = now() WHERE site_id = $1
     RETURNING site_id, name, status, settings, created_at`, [ctx.siteId, JSON.stringify(patch)]);
  return rows[0];
}

export async function insertOAuthClient(ctx: Ctx, clientId: string, allowedOrigins: string[]): Promise<void> {
  await ctx.db.query('INSERT INTO oauth_clients (client_id, site_id, allowed_origins) VALUES ($1, $2, $3)', [clientId, ctx.siteId, allowedOrigins]);
}

export interface OAuthClientRow {
  client_id: string;
  site_id: string;
  allowed_origins: string[];
}

export async function findOAuthClient(pool: DbContext, clientId: string): Promise<OAuthClientRow | undefined> {
  const rows = await pool.db.query<OAuthClientRow & Record<string, unknown>>(
    'SELECT client_id, site_id, allowed_origins FROM oauth_clients WHERE client_id = $1', [clientId]);
  return rows[0];
}

export async function listOAuthClients(ctx: Ctx): Promise<OAuthClientRow[]> {
  return ctx.db.query<OAuthClientRow & Record<string, unknown>>(
    'SELECT client_id, site_id, allowed_origins FROM oauth_clients WHERE site_id = $1 ORDER BY created_at', [ctx.siteId]);
}

export async function insertApiKey(ctx: Ctx, key: { keyHash: string; keyId: string; name: string }): Promise<void> {
  await ctx.db.query('INSERT INTO api_keys (site_id, key_hash, key_id, name) VALUES ($1, $2, $3, $4)', [
    ctx.siteId, key.keyHash, key.keyId, key.name,
  ]);
}

export async function findActiveApiKey(ctx: Ctx, keyHash: string): Promise<{ key_id: string } | undefined> {
  const rows = await ctx.db.query<{ key_id: string }>(
    'SELECT key_id FROM api_keys WHERE site_id = $1 AND key_hash = $2 AND revoked_at IS NULL', [ctx.siteId, keyHash]);
  return rows[0];
}

// ─── the back office's API keys and site name (additive, for services/backoffice) ───

export interface ApiKeyRow {
  key_id: string;
  name: string;
  key_prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

export async function insertNamedApiKey(ctx: Ctx, key: { keyHash: string; keyId: string; name: string; prefix: string }): Promise<ApiKeyRow> {
  const rows = await ctx.db.query<ApiKeyRow & Record<string, unknown>>(
    `INSERT INTO api_keys (site_id, key_hash, key_id, name, key_prefix) VALUES ($1, $2, $3, $4, $5)
     RETURNING key_id, name, key_prefix, created_at, last_used_at`, [ctx.siteId, key.keyHash, key.keyId, key.name, key.prefix]);
  return rows[0];
}

export async function listActiveApiKeys(ctx: Ctx): Promise<ApiKeyRow[]> {
  return ctx.db.query<ApiKeyRow & Record<string, unknown>>(
    'SELECT key_id, name, key_prefix, created_at, last_used_at FROM api_keys WHERE site_id = $1 AND revoked_at IS NULL ORDER BY created_at, key_id', [ctx.siteId]);
}

/**
 * Records a use of the key unless one at most `resolutionMs` old is already recorded: a conditional
 * UPDATE, so servers sharing the database write it once per period between them.
 */
export async function noteApiKeyUse(ctx: Ctx, keyId: string, at: Date, resolutionMs: number): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE api_keys SET last_used_at = $3
      WHERE site_id = $1 AND key_id = $2 AND revoked_at IS NULL
        AND (last_used_at IS NULL OR last_used_at <= $4)
      RETURNING key_id`,
    [ctx.siteId, keyId, at, new Date(at.getTime() - resolutionMs)]);
  return rows.length > 0;
}

export async function revokeApiKey(ctx: Ctx, keyId: string): Promise<boolean> {
  const rows = await ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE site_id = $1 AND key_id = $2 AND revoked_at IS NULL RETURNING key_id', [ctx.siteId, keyId]);
  return rows.length > 0;
}

export async function updateSiteName(ctx: Ctx, name: string): Promise<boolean> {
  const rows = await ctx.db.query('UPDATE sites SET name = $2, updated_at = now() WHERE site_id = $1 RETURNING site_id', [ctx.siteId, name]);
  return rows.length > 0;
}
