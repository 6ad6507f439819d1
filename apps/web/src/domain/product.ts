import type { Product } from '@bodega/sdk';
import { formatMoney } from '../ui/money.js';

/** The catalog's loosely typed parts, narrowed to what the pages show. */
export interface ProductImage {
  url: string;
  alt: string;
  width: number;
  height: number;
}
export interface OptionChoice {
  value: string;
  description: string;
  inStock: boolean;
  visible: boolean;
  /** The picture the merchant chose for this choice (its main one), by URL. */
  imageUrl?: string;
}
export interface ProductOption {
  name: string;
  choices: OptionChoice[];
}
export interface Variant {
  id: string;
  choices: Record<string, string>;
  price?: string;
  discountedPrice?: string;
  sku?: string;
  inStock: boolean;
  quantity?: number;
  visible: boolean;
}

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** How wide the product page's main picture and a listing card's are shown (styles.css). */
export const PRODUCT_IMAGE_SIZES = '(max-width: 760px) 100vw, 620px';
export const CARD_IMAGE_SIZES = '(max-width: 760px) 50vw, (max-width: 960px) 33vw, 280px';

/** The widths the server makes of an uploaded picture (media/service.ts). */
const MEDIA_WIDTHS = [160, 320, 640, 960, 1280, 1920];
const UPLOADED = /^\/media\/u\/[A-Za-z0-9-]+\/[0-9a-f]{64}$/;

/**
 * `src`, `srcSet` and `sizes` of a picture: an uploaded one in every size the server makes up to
 * its own width (a wider ask answers the original's width), anything else as it is.
 */
export function imageSources(image: { url: string; width?: number }, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  if (!UPLOADED.test(image.url)) return { src: image.url };
  const own = image.width ?? 1920;
  const set = MEDIA_WIDTHS.filter((w) => w < own).map((w) => `${image.url}?w=${w} ${w}w`);
  const top = MEDIA_WIDTHS.find((w) => w >= own) ?? 1920;
  set.push(`${image.url}?w=${top} ${Math.min(own, top)}w`);
  return { src: `${image.url}?w=${Math.min(top, 640)}`, srcSet: set.join(', '), sizes };
}

/** Media the server hosts is addressed by path, so pages work under any of the site's domains. */
export function localUrl(url: string): string {
  try {
    const parsed = new URL(url, 'http://x');
    return parsed.pathname.startsWith('/media/') ? parsed.pathname + parsed.search : url;
  } catch {
    return url;
  }
}

export function productImages(product: Product): ProductImage[] {
  const items = Array.isArray(product.media?.items) ? product.media.items : [];
  const list = items.length ? items : product.media?.mainMedia ? [product.media.mainMedia] : [];
  return list.flatMap((item) => {
    const image = rec(rec(item).image);
    const url = str(image.url);
    if (!url) return [];
    return [{ url: localUrl(url), alt: str(image.altText) ?? str(rec(item).title) ?? product.name ?? '', width: num(image.width) ?? 800, height: num(image.height) ?? 800 }];
  });
}

export function productOptions(product: Product): ProductOption[] {
  return (product.productOptions ?? []).map((o) => ({
    name: str(o.name) ?? '',
    choices: (Array.isArray(o.choices) ? o.choices : []).map((c) => {
      const choice = rec(c);
      const imageUrl = str(rec(rec(rec(choice.media).mainMedia).image).url);
      return {
        value: str(choice.value) ?? '', description: str(choice.description) ?? str(choice.value) ?? '', inStock: choice.inStock !== false, visible: choice.visible !== false,
        ...(imageUrl && { imageUrl: localUrl(imageUrl) }),
      };
    }).filter((c) => c.visible),
  }));
}

export function productVariants(product: Product): Variant[] {
  return (product.variants ?? []).map((v) => {
    const variant = rec(v.variant);
    const price = rec(rec(variant.priceData).formatted);
    const stock = rec(v.stock);
    const choices: Record<string, string> = {};
    for (const [k, val] of Object.entries(rec(v.choices))) if (typeof val === 'string') choices[k] = val;
    return {
      id: str(v._id) ?? str(v.id) ?? '',
      choices,
      price: str(price.price),
      discountedPrice: str(price.discountedPrice),
      sku: str(variant.sku),
      inStock: stock.inStock !== false,
      quantity: stock.trackQuantity === true ? num(stock.quantity) : undefined,
      visible: variant.visible !== false,
    };
  });
}

export interface PriceView {
  price: string;
  /** Set when the shopper pays less than the list price. */
  was?: string;
  /** The variants cost different amounts; `price` is the lowest ("From $X"). */
  from?: boolean;
  amount: number;
}

export function priceOf(product: Product): PriceView {
  const data = product.priceData ?? product.price;
  const range = product.priceRange;
  if (range?.minValue !== undefined && range.maxValue !== undefined && range.minValue < range.maxValue && data?.currency) {
    // The wire's range is a number (as Wix sends it); only formatted here, never summed.
    return { price: formatMoney(range.minValue, data.currency), from: true, amount: range.minValue };
  }
  const price = data?.formatted?.price ?? '';
  const discounted = data?.formatted?.discountedPrice;
  const onSale = discounted !== undefined && data?.discountedPrice !== undefined && data.price !== undefined && data.discountedPrice < data.price;
  return onSale ? { price: discounted, was: price, amount: data.discountedPrice ?? 0 } : { price, amount: data?.price ?? 0 };
}

export function inStock(product: Product): boolean {
  return product.stock?.inStock !== false && product.stock?.inventoryStatus !== 'OUT_OF_STOCK';
}

/** The wire's description may carry simple HTML from the back office; pages show its text. */
export function plainText(html: string | undefined): string {
  return (html ?? '').replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

export interface InfoSection {
  title: string;
  text: string;
}

/** The product's extra sections (care, shipping and returns…), as plain text. */
export function infoSections(product: Product): InfoSection[] {
  const sections = (product as { additionalInfoSections?: unknown }).additionalInfoSections;
  if (!Array.isArray(sections)) return [];
  return sections.flatMap((section) => {
    const s = rec(section);
    const title = str(s.title);
    const text = plainText(str(s.description));
    return title && text ? [{ title, text }] : [];
  });
}
