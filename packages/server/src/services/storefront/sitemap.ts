// /sitemap.xml and /robots.txt of one site, with absolute URLs on the origin the request came to.

/** Sitemaps hold at most 50,000 URLs; a store beyond that would need a sitemap index. */
const MAX_PRODUCTS = 49_000;
const PAGE = 100;

/**
 * Slugs of the products a visitor can see, read through the catalog API as that visitor
 * (so hidden products stay out by the catalog's own rule).
 */
export async function visibleProductSlugs(fetchApi: typeof fetch, origin: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let offset = 0; offset < MAX_PRODUCTS; offset += PAGE) {
    const res = await fetchApi(`${origin}/stores-reader/v1/products/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { paging: { limit: PAGE, offset } } }),
    });
    if (!res.ok) throw new Error(`product query answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { products?: { slug?: unknown }[]; totalResults?: number };
    const page = body.products ?? [];
    for (const p of page) if (typeof p.slug === 'string') slugs.push(p.slug);
    if (page.length < PAGE) break;
  }
  return slugs;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

export function sitemapXml(origin: string, productSlugs: readonly string[]): string {
  const paths = ['/', '/products', ...productSlugs.map((s) => `/products/${encodeURIComponent(s)}`)];
  const urls = paths.map((p) => `  <url><loc>${escapeXml(origin + p)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** Shop pages are open to crawlers; carts, checkout, accounts and sign-in are not worth crawling. */
export function robotsTxt(origin: string, hasStore: boolean): string {
  if (!hasStore) return 'User-agent: *\nDisallow: /\n';
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /account',
    'Disallow: /auth/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
