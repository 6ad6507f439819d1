import type { Product, RatingSummary } from '@bodega/sdk';
import { imageSources, inStock, plainText, priceOf, PRODUCT_IMAGE_SIZES, productImages } from '../domain/product.js';
import { decimalAmount } from '../ui/money.js';

/** The server-rendered <head> parts: title, description, canonical, Open Graph, JSON-LD. */
export interface HeadInput {
  title: string;
  description: string;
  canonical: string;
  image?: string;
  /** The page's largest picture (its LCP), as its <img> names it: fetched at once, before the script. */
  preloadImage?: string;
  /** Its `srcset` and `sizes`, so the preload fetches the size the <img> will pick. */
  preloadSrcSet?: { srcSet: string; sizes: string };
  type?: 'website' | 'product';
  jsonLd?: unknown;
  extra?: [string, string][];
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON inside <script>: no `<` can close the element early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function headHtml(h: HeadInput): string {
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}">`;
  return [
    `<title>${escapeHtml(h.title)}</title>`,
    `<meta name="description" content="${escapeHtml(h.description)}">`,
    `<link rel="canonical" href="${escapeHtml(h.canonical)}">`,
    ...(h.preloadImage ? [`<link rel="preload" as="image" href="${escapeHtml(h.preloadImage)}"${h.preloadSrcSet ? ` imagesrcset="${escapeHtml(h.preloadSrcSet.srcSet)}" imagesizes="${escapeHtml(h.preloadSrcSet.sizes)}"` : ''} fetchpriority="high">`] : []),
    meta('og:type', h.type ?? 'website'),
    meta('og:title', h.title),
    meta('og:description', h.description),
    meta('og:url', h.canonical),
    ...(h.image ? [meta('og:image', h.image)] : []),
    ...(h.extra ?? []).map(([p, c]) => meta(p, c)),
    `<meta name="twitter:card" content="${h.image ? 'summary_large_image' : 'summary'}">`,
    ...(h.jsonLd ? [`<script type="application/ld+json">${scriptJson(h.jsonLd)}</script>`] : []),
  ].join('\n');
}

function absolute(origin: string, url: string): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}

/** The product's currency, else the site's. */
function currencyOf(product: Product, siteCurrency: string): string {
  return product.priceData?.currency ?? product.price?.currency ?? siteCurrency;
}

export function productJsonLd(product: Product, origin: string, siteCurrency: string, rating?: RatingSummary) {
  const currency = currencyOf(product, siteCurrency);
  const price = decimalAmount(priceOf(product).amount, currency);
  const url = `${origin}/products/${product.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: plainText(product.description),
    url,
    image: productImages(product).map((i) => absolute(origin, i.url)),
    ...(product.sku && { sku: product.sku }),
    ...(product.brand && { brand: { '@type': 'Brand', name: product.brand } }),
    offers: {
      '@type': 'Offer',
      url,
      ...(price !== undefined && { price }),
      priceCurrency: currency,
      availability: inStock(product) ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    },
    ...(rating && rating.count > 0 && { aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.average, reviewCount: rating.count, bestRating: 5, worstRating: 1 } }),
  };
}

export function productHead(product: Product, origin: string, siteName: string, siteCurrency: string, rating?: RatingSummary): string {
  const image = productImages(product)[0];
  const sources = image && imageSources(image, PRODUCT_IMAGE_SIZES);
  const price = priceOf(product);
  const currency = currencyOf(product, siteCurrency);
  const amount = decimalAmount(price.amount, currency);
  const description = plainText(product.description).slice(0, 300) || `${product.name} from ${siteName}.`;
  return headHtml({
    title: `${product.name} · ${siteName}`,
    description: `${description} ${price.price}.`.trim(),
    canonical: `${origin}/products/${product.slug}`,
    image: image ? absolute(origin, image.url) : undefined,
    preloadImage: sources?.src,
    ...(sources?.srcSet && sources.sizes && { preloadSrcSet: { srcSet: sources.srcSet, sizes: sources.sizes } }),
    type: 'product',
    extra: [...(amount !== undefined ? [['product:price:amount', amount] as [string, string]] : []), ['product:price:currency', currency], ['og:site_name', siteName]],
    jsonLd: productJsonLd(product, origin, siteCurrency, rating),
  });
}

export function listingHead(products: Product[], title: string, canonical: string, origin: string, siteName: string, currency: string): string {
  const names = products.slice(0, 6).map((p) => `${p.name} (${priceOf(p).price})`).join(', ');
  const image = products[0] ? productImages(products[0])[0] : undefined;
  return headHtml({
    title: `${title} · ${siteName}`,
    description: names ? `${title} at ${siteName}: ${names}.` : `${title} at ${siteName}.`,
    canonical,
    image: image ? absolute(origin, image.url) : undefined,
    extra: [['og:site_name', siteName]],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: title,
      itemListElement: products.map((p, i) => ({ '@type': 'ListItem', position: i + 1, item: productJsonLd(p, origin, currency) })),
    },
  });
}
