// The catalog's domain: products with options, variants and stock, and the rules that read them.
// Pure: no I/O, no clock. Amounts are bigint minor units of the site currency.
import { divideHalfEven, parseAmount, percentOf } from '../../platform/money.js';

/** catalogReference.appId of line items that point at this catalog (the Wix Stores app id). */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** The Wix Stores app id older public templates send in catalog references; read as STORES_APP_ID. */
export const WIX_STORES_APP_ID = '1380b703-ce81-ff05-f115-39571d94dfcd';

/** A catalog reference names this catalog by either id (the caller's id is echoed back as sent). */
export function isStoresAppId(appId: string | null | undefined): boolean {
  return appId === STORES_APP_ID || appId === WIX_STORES_APP_ID;
}
/** The variant of a product without options, as Stores v1 names it. */
export const DEFAULT_VARIANT_ID = '00000000-0000-0000-0000-000000000000';
/** Every product is in this collection, as in Stores v1. */
export const ALL_PRODUCTS_COLLECTION_ID = '00000000-000000-000000-000000000001';

export const MAX_OPTIONS = 6;
export const MAX_VARIANTS = 300;
export const MAX_STOCK_QUANTITY = 99_999_999;

export type ProductType = 'physical' | 'digital';
export type OptionType = 'drop_down' | 'color';
export type DiscountType = 'NONE' | 'AMOUNT' | 'PERCENT';

export interface ProductDiscount {
  type: DiscountType;
  /** PERCENT: a percent ("12.5"); AMOUNT: minor units as a decimal integer string. */
  value: string;
}

export interface Choice {
  value: string;
  /** For color options, the color code. */
  description: string;
  inStock: boolean;
  visible: boolean;
  /** Ids of the product's media items shown for this choice (Wix: the choice's media). */
  mediaIds?: string[];
}

export interface ProductOption {
  optionType: OptionType;
  name: string;
  choices: Choice[];
}

export interface Variant {
  id: string;
  /** Option name → choice value (description for color options is not used as a key). */
  choices: Record<string, string>;
  /** Overrides the product's price when variants are managed; minor units. */
  price: bigint | null;
  weight: string | null;
  sku: string | null;
  visible: boolean;
  /** Used when variants are managed: units left (tracked) and the manual flag (untracked). */
  quantity: number | null;
  inStock: boolean;
}

export interface MediaItem {
  id: string;
  /** Absolute, or a path on this server (`/media/…`) made absolute when shown. */
  url: string;
  width: number;
  height: number;
  title: string;
  altText?: string;
}

export interface InfoSection {
  title: string;
  description: string;
}

export interface CustomTextField {
  title: string;
  maxLength: number;
  mandatory: boolean;
}

export interface Product {
  id: string;
  numericId: number;
  slug: string;
  name: string;
  description: string;
  productType: ProductType;
  visible: boolean;
  sku: string | null;
  weight: string | null;
  price: bigint;
  discount: ProductDiscount;
  trackInventory: boolean;
  /** Units left when inventory is tracked and variants are not managed. */
  quantity: number | null;
  /** Manual in-stock flag when inventory is not tracked and variants are not managed. */
  inStock: boolean;
  manageVariants: boolean;
  options: ProductOption[];
  variants: Variant[];
  media: MediaItem[];
  ribbon: string | null;
  brand: string | null;
  additionalInfoSections: InfoSection[];
  customTextFields: CustomTextField[];
  collectionIds: string[];
  createdDate: Date;
  updatedDate: Date;
}

/** Unit price after the product's discount, never below zero. */
export function discountedPrice(price: bigint, discount: ProductDiscount): bigint {
  switch (discount.type) {
    case 'PERCENT':
      return price - percentOf(price, discount.value);
    case 'AMOUNT': {
      const off = BigInt(discount.value);
      return off >= price ? 0n : price - off;
    }
    default:
      return price;
  }
}

/** A discount amount given in major units ("2.5") as minor units, rounded half-even. */
export function discountAmountMinor(value: string, currency: string): string {
  return parseAmount(value, currency, { round: true }).toString();
}

/** The percent an AMOUNT discount removes from a price, for display only. */
export function percentOff(price: bigint, discounted: bigint): bigint {
  return price === 0n ? 0n : divideHalfEven((price - discounted) * 100n, price);
}

