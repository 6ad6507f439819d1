import type { Db } from '../../platform/db.js';
import { forSite, poolContext, withTransaction, type DbContext, type SiteContext } from '../../platform/context.js';
import { recordAudit } from '../../platform/audit.js';
import { ApiError } from '../../platform/errors.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import * as store from './store.js';
import * as domainStore from './domains.js';
import type { SiteStatus } from './store.js';
import { DEFAULT_DOMAIN_PROOF, DomainProver, txtRecordName, wellKnownPath, type DomainProofOptions } from './domain-proof.js';

export type { SiteStatus } from './store.js';
export type SignupPolicy = 'open' | 'email-verification' | 'owner-approval';
export const SIGNUP_POLICIES: readonly SignupPolicy[] = ['open', 'email-verification', 'owner-approval'];
export type CatalogVersion = 'V1_CATALOG' | 'V3_CATALOG';
export const CATALOG_VERSIONS: readonly CatalogVersion[] = ['V1_CATALOG', 'V3_CATALOG'];
export const SITE_STATUSES: readonly SiteStatus[] = ['ENABLED', 'DISABLED', 'PENDING', 'DEMO'];

/** Site settings; services keep their own settings under their own keys beside these. */
export interface SiteSettings {
  signupPolicy: SignupPolicy;
  currency: string;
  /** Origins (besides PUBLIC_URL and the client's own) that redirects may return to. */
  allowedOrigins?: string[];
  /** The catalog API generation apps are told to use (catalogVersioning.getCatalogVersion). */
  catalogVersion?: CatalogVersion;
  [key: string]: unknown;
}

export interface Site {
  siteId: string;
  name: string;
  status: SiteStatus;
  settings: SiteSettings;
  createdDate: Date;
}

export interface CreateSiteInput {
  name: string;
  status?: SiteStatus;
  signupPolicy?: SignupPolicy;
  currency?: string;
  ownerEmail?: string;
  ownerPassword?: string;
  allowedOrigins?: string[];
  catalogVersion?: CatalogVersion;
  /** Host names the site's pages answer at (unique on the server). */
  domains?: string[];
}

export interface CreatedSite {
  site: Site;
  /** The new site's context, for the calls that set it up further. */
  ctx: SiteContext;
  clientId: string;
  /** Shown once; only its hash is stored. */
  apiKey: string;
}

/** Runs inside the site-creation transaction (`ctx.db`): services create what each new site needs. */
export type SiteInitializer = (ctx: SiteContext, site: Site, input: CreateSiteInput) => Promise<void>;

/** An OAuth client's site, with that site's context for the calls the client's request makes. */
export interface ClientSite {
  site: Site;
  allowedOrigins: string[];
  ctx: SiteContext;
}

const API_KEY_PREFIX = 'bdg_';
const SITE_CACHE_MS = 2000;
const CLIENT_CACHE_MS = 60_000;
const CACHE_SIZE = 100_000;
/** A key's last use is recorded to the hour: at most one write per key per hour, not one per request. */
export const KEY_USE_RESOLUTION_MS = 60 * 60_000;

export function isValidCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code);
}

function toSite(row: store.SiteRow): Site {
  return {
    siteId: row.site_id,
    name: row.name,
    status: row.status,
    settings: row.settings as SiteSettings,
    createdDate: new Date(row.created_at),
  };
}

/**
 * Sites, their clients, keys and domains. The one service that holds the pool: it finds which
 * site a call is for (by client id, API key, host or id) and hands out that site's context;
 * everything done to one site takes that context first, like every other service.
 */
