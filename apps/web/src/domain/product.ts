import type { Product } from '@bodega/sdk';
import { formatMoney } from '../ui/money.js';

/** The catalog's parts, narrowed to what the pages show. */
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
  const items = product.media.items;
  const list = items.length ? items : product.media.mainMedia ? [product.media.mainMedia] : [];
  return list.flatMap(({ image, title }) => {
    if (!image.url) return [];
    return [{ url: localUrl(image.url), alt: image.altText ?? title, width: image.width, height: image.height }];
  });
}

export function productOptions(product: Product): ProductOption[] {
  return product.productOptions.map((o) => ({
    name: o.name,
    choices: o.choices.map((choice) => {
      const imageUrl = choice.media.mainMedia?.image.url;
      return {
        value: choice.value, description: choice.description, inStock: choice.inStock, visible: choice.visible,
        ...(imageUrl && { imageUrl: localUrl(imageUrl) }),
      };
    }).filter((c) => c.visible),
  }));
}

export function productVariants(product: Product): Variant[] {
  return product.variants.map(({ _id, choices, variant, stock }) => ({
    id: _id,
    choices,
    price: variant.priceData.formatted.price,
    discountedPrice: variant.priceData.formatted.discountedPrice,
    sku: variant.sku,
    inStock: stock.inStock,
    quantity: stock.trackQuantity ? stock.quantity ?? undefined : undefined,
    visible: variant.visible,
  }));
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
  return product.additionalInfoSections.flatMap(({ title, description }) => {
    const text = plainText(description);
    return title && text ? [{ title, text }] : [];
  });
}