/** Every combination of the options' choices, in option order. */
export function choiceCombinations(options: readonly ProductOption[]): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const option of options) {
    const next: Record<string, string>[] = [];
    for (const combo of combos) for (const choice of option.choices) next.push({ ...combo, [option.name]: choice.value });
    combos = next;
  }
  return combos;
}

export function choicesKey(choices: Record<string, string>): string {
  return JSON.stringify(Object.keys(choices).sort().map((k) => [k, choices[k]]));
}

/**
 * The variants for a set of options: one per combination of choices (the default variant when
 * there are no options), keeping what `previous` held for the same choices.
 */
export function buildVariants(options: readonly ProductOption[], previous: readonly Variant[], newVariantId: () => string): Variant[] {
  const byKey = new Map(previous.map((v) => [choicesKey(v.choices), v]));
  if (options.length === 0) {
    const kept = byKey.get(choicesKey({}));
    return [{ ...(kept ?? blankVariant(DEFAULT_VARIANT_ID, {})), id: DEFAULT_VARIANT_ID, choices: {} }];
  }
  return choiceCombinations(options).map((choices) => byKey.get(choicesKey(choices)) ?? blankVariant(newVariantId(), choices));
}

function blankVariant(id: string, choices: Record<string, string>): Variant {
  return { id, choices, price: null, weight: null, sku: null, visible: true, quantity: null, inStock: true };
}

export function variantPrice(product: Product, variant: Variant): bigint {
  return product.manageVariants && variant.price !== null ? variant.price : product.price;
}

export function variantWeight(product: Product, variant: Variant): string | null {
  return product.manageVariants && variant.weight !== null ? variant.weight : product.weight;
}

export function variantSku(product: Product, variant: Variant): string | null {
  return product.manageVariants && variant.sku !== null ? variant.sku : product.sku;
}

export interface StockLevel {
  tracked: boolean;
  /** Units left when tracked. */
  quantity: number | null;
  inStock: boolean;
}

/** The stock a variant sells from: its own when variants are managed, else the product's. */
export function stockOf(product: Product, variant: Variant): StockLevel {
  const choiceOut = !product.manageVariants && product.options.some((o) => o.choices.some((c) => c.value === variant.choices[o.name] && !c.inStock));
  if (product.trackInventory) {
    const quantity = (product.manageVariants ? variant.quantity : product.quantity) ?? 0;
    return { tracked: true, quantity, inStock: quantity > 0 && !choiceOut };
  }
  const flag = product.manageVariants ? variant.inStock : product.inStock;
  return { tracked: false, quantity: null, inStock: flag && !choiceOut };
}

export type InventoryStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';

/** The product's stock as Stores v1 shows it: summed over managed variants. */
export function productStock(product: Product): StockLevel & { inventoryStatus: InventoryStatus } {
  const levels = product.manageVariants ? product.variants.map((v) => stockOf(product, v)) : [stockOf(product, product.variants[0] ?? blankVariant(DEFAULT_VARIANT_ID, {}))];
  const inStockCount = levels.filter((l) => l.inStock).length;
  const inventoryStatus: InventoryStatus = inStockCount === levels.length ? 'IN_STOCK' : inStockCount === 0 ? 'OUT_OF_STOCK' : 'PARTIALLY_OUT_OF_STOCK';
  if (!product.manageVariants) {
    const level = product.trackInventory ? { tracked: true, quantity: product.quantity ?? 0, inStock: (product.quantity ?? 0) > 0 } : { tracked: false, quantity: null, inStock: product.inStock };
    return { ...level, inventoryStatus: level.inStock ? 'IN_STOCK' : 'OUT_OF_STOCK' };
  }
  const quantity = product.trackInventory ? levels.reduce((sum, l) => sum + (l.quantity ?? 0), 0) : null;
  return { tracked: product.trackInventory, quantity, inStock: inStockCount > 0, inventoryStatus };
}

/** What a line item's catalogReference.options may carry for a Stores product. */
export interface CatalogOptions {
  variantId?: string;
  options?: Record<string, string>;
  customTextFields?: Record<string, string>;
}

export type VariantResolution =
  | { ok: true; variant: Variant; customTextFields: Record<string, string> }
  | { ok: false; code: 'VARIANT_NOT_FOUND' | 'OPTIONS_REQUIRED' | 'INVALID_CUSTOM_TEXT_FIELD'; description: string };

