// The host names a site's pages answer at: one name belongs to one site on the whole server.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { isUniqueViolation } from '../../platform/db.js';
import type { DbContext, SiteContext } from '../../platform/context.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';

export const MAX_DOMAINS_PER_SITE = 20;

/**
 * A host name as the Host header carries it, lower-cased, without a trailing dot; international
 * names in their ASCII (punycode) form. No scheme, port or path: the port of a request is ignored.
 */
export function normaliseDomain(input: string, field = 'domains'): string {
  const text = input.trim().toLowerCase().replace(/\.$/, '');
  const refuse = (): never => {
    throw ApiError.validation([{ field, rule: 'FORMAT', description: `"${input}" is not a host name such as shop.example (no scheme, port or path)` }]);
  };
  if (!text || text.length > 253 || /[/:@?#\s]/.test(text)) refuse();
  let ascii: string;
  try {
    ascii = new URL(`http://${text}`).hostname;
  } catch {
    return refuse();
  }
  const labels = ascii.split('.');
  if (labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) refuse();
  return ascii;
}

/** Checks and de-duplicates a site's list; every problem at once. */
export function normaliseDomains(domains: readonly string[]): string[] {
  if (domains.length > MAX_DOMAINS_PER_SITE) {
    throw ApiError.validation([{ field: 'domains', rule: 'MAX_SIZE', description: `at most ${MAX_DOMAINS_PER_SITE} domains`, data: { threshold: MAX_DOMAINS_PER_SITE } }]);
  }
  const violations: FieldViolation[] = [];
  const out = new Set<string>();
  domains.forEach((d, i) => {
    try {
      out.add(normaliseDomain(d, `domains[${i}]`));
    } catch (error) {
      if (error instanceof ApiError && error.violations) violations.push(...error.violations);
      else throw error;
    }
  });
  if (violations.length) throw ApiError.validation(violations);
  return [...out];
}

/** The host part of a Host header (`shop.example:8080`, `[::1]:3000`), normalised; undefined if unusable. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    const host = new URL(`http://${header.trim()}`).hostname.toLowerCase().replace(/\.$/, '');
    return host || undefined;
  } catch {
    return undefined;
  }
}

/** The origin of a site domain: PUBLIC_URL's scheme and port with the domain as host. */
export function originOnDomain(publicUrl: string, domain: string): string {
  const url = new URL(publicUrl);
  url.hostname = domain;
  return url.origin;
}

/** Who proved a domain: the operator (the CLI), a DNS TXT record or the well-known file. */
export type DomainProof = 'OPERATOR' | 'DNS_TXT' | 'WELL_KNOWN';

export interface DomainRow {
  domain: string;
  token: string;
  verified_at: Date | null;
  verified_by: DomainProof | null;
  checked_at: Date | null;
  check_problem: string | null;
}

/** Why a name can never be a site's domain, or undefined; `operator` names may be local ones. */
export function forbiddenDomain(domain: string, publicUrl: string, operator: boolean): string | undefined {
  const last = domain.split('.').at(-1) ?? '';
  if (net.isIP(domain) !== 0 || /^[0-9]+$/.test(last)) return 'an IP address cannot be a domain';
  if (domain === new URL(publicUrl).hostname.toLowerCase()) return 'the server\'s own host (PUBLIC_URL) cannot be a site\'s domain';
  if (domain === 'localhost') return 'localhost cannot be a domain';
  if (!operator && (domain.endsWith('.localhost') || domain === 'internal' || domain.endsWith('.internal'))) {
    return 'names under .localhost and .internal are local; only the server operator may set them';
  }
  return undefined;
}

/** Refuses the forbidden names of a normalised list, every problem at once. */
export function refuseForbidden(domains: readonly string[], publicUrl: string, operator: boolean, alreadyVerified: ReadonlySet<string> = new Set()): void {
  const violations: FieldViolation[] = [];
  domains.forEach((d, i) => {
    const problem = alreadyVerified.has(d) ? undefined : forbiddenDomain(d, publicUrl, operator);
    if (problem) violations.push({ field: `domains[${i}]`, rule: 'FORMAT', description: `"${d}": ${problem}` });
  });
  if (violations.length) throw ApiError.validation(violations);
}

const COLUMNS = 'domain, token, verified_at, verified_by, checked_at, check_problem';

export async function listDomainRows(ctx: Pick<SiteContext, 'db' | 'siteId'>): Promise<DomainRow[]> {
  return ctx.db.query<DomainRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM site_domains WHERE site_id = $1 ORDER BY created_at, domain`, [ctx.siteId]);
}

export async function findDomainRow(ctx: Pick<SiteContext, 'db' | 'siteId'>, domain: string): Promise<DomainRow | undefined> {
  const rows = await ctx.db.query<DomainRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM site_domains WHERE site_id = $1 AND domain = $2`, [ctx.siteId, domain]);
  return rows[0];
}

/** The site that holds this name verified: only a verified name routes pages. */
export async function siteIdForDomain(pool: DbContext, domain: string): Promise<string | undefined> {
  const rows = await pool.db.query<{ site_id: string }>('SELECT site_id FROM site_domains WHERE domain = $1 AND verified_at IS NOT NULL', [domain]);
  return rows[0]?.site_id;
}

/** A 409 naming the domains another site holds verified. */
async function refuseTaken(ctx: Pick<SiteContext, 'db' | 'siteId'>, domains: string[]): Promise<void> {
  if (!domains.length) return;
  const taken = await ctx.db.query<{ domain: string }>(
    'SELECT domain FROM site_domains WHERE domain = ANY($1::text[]) AND site_id <> $2 AND verified_at IS NOT NULL ORDER BY domain', [domains, ctx.siteId]);
  if (taken.length) throw domainTaken(taken.map((r) => r.domain));
}

/**
 * Replaces a site's domains (inside the caller's transaction). A name another site holds verified
 * is a 409. New names get a fresh token and are PENDING, unless the operator sets them
 * (`verified`), which also verifies names the site already held PENDING.
 */
export async function replaceDomains(ctx: Pick<SiteContext, 'db' | 'siteId'>, domains: string[], verified: boolean): Promise<void> {
  const { db: tx, siteId } = ctx;
  await refuseTaken(ctx, domains);
  await tx.query('DELETE FROM site_domains WHERE site_id = $1 AND NOT (domain = ANY($2::text[]))', [siteId, domains]);
  try {
    await tx.query(
      `INSERT INTO site_domains (site_id, domain, token, verified_at, verified_by)
       SELECT $1, d.domain, d.token, CASE WHEN $4 THEN now() END, CASE WHEN $4 THEN 'OPERATOR' END
         FROM unnest($2::text[], $3::text[]) AS d (domain, token)
       ON CONFLICT (site_id, domain) DO UPDATE
         SET verified_at = COALESCE(site_domains.verified_at, EXCLUDED.verified_at),
             verified_by = COALESCE(site_domains.verified_by, EXCLUDED.verified_by)`,
      [siteId, domains, domains.map(() => newDomainToken()), verified]);
  } catch (error) {
    // Another site verified one of the names between the check and the insert.
    throw isUniqueViolation(error) ? domainTaken(domains) : error;
  }
}

/**
 * A new site's domains, set by the operator and so verified (inside the site's creating
 * transaction). Plain inserts only: on Citus, site_domains is a reference table, and a DELETE or an
 * upsert there takes an exclusive lock that, among other sites being created at the same moment,
 * can close a deadlock; inserts of different rows never wait on each other.
 */
export async function insertNewSiteDomains(ctx: Pick<SiteContext, 'db' | 'siteId'>, domains: string[]): Promise<void> {
  const { db: tx, siteId } = ctx;
  await refuseTaken(ctx, domains);
  try {
    await tx.query(
      `INSERT INTO site_domains (site_id, domain, token, verified_at, verified_by)
       SELECT $1, d.domain, d.token, now(), 'OPERATOR' FROM unnest($2::text[], $3::text[]) AS d (domain, token)`,
      // In name order: two sites created at once with the same names wait on each other in one order, never in a cycle.
      [siteId, [...domains].sort(), domains.map(() => newDomainToken())]);
  } catch (error) {
    throw isUniqueViolation(error) ? domainTaken(domains) : error;
  }
}

/** Marks a PENDING name verified; a name another site verified meanwhile is a 409. */
export async function markVerified(ctx: Pick<SiteContext, 'db' | 'siteId'>, domain: string, by: DomainProof, at: Date): Promise<void> {
  try {
    await ctx.db.query(
      `UPDATE site_domains SET verified_at = $3, verified_by = $4, checked_at = $3, check_problem = NULL
        WHERE site_id = $1 AND domain = $2 AND verified_at IS NULL`, [ctx.siteId, domain, at, by]);
  } catch (error) {
    throw isUniqueViolation(error) ? domainTaken([domain]) : error;
  }
}

/** Records a failed check of a PENDING name. */
export async function noteCheckFailed(ctx: Pick<SiteContext, 'db' | 'siteId'>, domain: string, problem: string, at: Date): Promise<void> {
  await ctx.db.query(
    'UPDATE site_domains SET checked_at = $3, check_problem = $4 WHERE site_id = $1 AND domain = $2 AND verified_at IS NULL',
    [ctx.siteId, domain, at, problem.slice(0, 500)]);
}

/** Whether another site holds the name verified. */
export async function verifiedElsewhere(ctx: Pick<SiteContext, 'db' | 'siteId'>, domain: string): Promise<boolean> {
  const rows = await ctx.db.query('SELECT 1 FROM site_domains WHERE domain = $1 AND site_id <> $2 AND verified_at IS NOT NULL', [domain, ctx.siteId]);
  return rows.length > 0;
}

/** The token its owner publishes; random, so one site cannot reuse another's. */
function newDomainToken(): string {
  return `bodega-${randomBytes(20).toString('hex')}`;
}

export function domainTaken(domains: string[]): ApiError {
  return new ApiError(409, 'DOMAIN_ALREADY_IN_USE', `Another site already uses ${domains.join(', ')}`, { domains });
}
