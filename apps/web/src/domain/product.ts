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
      return { value: str(choice.value) ?? '', description: str(choice.description) ?? str(choice.value) ?? '', inStock: choice.inStock !== false, visible: choice.visible !== false };
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