export class SitesService {
  private readonly initializers: SiteInitializer[] = [];
  /** A short read cache: every request needs its site's status, which changes rarely. */
  private readonly cache: TtlCache<string, Site | undefined>;
  /** A client belongs to one site for life, so its lookup can be remembered; the site's status is rechecked. */
  private readonly clients: TtlCache<string, { siteId: string; allowedOrigins: string[] }>;
  /** Host name → site, for page requests (see siteIdForHost). */
  private readonly hosts: TtlCache<string, string | undefined>;
  /** Each site's first domain ('' for none), for the page URLs the wire hands out. */
  private readonly firstDomains: TtlCache<string, string>;
  /** Keys whose use this process recorded within the hour; spares the database even the conditional UPDATE. */
  private readonly keyUses: TtlCache<string, true>;
  /** Last-use writes under way: they run beside the request, which never waits for them. */
  private readonly keyUseWrites = new Set<Promise<void>>();
  private reportError: (error: unknown) => void = () => undefined;
  /** Set when the app closes: no last-use write starts after the database may be gone. */
  private closed = false;

  private readonly publicUrl: string;
  private readonly prover: DomainProver;
  /** The pool as a context: the registry alone looks sites up before one is known. */
  private readonly pool: DbContext;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
    options: { publicUrl?: string; domainProof?: Partial<DomainProofOptions> } = {},
  ) {
    this.pool = poolContext(db);
    this.publicUrl = options.publicUrl ?? 'http://localhost:3000';
    this.prover = new DomainProver({ ...DEFAULT_DOMAIN_PROOF, ...options.domainProof });
    this.cache = new TtlCache({ ttlMs: SITE_CACHE_MS, maxSize: CACHE_SIZE, now });
    this.clients = new TtlCache({ ttlMs: CLIENT_CACHE_MS, maxSize: CACHE_SIZE, now });
    this.hosts = new TtlCache({ ttlMs: SITE_CACHE_MS, maxSize: 10_000, now });
    this.firstDomains = new TtlCache({ ttlMs: SITE_CACHE_MS, maxSize: CACHE_SIZE, now });
    this.keyUses = new TtlCache({ ttlMs: KEY_USE_RESOLUTION_MS, maxSize: CACHE_SIZE, now });
  }

  /** The context of a site found by id (the CLI, jobs, and the lookups below); it reads through the pool. */
  contextFor(siteId: string): SiteContext {
    return forSite(this.pool, siteId, this.now);
  }

  onSiteCreated(initializer: SiteInitializer): void {
    this.initializers.push(initializer);
  }

  async createSite(input: CreateSiteInput): Promise<CreatedSite> {
    const name = input.name?.trim();
    if (!name) throw ApiError.validation([{ field: 'name', rule: 'REQUIRED_FIELD', description: 'a site needs a name' }]);
    if (name.length > 200) throw ApiError.validation([{ field: 'name', rule: 'MAX_LENGTH', description: 'at most 200 characters', data: { threshold: 200 } }]);
    const signupPolicy = input.signupPolicy ?? 'open';
    if (!SIGNUP_POLICIES.includes(signupPolicy)) {
      throw ApiError.validation([{ field: 'signupPolicy', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${SIGNUP_POLICIES.join(', ')}` }]);
    }
    const currency = (input.currency ?? 'USD').toUpperCase();
    if (!isValidCurrency(currency)) {
      throw ApiError.validation([{ field: 'currency', rule: 'FORMAT', description: 'must be an ISO 4217 currency code' }]);
    }
    const allowedOrigins = (input.allowedOrigins ?? []).map(normaliseOrigin);
    const catalogVersion = checkCatalogVersion(input.catalogVersion ?? 'V1_CATALOG');
    const domains = domainStore.normaliseDomains(input.domains ?? []);
    domainStore.refuseForbidden(domains, this.publicUrl, true);
    const site: Site = {
      siteId: newId(),
      name,
      status: input.status ?? 'ENABLED',
      settings: { signupPolicy, currency, ...(catalogVersion !== 'V1_CATALOG' && { catalogVersion }) },
      createdDate: new Date(),
    };
    const clientId = newId();
    const apiKey = API_KEY_PREFIX + newSecret();
    const ctx = this.contextFor(site.siteId);
    await withTransaction(ctx, async (tx) => {
      await store.insertSite(tx, { name, status: site.status, settings: site.settings });
      await store.insertOAuthClient(tx, clientId, allowedOrigins);
      await store.insertApiKey(tx, { keyHash: hashSecret(apiKey), keyId: newId(), name: 'default' });
      // Site creation is the operator's (the CLI) or the tests': its domains are trusted.
      if (domains.length) await domainStore.insertNewSiteDomains(tx, domains);
      for (const initializer of this.initializers) await initializer(tx, site, input);
    });
    if (domains.length) this.hosts.clear();
    return { site, ctx, clientId, apiKey };
  }

  /** The site if it exists and is not DISABLED; a disabled site answers nothing. */
  async getActiveSite(siteId: string): Promise<Site> {
    const site = await this.findSite(siteId);
    if (!site || site.status === 'DISABLED') throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
    return site;
  }

  /** The context's site if it is not DISABLED, read through the context's handle (its transaction, if any). */
  async activeSite(ctx: SiteContext): Promise<Site> {
    const site = await this.cachedSite(ctx);
    if (!site || site.status === 'DISABLED') throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
    return site;
  }

  /** A site by id, active or not (the CLI, the storefront's default site). */
  async findSite(siteId: string): Promise<Site | undefined> {
    return this.cachedSite(this.contextFor(siteId));
  }

  private async cachedSite(ctx: SiteContext): Promise<Site | undefined> {
    const siteId = ctx.siteId;
    const hit = this.cache.lookup(siteId);
    if (hit) return hit.value;
    const row = await store.findSite(ctx);
    const site = row && toSite(row);
    this.cache.set(siteId, site);
    return site;
  }

  async listSites(): Promise<Site[]> {
    return (await store.listSites(this.pool)).map(toSite);
  }

  /** Whether any site exists (a start on an empty database creates the demo), without reading them all. */
  async hasSites(): Promise<boolean> {
    return store.hasSites(this.pool);
  }

  /** The demo store, else the oldest site that is not disabled. */
  async firstServingSite(): Promise<Site | undefined> {
    const row = await store.firstServingSite(this.pool);
    return row && toSite(row);
  }

  async setStatus(ctx: SiteContext, status: SiteStatus): Promise<void> {
    if (!SITE_STATUSES.includes(status)) {
      throw ApiError.validation([{ field: 'status', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${SITE_STATUSES.join(', ')}` }]);
    }
    if (!(await store.updateSiteStatus(ctx, status))) throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
    this.cache.delete(ctx.siteId);
  }

  /** Merges `patch` into the site's settings. */
  async updateSettings(ctx: SiteContext, patch: Record<string, unknown>): Promise<Site> {
    const row = await store.patchSiteSettings(ctx, patch);
    if (!row) throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
    this.cache.delete(ctx.siteId);
    return toSite(row);
  }

  /** Replaces the site's allowed origins (the redirect targets storefronts on their own origins need). */
  async setAllowedOrigins(ctx: SiteContext, origins: readonly string[]): Promise<Site> {
    return this.updateSettings(ctx, { allowedOrigins: [...new Set(origins.map(normaliseOrigin))] });
  }

  async setCatalogVersion(ctx: SiteContext, version: CatalogVersion): Promise<Site> {
    return this.updateSettings(ctx, { catalogVersion: checkCatalogVersion(version) });
  }

  /** The host names the site holds, verified or not (the settings form shows them all). */
  async domains(ctx: SiteContext): Promise<string[]> {
    return (await domainStore.listDomainRows(ctx)).map((r) => r.domain);
  }

  /** Each domain with its status and what its owner publishes to prove it. */
  async domainStatuses(ctx: SiteContext): Promise<DomainStatus[]> {
    return (await domainStore.listDomainRows(ctx)).map((r) => this.toDomainStatus(r));
  }

  private async verifiedDomains(ctx: SiteContext): Promise<string[]> {
    return (await domainStore.listDomainRows(ctx)).filter((r) => r.verified_at).map((r) => r.domain);
  }

  /**
   * Where the site's pages are: its first verified domain on PUBLIC_URL's scheme and port (servers
   * sit behind one proxy or port), else PUBLIC_URL itself.
   */
  async pageOrigin(ctx: SiteContext, publicUrl: string): Promise<string> {
    const [first] = await this.verifiedDomains(ctx);
    return first ? domainStore.originOnDomain(publicUrl, first) : new URL(publicUrl).origin;
  }

  /**
   * The base of the page URLs the wire hands out (product pages, line items, checkout links):
   * the site's first verified domain as pageOrigin gives it, else PUBLIC_URL as configured. Remembered
   * briefly, as every cart and product answer asks.
   */
  async pageBase(ctx: SiteContext, publicUrl: string): Promise<string> {
    let first = this.firstDomains.get(ctx.siteId);
    if (first === undefined) {
      first = (await this.verifiedDomains(ctx))[0] ?? '';
      this.firstDomains.set(ctx.siteId, first);
    }
    return first ? domainStore.originOnDomain(publicUrl, first) : publicUrl;
  }

  /** The origins of every verified domain of the site (allowed redirect origins; see pageBase). */
  async domainOrigins(ctx: SiteContext, publicUrl: string): Promise<string[]> {
    return (await this.verifiedDomains(ctx)).map((d) => domainStore.originOnDomain(publicUrl, d));
  }

  /**
   * Replaces the site's host names. A name another site holds verified is a 409. New names are
   * PENDING until proven (verifyDomain), except the `operator`'s (the CLI), which are trusted.
   */
  async setDomains(ctx: SiteContext, domains: string[], by: { operator: boolean } = { operator: false }): Promise<string[]> {
    const wanted = domainStore.normaliseDomains(domains);
    await withTransaction(ctx, async (tx) => {
      if (!(await store.findSite(tx))) throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
      // Names the site holds verified stay (an owner saving the form keeps the operator's `.localhost` name).
      const held = new Set((await domainStore.listDomainRows(tx)).filter((r) => r.verified_at).map((r) => r.domain));
      domainStore.refuseForbidden(wanted, this.publicUrl, by.operator, held);
      await domainStore.replaceDomains(tx, wanted, by.operator);
    });
    this.hosts.clear();
    this.firstDomains.delete(ctx.siteId);
    return wanted;
  }

  /**
   * Checks a PENDING domain's proof now (DNS TXT record, then the well-known file) and marks it
   * verified when found; a failed check is recorded on the domain, not thrown.
   */
  async verifyDomain(ctx: SiteContext, domainText: string): Promise<DomainStatus> {
    const domain = domainStore.normaliseDomain(domainText, 'domain');
    const row = await domainStore.findDomainRow(ctx, domain);
    if (!row) throw ApiError.notFound('DOMAIN_NOT_FOUND', `The site has no domain ${domain}`, { domain });
    if (row.verified_at) return this.toDomainStatus(row);
    const forbidden = domainStore.forbiddenDomain(domain, this.publicUrl, false);
    if (forbidden) throw ApiError.validation([{ field: 'domain', rule: 'FORMAT', description: `"${domain}": ${forbidden}` }]);
    if (await domainStore.verifiedElsewhere(ctx, domain)) throw domainStore.domainTaken([domain]);
    const result = await this.prover.prove(domain, row.token);
    const proof = result.proof;
    if (proof) {
      // The domain starts serving the site's pages: on the audit log with the change.
      await withTransaction(ctx, async (tx) => {
        await domainStore.markVerified(tx, domain, proof, this.now());
        await recordAudit(tx, { action: 'domain.verified', objectType: 'domain', objectId: domain, after: { status: 'VERIFIED', proof } });
      });
    } else await domainStore.noteCheckFailed(ctx, domain, result.problem, this.now());
    this.hosts.clear();
    this.firstDomains.delete(ctx.siteId);
    const after = await domainStore.findDomainRow(ctx, domain);
    if (!after) throw ApiError.notFound('DOMAIN_NOT_FOUND', `The site has no domain ${domain}`, { domain });
    return this.toDomainStatus(after);
  }

  private toDomainStatus(row: domainStore.DomainRow): DomainStatus {
    const port = this.prover.options.httpPort;
    return {
      domain: row.domain,
      status: row.verified_at ? 'VERIFIED' : 'PENDING',
      txtRecord: { name: txtRecordName(row.domain), value: row.token },
      wellKnownUrl: `http://${row.domain}${port === 80 ? '' : `:${port}`}${wellKnownPath(row.token)}`,
      ...(row.verified_by && { verifiedBy: row.verified_by }),
      ...(row.verified_at && { verifiedDate: new Date(row.verified_at) }),
      ...(row.checked_at && { lastCheckedDate: new Date(row.checked_at) }),
      ...(row.check_problem && { problem: row.check_problem }),
    };
  }

  /** The site whose domain is this host (port ignored), remembered briefly: every page request asks. */
  async siteIdForHost(hostHeader: string | undefined): Promise<string | undefined> {
    const host = domainStore.hostOf(hostHeader);
    if (!host) return undefined;
    const hit = this.hosts.lookup(host);
    if (hit) return hit.value;
    const siteId = await domainStore.siteIdForDomain(this.pool, host);
    this.hosts.set(host, siteId);
    return siteId;
  }

  /** Resolves an OAuth client id to its active site; unknown ids are a 400 as OAuth expects. */
  async siteForClient(clientId: string): Promise<ClientSite> {
    let client = this.clients.get(clientId);
    if (!client) {
      const row = await store.findOAuthClient(this.pool, clientId);
      if (!row) throw new ApiError(400, 'INVALID_CLIENT', `Unknown client id "${clientId}"`);
      client = { siteId: row.site_id, allowedOrigins: row.allowed_origins };
      this.clients.set(clientId, client);
    }
    const ctx = this.contextFor(client.siteId);
    const site = await this.cachedSite(ctx);
    if (!site || site.status === 'DISABLED') throw new ApiError(400, 'INVALID_CLIENT', `Unknown client id "${clientId}"`);
    return { site, allowedOrigins: client.allowedOrigins, ctx };
  }

  async clientIds(ctx: SiteContext): Promise<string[]> {
    return (await store.listOAuthClients(ctx)).map((c) => c.client_id);
  }

  /** Checks an API key against the site named by `wix-site-id`; returns the key's id. */
  async checkApiKey(siteId: string | undefined, apiKey: string): Promise<{ site: Site; keyId: string }> {
    if (!siteId) throw ApiError.unauthenticated('An API key needs the wix-site-id header');
    if (!apiKey.startsWith(API_KEY_PREFIX)) throw ApiError.unauthenticated('Invalid API key');
    const ctx = this.contextFor(siteId);
    const site = await this.cachedSite(ctx);
    const key = site && site.status !== 'DISABLED' ? await store.findActiveApiKey(ctx, hashSecret(apiKey)) : undefined;
    if (!site || !key) throw ApiError.unauthenticated('Invalid API key or site');
    this.noteKeyUse(ctx, key.key_id);
    return { site, keyId: key.key_id };
  }

  /** Where a failed last-use write is reported (the app's log); the request it came from has its answer. */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.reportError = report;
  }

  /** Waits for the last-use writes under way (before the database closes; tests). */
  async settled(): Promise<void> {
    while (this.keyUseWrites.size > 0) await Promise.allSettled([...this.keyUseWrites]);
  }

  /** Starts no more last-use writes and waits for those under way (the app's close). */
  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
  }

  /**
   * Records that a key was used, at most once per key per KEY_USE_RESOLUTION_MS (per process, and
   * per database). Bookkeeping: the request does not wait for it, and its failure fails no
   * request; the key's next use tries again.
   */
  private noteKeyUse(ctx: SiteContext, keyId: string): void {
    const cacheKey = `${ctx.siteId}/${keyId}`;
    if (this.closed || this.keyUses.get(cacheKey)) return;
    this.keyUses.set(cacheKey, true);
    const write: Promise<void> = store.noteApiKeyUse(ctx, keyId, this.now(), KEY_USE_RESOLUTION_MS)
      .then(() => undefined, (error: unknown) => {
        this.keyUses.delete(cacheKey);
        this.reportError(error);
      })
      .finally(() => this.keyUseWrites.delete(write));
    this.keyUseWrites.add(write);
  }

  // ─── for the back office (services/backoffice) ───

  /** The site's keys that are not revoked; the secrets are never stored, only a short prefix. */
  async listApiKeys(ctx: SiteContext): Promise<ApiKeyInfo[]> {
    return (await store.listActiveApiKeys(ctx)).map(toApiKeyInfo);
  }

  /** A new key; the secret is in the answer only. */
  async createApiKey(ctx: SiteContext, name: string): Promise<{ apiKey: ApiKeyInfo; key: string }> {
    const key = API_KEY_PREFIX + newSecret();
    const row = await store.insertNamedApiKey(ctx, { keyHash: hashSecret(key), keyId: newId(), name, prefix: key.slice(0, API_KEY_PREFIX.length + 6) });
    return { apiKey: toApiKeyInfo(row), key };
  }

  async revokeApiKey(ctx: SiteContext, keyId: string): Promise<void> {
    if (!(await store.revokeApiKey(ctx, keyId))) throw ApiError.notFound('API_KEY_NOT_FOUND', 'No such API key');
  }

  async rename(ctx: SiteContext, name: string): Promise<void> {
    if (!(await store.updateSiteName(ctx, name))) throw ApiError.notFound('SITE_NOT_FOUND', 'No such site');
    this.cache.delete(ctx.siteId);
  }
}

