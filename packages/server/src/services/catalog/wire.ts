// Catalog ↔ Stores v1 wire. Stores v1 sends prices and weights as JSON numbers, so this is the one
// place where a number becomes minor units (refusing more decimals than the currency has) and back.
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { formatAmount, formatDecimal, formattedAmount, MoneyError, parseAmount, parseDecimal } from '../../platform/money.js';
import {
  discountedPrice,
  productStock,
  stockOf,
  variantPrice,
  variantSku,
  variantWeight,
  type CustomTextField,
  type InfoSection,
  type OptionType,
  type Product,
  type ProductDiscount,
  type ProductOption,
  type ProductType,
} from './products.js';
import type { Collection } from './store.js';
import { choiceMedia } from './choice-media.js';

// Wire input shapes (as the routes' schemas admit them) -------------------------------------------

export interface WireMediaInput {
  url?: string;
  image?: { url?: string; width?: number; height?: number; altText?: string | null };
  title?: string;
  altText?: string | null;
  width?: number;
  height?: number;
}

export interface WireVariantInput {
  choices?: Record<string, string>;
  variantIds?: string[];
  price?: number | null;
  weight?: number | null;
  sku?: string | null;
  visible?: boolean | null;
  variant?: { priceData?: { price?: number | null }; weight?: number | null; sku?: string | null; visible?: boolean | null };
  stock?: { quantity?: number | null; inStock?: boolean | null; trackQuantity?: boolean };
}

export interface WireProductInput {
  name?: string | null;
  slug?: string;
  visible?: boolean | null;
  productType?: string;
  description?: string | null;
  sku?: string | null;
  weight?: number | null;
  priceData?: { price?: number | null; currency?: string };
  price?: { price?: number | null };
  discount?: { type?: string; value?: number };
  stock?: { trackInventory?: boolean; quantity?: number | null; inStock?: boolean; inventoryStatus?: string };
  manageVariants?: boolean | null;
  productOptions?: { optionType?: string; name?: string; choices?: { value?: string; description?: string; inStock?: boolean; visible?: boolean }[] }[];
  ribbon?: string | null;
  ribbons?: { text?: string }[];
  brand?: string | null;
  additionalInfoSections?: { title?: string; description?: string }[];
  customTextFields?: { title?: string; maxLength?: number; mandatory?: boolean }[];
  media?: { items?: WireMediaInput[]; mainMedia?: WireMediaInput };
  variants?: WireVariantInput[];
}

// Domain input --------------------------------------------------------------------------------

export interface MediaInput {
  url: string;
  width: number;
  height: number;
  title: string;
  altText?: string;
}

export interface VariantPatch {
  choices?: Record<string, string>;
  variantIds?: string[];
  price?: bigint | null;
  weight?: string | null;
  sku?: string | null;
  visible?: boolean;
  quantity?: number | null;
  inStock?: boolean;
}

export interface ProductPatch {
  name?: string;
  slug?: string;
  description?: string;
  productType?: ProductType;
  visible?: boolean;
  sku?: string | null;
  weight?: string | null;
  price?: bigint;
  discount?: ProductDiscount;
  trackInventory?: boolean;
  quantity?: number | null;
  inStock?: boolean;
  manageVariants?: boolean;
  options?: ProductOption[];
  variants?: VariantPatch[];
  media?: MediaInput[];
  ribbon?: string | null;
  brand?: string | null;
  additionalInfoSections?: InfoSection[];
  customTextFields?: CustomTextField[];
}

/** A wire number as minor units; more decimals than the currency has are refused. */
export function minorFromNumber(value: number, currency: string): bigint {
  return parseAmount(formatDecimal(parseDecimal(value)), currency);
}

/** Minor units as the Stores v1 wire number (exact for any amount a currency can show). */
export function numberFromMinor(minor: bigint, currency: string): number {
  return Number(formatAmount(minor, currency));
}

function violation(field: string, rule: FieldViolation['rule'], description: string, data: Record<string, unknown> = {}): FieldViolation {
  return { field, rule, description, data };
}

