/**
 * The server renderer (built to dist/server/entry-server.js): the page's markup, its <head> and the
 * query cache the browser hydrates. Catalog pages (home, listing, product) are rendered with their
 * data; pages that belong to one shopper (cart, checkout, account) render their shell only.
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from './router/Router.js';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { AppRoutes, isNotFound, preloadPages } from './routes.js';
import { serverClient } from './shop/client.js';
import { AppProviders } from './shop/AppProviders.js';
import { headHtml, listingHead, productHead } from './shell/head.js';
import { collectionsQuery, featuredQuery, listingQuery, parseListing, productQuery, ratingQuery } from './storefront/queries.js';

export interface RenderInput {
  url: string;
  origin: string;
  site: { siteId: string; clientId: string; name: string; currency: string };
  fetch: typeof fetch;
}
export interface RenderResult {
  status: number;
  head: string;
  html: string;
  state: unknown;
}

const PRIVATE = /^\/(cart|checkout|account|auth|admin)(\/|$)/;

export async function render(input: RenderInput): Promise<RenderResult> {
  const url = new URL(input.url, input.origin);
  const origin = input.origin.replace(/\/$/, '');
  const catalog = serverClient(origin, input.fetch);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  const siteName = input.site.name;
  const currency = input.site.currency;
  let status = 200;
  let head = headHtml({ title: siteName, description: `Shop ${siteName}: clothing, kitchen goods and coffee, shipped with care.`, canonical: `${origin}${url.pathname}` });

  const path = url.pathname.replace(/\/+$/, '') || '/';
  const productMatch = /^\/products\/([^/]+)$/.exec(path);
  if (path === '/') {
    await Promise.all([queryClient.prefetchQuery(featuredQuery(catalog)), queryClient.prefetchQuery(collectionsQuery(catalog))]);
    const featured = queryClient.getQueryData(featuredQuery(catalog).queryKey) ?? [];
    head = listingHead(featured, siteName, `${origin}/`, origin, siteName, currency).replace(`<title>${siteName} · ${siteName}</title>`, `<title>${siteName}</title>`);
  } else if (path === '/products') {
    const params = parseListing(url.searchParams);
    await Promise.all([queryClient.prefetchQuery(listingQuery(catalog, params)), queryClient.prefetchQuery(collectionsQuery(catalog))]);
    const listing = queryClient.getQueryData(listingQuery(catalog, params).queryKey);
    const canonical = new URL('/products', origin);
    if (params.collection) canonical.searchParams.set('collection', params.collection);
    if (params.page > 1) canonical.searchParams.set('page', String(params.page));
    if (listing?.unknownCollection) status = 404;
    const title = listing?.collectionName ?? (params.q ? `Results for “${params.q}”` : 'All products');
    head = listingHead(listing?.products ?? [], title, canonical.href, origin, siteName, currency);
  } else if (productMatch) {
    const slug = decodeURIComponent(productMatch[1]);
    await queryClient.prefetchQuery(productQuery(catalog, slug));
    const product = queryClient.getQueryData(productQuery(catalog, slug).queryKey);
    if (product === null) status = 404;
    else if (product) {
      // The rating is rendered with the page (and its JSON-LD); without it the page still renders.
      await queryClient.prefetchQuery(ratingQuery(catalog, product._id ?? ''));
      head = productHead(product, origin, siteName, currency, queryClient.getQueryData(ratingQuery(catalog, product._id ?? '').queryKey));
    }
  } else if (PRIVATE.test(path)) {
    head = headHtml({ title: siteName, description: siteName, canonical: `${origin}${url.pathname}` }) + '\n<meta name="robots" content="noindex">';
  }

  await preloadPages(url.pathname);
  if (isNotFound(url.pathname)) {
    status = 404;
    head = headHtml({ title: `Not found · ${siteName}`, description: 'This page does not exist.', canonical: `${origin}${url.pathname}` }) + '\n<meta name="robots" content="noindex">';
  }
  const site = { ...input.site, origin };
  const html = renderToString(
    <AppProviders queryClient={queryClient} site={site} catalog={catalog}>
      <StaticRouter location={url.pathname + url.search}><AppRoutes /></StaticRouter>
    </AppProviders>,
  );
  return { status, head, html, state: dehydrate(queryClient) };
}