/** Finds the variant a line item means, by variant id or by its choices. */
export function resolveVariant(product: Product, options: CatalogOptions | undefined): VariantResolution {
  let variant: Variant | undefined;
  if (options?.variantId !== undefined) {
    variant = product.variants.find((v) => v.id === options.variantId);
    if (!variant) return { ok: false, code: 'VARIANT_NOT_FOUND', description: `Product ${product.id} has no variant ${options.variantId}` };
  } else if (options?.options && Object.keys(options.options).length > 0) {
    const key = choicesKey(options.options);
    variant = product.variants.find((v) => choicesKey(v.choices) === key);
    if (!variant) return { ok: false, code: 'VARIANT_NOT_FOUND', description: `Product ${product.id} has no variant with those choices` };
  } else if (product.options.length > 0) {
    return { ok: false, code: 'OPTIONS_REQUIRED', description: `Choose ${product.options.map((o) => o.name).join(', ')} for product ${product.id}` };
  } else {
    variant = product.variants[0];
    if (!variant) return { ok: false, code: 'VARIANT_NOT_FOUND', description: `Product ${product.id} has no variant` };
  }
  const texts: Record<string, string> = {};
  const given = options?.customTextFields ?? {};
  for (const field of product.customTextFields) {
    const value = Object.hasOwn(given, field.title) ? given[field.title] : undefined;
    if (value === undefined || value === '') {
      if (field.mandatory) return { ok: false, code: 'INVALID_CUSTOM_TEXT_FIELD', description: `"${field.title}" is required` };
      continue;
    }
    if (value.length > field.maxLength) return { ok: false, code: 'INVALID_CUSTOM_TEXT_FIELD', description: `"${field.title}" is longer than ${field.maxLength}` };
    texts[field.title] = value;
  }
  return { ok: true, variant, customTextFields: texts };
}

/** Identifies a catalog line: the same product, variant and text fields add to one cart line. */
export function lineKey(productId: string, variantId: string, customTextFields: Record<string, string>): string {
  const texts = Object.keys(customTextFields).sort().map((k) => [k, customTextFields[k]]);
  return `${STORES_APP_ID}|${productId}|${variantId}|${texts.length ? JSON.stringify(texts) : ''}`;
}

export interface StockChange {
  productId: string;
  variantId: string;
  quantity: number;
}

export interface StockShortage {
  productId: string;
  variantId: string;
  requested: number;
  available: number;
}

/**
 * Applies stock changes to locked products: sign -1 sells, +1 restocks. Returns the changed
 * products, or the shortages when any tracked (or out-of-stock) item cannot be sold.
 */
export function applyStockChanges(
  products: ReadonlyMap<string, Product>,
  changes: readonly StockChange[],
  sign: 1 | -1,
): { ok: true; changed: Product[] } | { ok: false; shortages: StockShortage[] } {
  const working = new Map<string, Product>();
  const shortages: StockShortage[] = [];
  for (const change of changes) {
    const original = working.get(change.productId) ?? products.get(change.productId);
    if (!original) {
      if (sign < 0) shortages.push({ ...change, requested: change.quantity, available: 0 });
      continue;
    }
    const product: Product = working.get(change.productId) ?? { ...original, variants: original.variants.map((v) => ({ ...v })) };
    const variant = product.variants.find((v) => v.id === change.variantId);
    if (!variant) {
      if (sign < 0) shortages.push({ ...change, requested: change.quantity, available: 0 });
      continue;
    }
    const level = stockOf(product, variant);
    if (sign < 0 && (!level.inStock || (level.tracked && (level.quantity ?? 0) < change.quantity))) {
      shortages.push({ productId: change.productId, variantId: change.variantId, requested: change.quantity, available: level.tracked ? Math.max(level.quantity ?? 0, 0) : 0 });
      continue;
    }
    if (level.tracked) {
      const next = (level.quantity ?? 0) + sign * change.quantity;
      if (product.manageVariants) variant.quantity = next;
      else product.quantity = next;
      working.set(product.id, product);
    }
  }
  if (shortages.length) return { ok: false, shortages };
  return { ok: true, changed: [...working.values()] };
}