function money(field: string, value: number, currency: string, violations: FieldViolation[]): bigint | undefined {
  try {
    return minorFromNumber(value, currency);
  } catch (error) {
    if (error instanceof MoneyError) {
      violations.push(violation(field, error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', error.message));
      return undefined;
    }
    throw error;
  }
}

function decimalText(field: string, value: number, violations: FieldViolation[]): string | undefined {
  if (!Number.isFinite(value) || value < 0) {
    violations.push(violation(field, 'MIN', 'must be a number of at least 0', { threshold: 0 }));
    return undefined;
  }
  return formatDecimal(parseDecimal(value));
}

/** Where product and collection pictures may live: an http(s) URL or the server's own /media/ path. */
export function isMediaUrl(url: string | undefined): url is string {
  return !!url && /^(https?:\/\/|\/media\/)/.test(url);
}

export const MEDIA_URL_RULE = 'must be an http(s) URL or a /media/ path';

/** Pictures sent without their size are taken as the wire's default square. */
export const DEFAULT_MEDIA_SIZE = 1000;

function mediaFromWire(items: WireMediaInput[], field: string, violations: FieldViolation[]): MediaInput[] {
  const media: MediaInput[] = [];
  items.forEach((item, i) => {
    const url = item.image?.url ?? item.url;
    if (!isMediaUrl(url)) {
      violations.push(violation(`${field}[${i}].image.url`, 'FORMAT', MEDIA_URL_RULE));
      return;
    }
    const altText = item.image?.altText ?? item.altText ?? undefined;
    media.push({
      url,
      width: item.image?.width ?? item.width ?? DEFAULT_MEDIA_SIZE,
      height: item.image?.height ?? item.height ?? DEFAULT_MEDIA_SIZE,
      title: item.title ?? '',
      ...(altText ? { altText } : {}),
    });
  });
  return media;
}

/** Checks and converts a wire product (create or partial update); throws a validation error. */
export function fromWireProduct(input: WireProductInput, currency: string, prefix = 'product'): ProductPatch {
  const violations: FieldViolation[] = [];
  const patch: ProductPatch = {};
  const f = (name: string) => `${prefix}.${name}`;

  if (input.name !== undefined && input.name !== null) {
    const name = input.name.trim();
    if (!name) violations.push(violation(f('name'), 'MIN_LENGTH', 'must not be empty', { threshold: 1 }));
    else patch.name = name;
  }
  if (input.slug !== undefined) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(input.slug)) violations.push(violation(f('slug'), 'FORMAT', 'use lower-case letters, digits and single dashes'));
    else patch.slug = input.slug;
  }
  if (input.visible !== undefined && input.visible !== null) patch.visible = input.visible;
  if (input.productType !== undefined) {
    if (input.productType !== 'physical' && input.productType !== 'digital') {
      violations.push(violation(f('productType'), 'INVALID_ENUM_VALUE', 'must be physical or digital', { allowedValues: ['physical', 'digital'] }));
    } else patch.productType = input.productType;
  }
  if (input.description !== undefined) patch.description = input.description ?? '';
  if (input.sku !== undefined) patch.sku = input.sku || null;
  if (input.weight !== undefined) patch.weight = input.weight === null ? null : decimalText(f('weight'), input.weight, violations) ?? null;

  const price = input.priceData?.price ?? input.price?.price;
  if (price !== undefined && price !== null) {
    if (price < 0) violations.push(violation(f('priceData.price'), 'MIN', 'must not be negative', { threshold: 0 }));
    else {
      const minor = money(f('priceData.price'), price, currency, violations);
      if (minor !== undefined) patch.price = minor;
    }
  }
  if (input.discount?.type !== undefined) {
    const type = input.discount.type;
    const value = input.discount.value ?? 0;
    if (type === 'NONE' || type === 'UNDEFINED') patch.discount = { type: 'NONE', value: '0' };
    else if (type === 'PERCENT') {
      if (!(value >= 0 && value <= 100)) violations.push(violation(f('discount.value'), 'MAX', 'a percent discount is between 0 and 100', { threshold: 100 }));
      else patch.discount = { type: 'PERCENT', value: formatDecimal(parseDecimal(value)) };
    } else if (type === 'AMOUNT') {
      if (value < 0) violations.push(violation(f('discount.value'), 'MIN', 'must not be negative', { threshold: 0 }));
      else {
        const minor = money(f('discount.value'), value, currency, violations);
        if (minor !== undefined) patch.discount = { type: 'AMOUNT', value: minor.toString() };
      }
    } else violations.push(violation(f('discount.type'), 'INVALID_ENUM_VALUE', 'must be NONE, AMOUNT or PERCENT', { allowedValues: ['NONE', 'AMOUNT', 'PERCENT'] }));
  }

  if (input.stock) {
    const stock = input.stock;
    if (stock.trackInventory !== undefined) patch.trackInventory = stock.trackInventory;
    if (stock.quantity !== undefined && stock.quantity !== null) {
      if (!Number.isSafeInteger(stock.quantity) || stock.quantity < 0) violations.push(violation(f('stock.quantity'), 'MIN', 'must be a whole number of at least 0', { threshold: 0 }));
      else patch.quantity = stock.quantity;
    }
    if (stock.inStock !== undefined) patch.inStock = stock.inStock;
    else if (stock.inventoryStatus === 'IN_STOCK' || stock.inventoryStatus === 'OUT_OF_STOCK') patch.inStock = stock.inventoryStatus === 'IN_STOCK';
  }
  if (input.manageVariants !== undefined && input.manageVariants !== null) patch.manageVariants = input.manageVariants;

  if (input.productOptions !== undefined) {
    const names = new Set<string>();
    patch.options = [];
    input.productOptions.forEach((option, i) => {
      const name = option.name?.trim() ?? '';
      if (!name) violations.push(violation(f(`productOptions[${i}].name`), 'REQUIRED_FIELD', 'an option needs a name'));
      else if (names.has(name)) violations.push(violation(f(`productOptions[${i}].name`), 'VALIDATION', `option "${name}" is listed twice`));
      names.add(name);
      const optionType: OptionType = option.optionType === 'color' ? 'color' : 'drop_down';
      const values = new Set<string>();
      const choices = (option.choices ?? []).map((choice, j) => {
        const value = choice.value?.trim() ?? '';
        if (!value) violations.push(violation(f(`productOptions[${i}].choices[${j}].value`), 'REQUIRED_FIELD', 'a choice needs a value'));
        else if (values.has(value)) violations.push(violation(f(`productOptions[${i}].choices[${j}].value`), 'VALIDATION', `choice "${value}" is listed twice`));
        values.add(value);
        return { value, description: choice.description ?? value, inStock: choice.inStock ?? true, visible: choice.visible ?? true };
      });
      if (choices.length === 0) violations.push(violation(f(`productOptions[${i}].choices`), 'MIN_SIZE', 'an option needs at least one choice', { threshold: 1 }));
      patch.options?.push({ optionType, name, choices });
    });
  }

  const ribbon = input.ribbon ?? input.ribbons?.[0]?.text;
  if (input.ribbon !== undefined || input.ribbons !== undefined) patch.ribbon = ribbon || null;
  if (input.brand !== undefined) patch.brand = input.brand || null;
  if (input.additionalInfoSections !== undefined) {
    patch.additionalInfoSections = input.additionalInfoSections.map((s) => ({ title: s.title ?? '', description: s.description ?? '' }));
  }
  if (input.customTextFields !== undefined) {
    patch.customTextFields = input.customTextFields.map((c, i) => {
      if (!c.title) violations.push(violation(f(`customTextFields[${i}].title`), 'REQUIRED_FIELD', 'a text field needs a title'));
      return { title: c.title ?? '', maxLength: c.maxLength ?? 500, mandatory: c.mandatory ?? false };
    });
  }
  if (input.media !== undefined) {
    const items = input.media.items ?? (input.media.mainMedia ? [input.media.mainMedia] : []);
    patch.media = mediaFromWire(items, f('media.items'), violations);
  }
  if (input.variants !== undefined) patch.variants = input.variants.map((v, i) => fromWireVariant(v, currency, f(`variants[${i}]`), violations));

  if (violations.length) throw ApiError.validation(violations);
  return patch;
}

