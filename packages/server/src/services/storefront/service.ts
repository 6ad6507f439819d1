// Which site a page request is for, and the anonymous visitor the server renders its pages as.
import type { OAuthService } from '../oauth/service.js';
import type { Site, SitesService } from '../sites/service.js';
import { TtlCache } from '../../platform/ttl-cache.js';

/** What a page needs to know about its site (the bootstrap data and the render input). */
export interface StorefrontSite {
  siteId: string;
  clientId: string;
  name: string;
  currency: string;
}

/** How long the fallback choice (default, demo or first site) is remembered. */
const FALLBACK_CACHE_MS = 2000;
/** A cached visitor token is renewed this long before it expires. */
const TOKEN_RENEW_MARGIN_MS = 5 * 60_000;
const SITES_KEPT = 10_000;

export class StorefrontService {
  private fallback: { siteId: string | undefined; until: number } | undefined;
  // Bounded, so a server of many shops keeps what its busiest SITES_KEPT need (the rest are made again).
  private readonly clientIds: TtlCache<string, string>;
  private readonly visitors: TtlCache<string, { token: string; expiresAt: number }>;

  constructor(
    private readonly sites: SitesService,
    private readonly oauth: OAuthService,
    private readonly now: () => Date,
    private readonly defaultSiteId: string | undefined,
  ) {
    this.clientIds = new TtlCache({ ttlMs: Number.POSITIVE_INFINITY, maxSize: SITES_KEPT, now });
    this.visitors = new TtlCache({ ttlMs: Number.POSITIVE_INFINITY, maxSize: SITES_KEPT, now });
  }

  /**
   * The site whose domain is the Host (port ignored); else DEFAULT_SITE_ID; else the demo site;
   * else the first site. Disabled sites are never chosen; undefined when no site qualifies.
   */
  async siteForHost(host: string | undefined): Promise<StorefrontSite | undefined> {
    const byDomain = await this.sites.siteIdForHost(host);
    if (byDomain) return this.describe(await this.active(byDomain));
    return this.describe(await this.active(await this.fallbackSiteId()));
  }

  /** An access token of one anonymous visitor per site, reused until shortly before it expires. */
  async visitorToken(site: StorefrontSite): Promise<string> {
    const at = this.now().getTime();
    const cached = this.visitors.get(site.siteId);
    if (cached && cached.expiresAt - TOKEN_RENEW_MARGIN_MS > at) return cached.token;
    const grant = await this.oauth.anonymousGrant(site.clientId);
    this.visitors.set(site.siteId, { token: grant.access_token, expiresAt: at + grant.expires_in * 1000 });
    return grant.access_token;
  }

  private async active(siteId: string | undefined): Promise<Site | undefined> {
    if (!siteId) return undefined;
    const site = await this.sites.findSite(siteId);
    return site && site.status !== 'DISABLED' ? site : undefined;
  }

  private async fallbackSiteId(): Promise<string | undefined> {
    if (this.fallback && this.fallback.until > this.now().getTime()) return this.fallback.siteId;
    let siteId: string | undefined;
    if (this.defaultSiteId && (await this.active(this.defaultSiteId))) siteId = this.defaultSiteId;
    else {
      siteId = (await this.sites.firstServingSite())?.siteId;
    }
    this.fallback = { siteId, until: this.now().getTime() + FALLBACK_CACHE_MS };
    return siteId;
  }

  private async describe(site: Site | undefined): Promise<StorefrontSite | undefined> {
    if (!site) return undefined;
    let clientId = this.clientIds.get(site.siteId);
    if (!clientId) {
      clientId = (await this.sites.clientIds(this.sites.contextFor(site.siteId)))[0];
      if (!clientId) return undefined;
      this.clientIds.set(site.siteId, clientId);
    }
    return { siteId: site.siteId, clientId, name: site.name, currency: site.settings.currency };
  }
}
