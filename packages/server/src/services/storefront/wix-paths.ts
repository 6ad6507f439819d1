// The Wix paths a headless app, a feed or an old link may send a shopper to, answered with a
// permanent redirect to the shop's own page (the wire hands out `/product-page/<slug>` as Wix does).
import type { FastifyInstance } from 'fastify';

const enc = encodeURIComponent;

/** Wix path → the shop's own path, the request's query string kept. */
export const WIX_PAGE_PATHS: { path: string; to: (params: Record<string, string>) => string }[] = [
  { path: '/product-page/:slug', to: (p) => `/products/${enc(p.slug)}` },
  { path: '/category/:slug', to: (p) => `/products?collection=${enc(p.slug)}` },
  { path: '/shop', to: () => '/products' },
  { path: '/cart-page', to: () => '/cart' },
  { path: '/thank-you-page/:orderId', to: (p) => `/checkout/thank-you?orderId=${enc(p.orderId)}` },
  { path: '/account/my-account', to: () => '/account' },
  { path: '/account/my-orders', to: () => '/account/orders' },
  { path: '/account/my-addresses', to: () => '/account/addresses' },
];

function withQuery(target: string, url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return target;
  return `${target}${target.includes('?') ? '&' : '?'}${url.slice(q + 1)}`;
}

export function wixPageRedirects(app: FastifyInstance): void {
  for (const { path, to } of WIX_PAGE_PATHS) {
    app.get(path, async (req, reply) => reply.redirect(withQuery(to(req.params as Record<string, string>), req.url), 301));
  }
}