export function fromWireVariant(v: WireVariantInput, currency: string, field: string, violations: FieldViolation[]): VariantPatch {
  const patch: VariantPatch = {};
  if (v.choices !== undefined) patch.choices = v.choices;
  if (v.variantIds !== undefined) patch.variantIds = v.variantIds;
  const price = v.price ?? v.variant?.priceData?.price;
  if (price !== undefined) patch.price = price === null ? null : price < 0 ? (violations.push(violation(`${field}.price`, 'MIN', 'must not be negative', { threshold: 0 })), null) : money(`${field}.price`, price, currency, violations) ?? null;
  const weight = v.weight ?? v.variant?.weight;
  if (weight !== undefined) patch.weight = weight === null ? null : decimalText(`${field}.weight`, weight, violations) ?? null;
  const sku = v.sku ?? v.variant?.sku;
  if (sku !== undefined) patch.sku = sku || null;
  const visible = v.visible ?? v.variant?.visible;
  if (visible !== undefined && visible !== null) patch.visible = visible;
  if (v.stock?.quantity !== undefined) {
    const q = v.stock.quantity;
    if (q !== null && (!Number.isSafeInteger(q) || q < 0)) violations.push(violation(`${field}.stock.quantity`, 'MIN', 'must be a whole number of at least 0', { threshold: 0 }));
    else patch.quantity = q;
  }
  if (v.stock?.inStock !== undefined && v.stock.inStock !== null) patch.inStock = v.stock.inStock;
  return patch;
}

// Output --------------------------------------------------------------------------------------

export interface WireOptions {
  currency: string;
  /** Absolute base for `/media/…` paths and product page URLs. */
  publicUrl: string;
  /** Back-office callers see stock quantities and hidden variants. */
  merchant: boolean;
}

export function absoluteUrl(url: string, publicUrl: string): string {
  return url.startsWith('/') ? `${publicUrl.replace(/\/$/, '')}${url}` : url;
}

