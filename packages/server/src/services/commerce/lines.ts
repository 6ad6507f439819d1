// Line items of carts and checkouts: what a buyer asked for (references to the catalog, or custom
// lines an API key adds), resolved against the catalog as it is now, and turned into pricing input.
// Pure: no I/O, no clock.
import {
  discountedPrice,
  isStoresAppId,
  resolveVariant,
  stockOf,
  variantPrice,
  variantSku,
  variantWeight,
  type CatalogOptions,
  type MediaItem,
  type Product,
} from '../catalog/service.js';
import { ApiError } from '../../platform/errors.js';
import type { Address, DiscountValue, ItemType, MerchantDiscount, StockInfo } from './pricing/model.js';

export const MAX_LINE_QUANTITY = 100_000;

export function quantityTooHigh(): ApiError {
  return ApiError.validation([{ field: 'lineItems.quantity', rule: 'MAX', description: `a line holds at most ${MAX_LINE_QUANTITY} units`, data: { threshold: MAX_LINE_QUANTITY } }]);
}

/** A catalog line as a buyer asks for it. */
export interface CatalogLineInput {
  catalogReference: CatalogReference;
  quantity: number;
}

export interface CatalogReference {
  appId: string;
  catalogItemId: string;
  options?: CatalogOptions & Record<string, unknown>;
}

/** A line an API key adds with its own price (CUSTOM_AMOUNT_ITEM unless it says otherwise). */
export interface CustomLine {
  productName: string;
  price: bigint;
  fullPrice?: bigint;
  itemType: ItemType;
  descriptionLines: DescriptionLine[];
  media?: { url: string; width: number; height: number };
  url?: string;
  weight?: string;
  sku?: string;
  /** Null or absent: unlimited. */
  quantityAvailable?: number | null;
  catalogReference?: CatalogReference;
  taxable: boolean;
}

export interface LineRef {
  id: string;
  quantity: number;
  catalogReference?: CatalogReference;
  custom?: CustomLine;
}

export interface DescriptionLine {
  name: string;
  value: string;
  /** For color choices: the color code. */
  color?: string;
}

export interface ResolvedLine {
  ref: LineRef;
  productId?: string;
  variantId?: string;
  slug?: string;
  name: string;
  /** Unit price after the catalog's discount. */
  price: bigint;
  /** Unit price before it. */
  fullPrice: bigint;
  itemType: ItemType;
  weight: string | null;
  sku: string | null;
  image: Pick<MediaItem, 'url' | 'width' | 'height'> & { altText?: string } | null;
  descriptionLines: DescriptionLine[];
  stock: StockInfo;
}

type VariantResolution = ReturnType<typeof resolveVariant>;

/** Finds a line's variant from its catalog options. */
export type VariantResolver = (product: Product, options: CatalogOptions | undefined) => VariantResolution;

/**
 * A resolver that answers each product and options once (a request checks new lines when it
 * adds them, then resolves the whole cart to price it: the same work twice without this).
 */
export function variantResolver(): VariantResolver {
  const memo = new WeakMap<Product, Map<string, VariantResolution>>();
  return (product, options) => {
    let byOptions = memo.get(product);
    if (!byOptions) memo.set(product, (byOptions = new Map<string, VariantResolution>()));
    const key = options === undefined ? '' : JSON.stringify(options);
    let resolution = byOptions.get(key);
    if (!resolution) byOptions.set(key, (resolution = resolveVariant(product, options)));
    return resolution;
  };
}

/**
 * The picture of the chosen variant, picked as the product page picks it: the first picture whose
 * alt text or title names one of the chosen values as a word (a colour's first), else the main one.
 */
export function variantPicture(product: Pick<Product, 'media' | 'options'>, choices: Readonly<Record<string, string>>): Product['media'][number] | undefined {
  const byColourFirst = [...product.options].sort((a, b) => Number(b.optionType === 'color') - Number(a.optionType === 'color'));
  for (const option of byColourFirst) {
    const value = choices[option.name];
    if (!value) continue;
    const word = new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
    const picture = product.media.find((m) => word.test(m.altText ?? '') || word.test(m.title));
    if (picture) return picture;
  }
  return product.media[0];
}

