// The host names a site's pages answer at: one name belongs to one site on the whole server.
import { isUniqueViolation, type Queryable } from '../../platform/db.js';
import type { SiteContext } from '../../platform/context.js';
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

export async function listDomains(ctx: Pick<SiteContext, 'db' | 'siteId'>): Promise<string[]> {
  const rows = await ctx.db.query<{ domain: string }>('SELECT domain FROM site_domains WHERE site_id = $1 ORDER BY created_at, domain', [ctx.siteId]);
  return rows.map((r) => r.domain);
}

export async function siteIdForDomain(db: Queryable, domain: string): Promise<string | undefined> {
  const rows = await db.query<{ site_id: string }>('SELECT site_id FROM site_domains WHERE domain = $1', [domain]);
  return rows[0]?.site_id;
}

/** Replaces a site's domains (inside the caller's transaction); a name another site holds is a 409. */
export async function replaceDomains(ctx: Pick<SiteContext, 'db' | 'siteId'>, domains: string[]): Promise<void> {
  const { db: tx, siteId } = ctx;
  if (domains.length) {
    const taken = await tx.query<{ domain: string }>(
      'SELECT domain FROM site_domains WHERE domain = ANY($1::text[]) AND site_id <> $2 ORDER BY domain', [domains, siteId]);
    if (taken.length) throw domainTaken(taken.map((r) => r.domain));
  }
  await tx.query('DELETE FROM site_domains WHERE site_id = $1 AND NOT (domain = ANY($2::text[]))', [siteId, domains]);
  try {
    await tx.query(
      `INSERT INTO site_domains (site_id, domain) SELECT $1, d FROM unnest($2::text[]) AS d
       ON CONFLICT (domain) DO NOTHING`, [siteId, domains]);
  } catch (error) {
    throw isUniqueViolation(error) ? domainTaken(domains) : error;
  }
  // Another site may have taken a name between the check and the insert (ON CONFLICT skipped it).
  const mine = await tx.query<{ domain: string }>('SELECT domain FROM site_domains WHERE site_id = $1', [siteId]);
  const held = new Set(mine.map((r) => r.domain));
  const lost = domains.filter((d) => !held.has(d));
  if (lost.length) throw domainTaken(lost);
}

function domainTaken(domains: string[]): ApiError {
  return new ApiError(409, 'DOMAIN_ALREADY_IN_USE', `Another site already uses ${domains.join(', ')}`, { domains });
}