function priceData(price: bigint, discounted: bigint, currency: string) {
  return {
    currency,
    price: numberFromMinor(price, currency),
    discountedPrice: numberFromMinor(discounted, currency),
    formatted: { price: formattedAmount(price, currency), discountedPrice: formattedAmount(discounted, currency) },
  };
}

export function toWireMediaItem(item: Product['media'][number], publicUrl: string) {
  const url = absoluteUrl(item.url, publicUrl);
  return {
    id: item.id,
    mediaType: 'image' as const,
    title: item.title,
    image: { url, width: item.width, height: item.height, ...(item.altText ? { altText: item.altText } : {}) },
    thumbnail: { url, width: Math.min(item.width, 50), height: Math.min(item.height, 50) },
  };
}

export function toWireProduct(product: Product, o: WireOptions) {
  const { currency } = o;
  const discounted = discountedPrice(product.price, product.discount);
  const stock = productStock(product);
  const variants = product.variants.filter((v) => o.merchant || v.visible);
  const prices = variants.map((v) => discountedPrice(variantPrice(product, v), product.discount));
  const weights = variants.map((v) => Number(variantWeight(product, v) ?? '0'));
  const media = product.media.map((m) => toWireMediaItem(m, o.publicUrl));
  const base = priceData(product.price, discounted, currency);
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    visible: product.visible,
    productType: product.productType,
    description: product.description,
    ...(product.sku ? { sku: product.sku } : {}),
    weight: Number(product.weight ?? '0'),
    weightRange: weights.length ? { minValue: Math.min(...weights), maxValue: Math.max(...weights) } : { minValue: 0, maxValue: 0 },
    stock: {
      trackInventory: stock.tracked,
      ...(stock.tracked ? { quantity: stock.quantity } : {}),
      inStock: stock.inStock,
      inventoryStatus: stock.inventoryStatus,
    },
    price: base,
    priceData: base,
    convertedPriceData: base,
    priceRange: {
      minValue: prices.length ? numberFromMinor(prices.reduce((a, b) => (a < b ? a : b)), currency) : base.discountedPrice,
      maxValue: prices.length ? numberFromMinor(prices.reduce((a, b) => (a > b ? a : b)), currency) : base.discountedPrice,
    },
    additionalInfoSections: product.additionalInfoSections,
    ribbons: product.ribbon ? [{ text: product.ribbon }] : [],
    ...(product.ribbon ? { ribbon: product.ribbon } : {}),
    ...(product.brand ? { brand: product.brand } : {}),
    media: { ...(media[0] ? { mainMedia: media[0] } : {}), items: media },
    customTextFields: product.customTextFields,
    manageVariants: product.manageVariants,
    productOptions: product.options.map((option) => ({
      optionType: option.optionType,
      name: option.name,
      choices: option.choices.filter((c) => o.merchant || c.visible).map((c) => {
        const items = choiceMedia(product.media, c.mediaIds).map((m) => toWireMediaItem(m, o.publicUrl));
        return { value: c.value, description: c.description, inStock: c.inStock, visible: c.visible, media: { ...(items[0] && { mainMedia: items[0] }), items } };
      }),
    })),
    productPageUrl: { base: `${o.publicUrl.replace(/\/$/, '')}/`, path: `/product-page/${product.slug}` },
    numericId: String(product.numericId),
    inventoryItemId: product.id,
    discount: {
      type: product.discount.type,
      value: product.discount.type === 'AMOUNT' ? numberFromMinor(BigInt(product.discount.value), currency) : Number(product.discount.value),
    },
    collectionIds: product.collectionIds,
    variants: variants.map((v) => toWireVariant(product, v, o)),
    lastUpdated: product.updatedDate.toISOString(),
    createdDate: product.createdDate.toISOString(),
  };
}

export function toWireVariant(product: Product, variant: Product['variants'][number], o: WireOptions) {
  const price = variantPrice(product, variant);
  const level = stockOf(product, variant);
  const data = priceData(price, discountedPrice(price, product.discount), o.currency);
  const sku = variantSku(product, variant);
  return {
    id: variant.id,
    choices: variant.choices,
    variant: {
      priceData: data,
      convertedPriceData: data,
      weight: Number(variantWeight(product, variant) ?? '0'),
      ...(sku ? { sku } : {}),
      visible: variant.visible,
    },
    stock: { trackQuantity: level.tracked, ...(level.tracked ? { quantity: level.quantity } : {}), inStock: level.inStock },
  };
}

export function toWireCollection(c: Collection, publicUrl: string) {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    visible: c.visible,
    numberOfProducts: c.numberOfProducts,
    ...(c.description !== null ? { description: c.description } : {}),
    media: c.media
      ? { mainMedia: { id: c.id, mediaType: 'image' as const, title: c.name, image: { ...c.media, url: absoluteUrl(c.media.url, publicUrl) } }, items: [] }
      : { items: [] },
  };
}