/** A domain as its site's owner sees it: PENDING until proven, with what to publish. */
export interface DomainStatus {
  domain: string;
  status: 'PENDING' | 'VERIFIED';
  /** Publish `value` as a TXT record named `name`… */
  txtRecord: { name: string; value: string };
  /** …or serve the token (the same text) as the body of this URL. */
  wellKnownUrl: string;
  verifiedBy?: domainStore.DomainProof;
  verifiedDate?: Date;
  lastCheckedDate?: Date;
  /** What the last failed check found. */
  problem?: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix?: string;
  createdDate: Date;
  /** Accurate to KEY_USE_RESOLUTION_MS: uses within that period after the recorded one are not written. */
  lastUsedDate?: Date;
}

function toApiKeyInfo(row: store.ApiKeyRow): ApiKeyInfo {
  return {
    id: row.key_id, name: row.name, ...(row.key_prefix ? { prefix: row.key_prefix } : {}), createdDate: row.created_at,
    ...(row.last_used_at ? { lastUsedDate: new Date(row.last_used_at) } : {}),
  };
}

function checkCatalogVersion(version: CatalogVersion): CatalogVersion {
  if (!CATALOG_VERSIONS.includes(version)) {
    throw ApiError.validation([{ field: 'catalogVersion', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${CATALOG_VERSIONS.join(', ')}` }]);
  }
  return version;
}

export function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw ApiError.validation([{ field: 'allowedOrigins', rule: 'FORMAT', description: `"${origin}" is not a URL origin` }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw ApiError.validation([{ field: 'allowedOrigins', rule: 'FORMAT', description: `"${origin}" must be http or https` }]);
  }
  return url.origin;
}
