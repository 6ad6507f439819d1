import type { SiteContext } from './context.js';

/**
 * Where a site's pages are: the base of the page URLs the wire hands out (product pages, cart,
 * checkout and order lines, checkout links) — the site's own domain when it has one, else
 * PUBLIC_URL. The sites service supplies it (SitesService.pageBase).
 */
export type PageBase = (ctx: SiteContext) => Promise<string>;