/** Resolves lines against the products they point at; hidden or deleted products are NOT_FOUND. */
export function resolveLines(refs: readonly LineRef[], products: ReadonlyMap<string, Product>, resolve: VariantResolver = resolveVariant): ResolvedLine[] {
  return refs.map((ref) => {
    if (ref.custom) {
      const c = ref.custom;
      return {
        ref,
        name: c.productName,
        price: c.price,
        fullPrice: c.fullPrice ?? c.price,
        itemType: c.itemType,
        weight: c.weight ?? null,
        sku: c.sku ?? null,
        image: c.media ?? null,
        descriptionLines: c.descriptionLines,
        stock: { found: true, inStock: c.quantityAvailable === undefined || c.quantityAvailable === null || c.quantityAvailable > 0, quantityAvailable: c.quantityAvailable ?? null },
      };
    }
    const productId = ref.catalogReference?.catalogItemId ?? '';
    const product = products.get(productId);
    const missing: ResolvedLine = {
      ref,
      productId,
      name: product?.name ?? '',
      price: 0n,
      fullPrice: 0n,
      itemType: product?.productType === 'digital' ? 'DIGITAL' : 'PHYSICAL',
      weight: null,
      sku: null,
      image: null,
      descriptionLines: [],
      stock: { found: false, inStock: false },
    };
    if (!product || !product.visible || !isStoresAppId(ref.catalogReference?.appId)) return missing;
    const resolution = resolve(product, ref.catalogReference?.options);
    if (!resolution.ok || !resolution.variant.visible) return missing;
    const { variant, customTextFields } = resolution;
    const level = stockOf(product, variant);
    const fullPrice = variantPrice(product, variant);
    const main = variantPicture(product, variant.choices);
    return {
      ref,
      productId,
      variantId: variant.id,
      slug: product.slug,
      name: product.name,
      price: discountedPrice(fullPrice, product.discount),
      fullPrice,
      itemType: product.productType === 'digital' ? 'DIGITAL' : 'PHYSICAL',
      weight: variantWeight(product, variant),
      sku: variantSku(product, variant),
      image: main ? { url: main.url, width: main.width, height: main.height, ...(main.altText ? { altText: main.altText } : {}) } : null,
      descriptionLines: [
        ...product.options.map((option) => {
          const value = variant.choices[option.name] ?? '';
          const choice = option.choices.find((c) => c.value === value);
          return { name: option.name, value, ...(option.optionType === 'color' && choice ? { color: choice.description } : {}) };
        }),
        ...Object.entries(customTextFields).map(([name, value]) => ({ name, value })),
      ],
      stock: { found: true, inStock: level.inStock, quantityAvailable: level.tracked ? level.quantity : null },
    };
  });
}

/** Where a wire address says it is, for shipping and tax rules. */
export function addressRegion(address: Record<string, unknown> | null | undefined): Address | undefined {
  if (!address) return undefined;
  const country = typeof address.country === 'string' ? address.country : undefined;
  const subdivision = typeof address.subdivision === 'string' ? address.subdivision : undefined;
  return country ? { country, ...(subdivision ? { subdivision } : {}) } : undefined;
}

/** A custom line as JSON (amounts as decimal strings of minor units), for the tables that keep lines. */
export type StoredCustomLine = Omit<CustomLine, 'price' | 'fullPrice'> & { price: string; fullPrice?: string };

export function customLineToJson(custom: CustomLine): StoredCustomLine {
  const { price, fullPrice, ...rest } = custom;
  return { ...rest, price: price.toString(), ...(fullPrice !== undefined && { fullPrice: fullPrice.toString() }) };
}

export function customLineFromJson(json: StoredCustomLine): CustomLine {
  const { price, fullPrice, ...rest } = json;
  return { ...rest, price: BigInt(price), ...(fullPrice !== undefined && { fullPrice: BigInt(fullPrice) }) };
}

/** A line reference as JSON, with the key that merges repeats of the same item. */
export interface StoredLine {
  id: string;
  key: string | null;
  quantity: number;
  catalogReference?: CatalogReference;
  custom?: StoredCustomLine;
}

export function lineToJson(line: LineRef, key: string | null): StoredLine {
  return {
    id: line.id,
    key,
    quantity: line.quantity,
    ...(line.catalogReference && { catalogReference: line.catalogReference }),
    ...(line.custom && { custom: customLineToJson(line.custom) }),
  };
}

export function lineFromJson(json: StoredLine): LineRef {
  return {
    id: json.id,
    quantity: json.quantity,
    ...(json.catalogReference && { catalogReference: json.catalogReference }),
    ...(json.custom && { custom: customLineFromJson(json.custom) }),
  };
}

// Merchant discounts as JSON (amounts as decimal strings of minor units) ---------------------

export type StoredDiscount = ({ type: 'PERCENT'; percent: string } | { type: 'AMOUNT'; amount: string }) & { id?: string; lineItemIds?: string[] };

export function storeDiscounts(discounts: readonly MerchantDiscount[]): string {
  return JSON.stringify(discounts.map((d): StoredDiscount => ({
    ...(d.id !== undefined && { id: d.id }),
    ...(d.lineItemIds !== undefined && { lineItemIds: [...d.lineItemIds] }),
    ...(d.type === 'PERCENT' ? { type: 'PERCENT', percent: d.percent } : { type: 'AMOUNT', amount: d.amount.toString() }),
  })));
}

export function readDiscounts(json: unknown): MerchantDiscount[] {
  return ((json ?? []) as StoredDiscount[]).map((d) => {
    const value: DiscountValue = d.type === 'PERCENT' ? { type: 'PERCENT', percent: d.percent } : { type: 'AMOUNT', amount: BigInt(d.amount) };
    return { ...value, ...(d.id !== undefined && { id: d.id }), ...(d.lineItemIds !== undefined && { lineItemIds: d.lineItemIds }) };
  });
}

/**
 * Adds lines to lines the way a cart's stored lines take an add (the ON CONFLICT on line_key in
 * cart/store.ts): a line whose key is already there adds its quantity, any other (a new item, a
 * custom line, which has no key) is appended. Returns new lines; the inputs are not changed.
 */
export function mergeLines<L extends { key: string | null; quantity: number }>(lines: readonly L[], added: readonly L[]): L[] {
  const merged = lines.map((l) => ({ ...l }));
  const byKey = new Map<string, L>();
  const remember = (line: L) => {
    if (line.key && !byKey.has(line.key)) byKey.set(line.key, line);
  };
  merged.forEach(remember);
  for (const line of added) {
    const same = line.key ? byKey.get(line.key) : undefined;
    if (same) {
      same.quantity += line.quantity;
    } else {
      const copy = { ...line };
      merged.push(copy);
      remember(copy);
    }
  }
  return merged;
}
