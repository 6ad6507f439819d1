/**
 * The Stores V3 wire view of the one catalog (products, read-only variants, inventory items,
 * categories): V1 products shown and written in the V3 shapes the official packages
 * (`productsV3`, `readOnlyVariantsV3`, `inventoryItemsV3`, `@wix/categories`) send and read.
 * Pure: no I/O. Option, choice, modifier, brand and ribbon ids are derived from their names, so
 * they are stable without a table of their own.
 */
import { createHash } from 'node:crypto';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { formatAmount, formattedAmount, MoneyError, parseAmount } from '../../platform/money.js';
import {
  ALL_PRODUCTS_COLLECTION_ID,
  discountedPrice,
  productStock,
  stockOf,
  variantPrice,
  variantSku,
  variantWeight,
  type CustomTextField,
  type Product,
  type ProductOption,
  type Variant,
} from './products.js';
import type { Collection } from './store.js';
import { absoluteUrl, type MediaInput, type ProductPatch, type VariantPatch } from './wire.js';
import { choiceMedia } from './choice-media.js';
import type { WireV3Category, WireV3Customization, WireV3InventoryItem, WireV3Label, WireV3Product, WireV3ReadOnlyVariant } from './v3-wire-schemas.js';

/** The Stores app's category tree in @wix/categories. */
export const STORES_TREE = { appNamespace: '@wix/stores' };
/** The one stock location of a Bodega store (V3 inventory items name a location). */
export const DEFAULT_LOCATION_ID = '00000000-0000-0000-0000-000000000001';

export interface V3Options {
  currency: string;
  publicUrl: string;
  /** The `fields` the caller asked for (URL, CURRENCY, ALL_CATEGORIES_INFO, …). */
  fields: ReadonlySet<string>;
  /** get/create/update return variantsInfo; queries and searches do not. */
  variants: boolean;
}

/** A stable UUID-shaped id for a name within a product (options, choices, ribbons, brands). */
export function derivedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

// Options and modifiers are site-wide customizations in V3, so their ids follow their names.
export const optionId = (name: string) => derivedId('option', name);
export const choiceId = (option: string, value: string) => derivedId('choice', option, value);
export const modifierId = (title: string) => derivedId('modifier', title);
export const brandId = (name: string) => derivedId('brand', name);
export const ribbonId = (name: string) => derivedId('ribbon', name);

export function v3Money(minor: bigint, currency: string) {
  return { amount: formatAmount(minor, currency), formattedAmount: formattedAmount(minor, currency) };
}

function renderType(option: ProductOption): 'SWATCH_CHOICES' | 'TEXT_CHOICES' {
  return option.optionType === 'color' ? 'SWATCH_CHOICES' : 'TEXT_CHOICES';
}

function media(product: Product, publicUrl: string) {
  return product.media.map((m) => {
    const url = absoluteUrl(m.url, publicUrl);
    return {
      id: m.id,
      url,
      image: { id: m.id, url, width: m.width, height: m.height, ...(m.altText ? { altText: m.altText } : {}) },
      mediaType: 'IMAGE' as const,
      ...(m.altText ? { altText: m.altText } : {}),
      displayName: m.title,
    };
  });
}

/** A variant's option choices in both forms V3 carries (ids and names). */
export function optionChoices(product: Product, variant: Variant) {
  return product.options.map((option) => {
    const value = variant.choices[option.name] ?? '';
    return {
      optionChoiceIds: { optionId: optionId(option.name), choiceId: choiceId(option.name, value) },
      optionChoiceNames: { optionName: option.name, choiceName: value, renderType: renderType(option) },
    };
  });
}

function variantPriceInfo(product: Product, variant: Variant, currency: string) {
  const full = variantPrice(product, variant);
  const actual = discountedPrice(full, product.discount);
  return { actualPrice: v3Money(actual, currency), ...(full !== actual ? { compareAtPrice: v3Money(full, currency) } : {}) };
}

function variantBody(product: Product, variant: Variant, currency: string) {
  const sku = variantSku(product, variant);
  const weight = variantWeight(product, variant);
  return {
    id: variant.id,
    visible: variant.visible,
    ...(sku ? { sku } : {}),
    price: variantPriceInfo(product, variant, currency),
    ...(product.productType === 'physical' ? { physicalProperties: weight !== null ? { weight: Number(weight) } : {} } : { digitalProperties: {} }),
    inventoryStatus: { inStock: stockOf(product, variant).inStock, preorderEnabled: false },
  };
}

function range(values: bigint[], currency: string) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { minValue: v3Money(sorted[0], currency), maxValue: v3Money(sorted[sorted.length - 1], currency) };
}

export function mainCategoryId(product: Product): string {
  return product.collectionIds.find((id) => id !== ALL_PRODUCTS_COLLECTION_ID) ?? ALL_PRODUCTS_COLLECTION_ID;
}

export function toV3Product(product: Product, o: V3Options): WireV3Product {
  const { currency, fields } = o;
  const shown = product.variants.filter((v) => v.visible);
  const priced = shown.length ? shown : product.variants;
  const actual = priced.map((v) => discountedPrice(variantPrice(product, v), product.discount));
  const full = priced.map((v) => variantPrice(product, v));
  const items = media(product, o.publicUrl);
  const categories = { categories: product.collectionIds.map((id, index) => ({ id, index })) };
  const stock = productStock(product);
  const pagePath = `/product-page/${product.slug}`;
  return {
    id: product.id,
    revision: String(product.updatedDate.getTime()),
    createdDate: product.createdDate.toISOString(),
    updatedDate: product.updatedDate.toISOString(),
    name: product.name,
    slug: product.slug,
    ...(fields.has('URL') && { url: { relativePath: pagePath, url: absoluteUrl(pagePath, o.publicUrl) } }),
    ...(fields.has('PLAIN_DESCRIPTION') && { plainDescription: product.description }),
    visible: product.visible,
    visibleInPos: product.visible,
    media: { ...(items[0] ? { main: items[0] } : {}), ...(fields.has('MEDIA_ITEMS_INFO') && { itemsInfo: { items } }) },
    options: product.options.map((option) => ({
      id: optionId(option.name),
      name: option.name,
      optionRenderType: renderType(option),
      choicesSettings: {
        choices: option.choices.map((c) => ({
          choiceId: choiceId(option.name, c.value),
          choiceType: option.optionType === 'color' ? 'ONE_COLOR' : 'CHOICE_TEXT',
          name: c.value,
          ...(option.optionType === 'color' ? { colorCode: c.description } : {}),
          inStock: product.variants.some((v) => v.choices[option.name] === c.value && stockOf(product, v).inStock),
          visible: c.visible,
          ...(c.mediaIds?.length ? { linkedMedia: media({ ...product, media: choiceMedia(product.media, c.mediaIds) }, o.publicUrl) } : {}),
        })),
      },
    })),
    modifiers: product.customTextFields.map((f) => ({
      id: modifierId(f.title),
      name: f.title,
      modifierRenderType: 'FREE_TEXT',
      mandatory: f.mandatory,
      freeTextSettings: { minCharCount: 0, maxCharCount: f.maxLength, title: f.title, key: f.title },
    })),
    ...(product.brand ? { brand: { id: brandId(product.brand), name: product.brand } } : {}),
    ...(product.ribbon ? { ribbon: { id: ribbonId(product.ribbon), name: product.ribbon } } : {}),
    ...(fields.has('INFO_SECTION') && {
      infoSections: product.additionalInfoSections.map((s) => ({ id: derivedId('info-section', s.title), uniqueName: s.title, title: s.title, plainDescription: s.description })),
    }),
    ...(fields.has('DIRECT_CATEGORIES_INFO') && { directCategoriesInfo: categories }),
    ...(fields.has('ALL_CATEGORIES_INFO') && { allCategoriesInfo: categories }),
    mainCategoryId: mainCategoryId(product),
    actualPriceRange: range(actual, currency),
    compareAtPriceRange: range(full, currency),
    inventory: { availabilityStatus: stock.inventoryStatus, preorderStatus: 'DISABLED', preorderAvailability: 'ALL_VARIANTS' },
    productType: product.productType === 'digital' ? 'DIGITAL' : 'PHYSICAL',
    ...(product.productType === 'physical' ? { physicalProperties: {} } : { digitalProperties: {} }),
    ...(fields.has('CURRENCY') && { currency }),
    ...(o.variants && { variantsInfo: { variants: product.variants.map((v) => ({ ...variantBody(product, v, currency), choices: optionChoices(product, v) })) } }),
    variantSummary: { variantCount: product.variants.length },
  };
}

/** readOnlyVariantsV3: one variant with the product fields around it. */
export function toV3ReadOnlyVariant(product: Product, variant: Variant, o: Pick<V3Options, 'currency' | 'fields'>): WireV3ReadOnlyVariant {
  return {
    ...variantBody(product, variant, o.currency),
    variantId: variant.id,
    optionChoices: optionChoices(product, variant),
    productData: {
      productId: product.id,
      name: product.name,
      productType: product.productType === 'digital' ? 'DIGITAL' : 'PHYSICAL',
      slug: product.slug,
      visible: product.visible,
      visibleInPos: product.visible,
      mainCategoryId: mainCategoryId(product),
      revision: String(product.updatedDate.getTime()),
      ...(o.fields.has('CURRENCY') && { currency: o.currency }),
    },
  };
}

// Inventory items -------------------------------------------------------------------------------

/** An inventory item is one variant's stock: its id names both (`<productId>_<variantId>`). */
export function inventoryItemId(productId: string, variantId: string): string {
  return `${productId}_${variantId}`;
}

export function parseInventoryItemId(id: string): { productId: string; variantId: string } | undefined {
  const at = id.lastIndexOf('_');
  if (at <= 0 || at === id.length - 1) return undefined;
  return { productId: id.slice(0, at), variantId: id.slice(at + 1) };
}

export function toV3InventoryItem(product: Product, variant: Variant): WireV3InventoryItem {
  const level = stockOf(product, variant);
  const choices = Object.values(variant.choices).join(' / ');
  const sku = variantSku(product, variant);
  return {
    id: inventoryItemId(product.id, variant.id),
    revision: String(product.updatedDate.getTime()),
    createdDate: product.createdDate.toISOString(),
    updatedDate: product.updatedDate.toISOString(),
    variantId: variant.id,
    locationId: DEFAULT_LOCATION_ID,
    productId: product.id,
    trackQuantity: level.tracked,
    ...(level.tracked ? { quantity: level.quantity ?? 0 } : {}),
    inStock: level.inStock,
    availabilityStatus: level.inStock ? 'IN_STOCK' : 'OUT_OF_STOCK',
    preorderInfo: { enabled: false },
    product: {
      name: product.name,
      directCategoryIds: product.collectionIds,
      ...(choices ? { variantName: choices } : {}),
      ...(sku ? { variantSku: sku } : {}),
      variantVisible: variant.visible,
    },
  };
}

// Categories ------------------------------------------------------------------------------------

export function toV3Category(c: Collection, publicUrl: string): WireV3Category {
  return {
    id: c.id,
    revision: String(c.updatedDate.getTime()),
    createdDate: c.createdDate.toISOString(),
    updatedDate: c.updatedDate.toISOString(),
    name: c.name,
    slug: c.slug,
    ...(c.description !== null ? { description: c.description } : {}),
    visible: c.visible,
    itemCounter: c.numberOfProducts,
    ...(c.media ? { image: { id: c.id, url: absoluteUrl(c.media.url, publicUrl), width: c.media.width, height: c.media.height } } : {}),
    breadcrumbsInfo: { breadcrumbs: [] },
    treeReference: STORES_TREE,
  };
}

// Writing V3 products ---------------------------------------------------------------------------

export interface V3MoneyInput { amount?: string | null }
export interface V3VariantInput {
  id?: string | null;
  visible?: boolean | null;
  sku?: string | null;
  choices?: { optionChoiceNames?: { optionName?: string; choiceName?: string } | null }[] | null;
  price?: { actualPrice?: V3MoneyInput | null; compareAtPrice?: V3MoneyInput | null } | null;
  physicalProperties?: { weight?: number | null } | null;
  inventoryItem?: { quantity?: number | null; inStock?: boolean | null; trackQuantity?: boolean | null } | null;
}
export interface V3ProductInput {
  name?: string | null;
  slug?: string | null;
  plainDescription?: string | null;
  visible?: boolean | null;
  productType?: string | null;
  options?: { name?: string | null; optionRenderType?: string | null; choicesSettings?: { choices?: { name?: string | null; colorCode?: string | null; visible?: boolean | null }[] | null } | null }[] | null;
  modifiers?: { name?: string | null; modifierRenderType?: string | null; mandatory?: boolean | null; freeTextSettings?: { maxCharCount?: number | null; title?: string | null } | null }[] | null;
  brand?: { name?: string | null } | null;
  ribbon?: { name?: string | null } | null;
  infoSections?: { title?: string | null; uniqueName?: string | null; plainDescription?: string | null }[] | null;
  media?: { main?: { url?: string | null } | null; itemsInfo?: { items?: { url?: string | null; altText?: string | null }[] | null } | null } | null;
  variantsInfo?: { variants?: V3VariantInput[] | null } | null;
}

function amount(field: string, value: V3MoneyInput | null | undefined, currency: string, violations: FieldViolation[]): bigint | undefined {
  if (value?.amount === undefined || value.amount === null) return undefined;
  try {
    return parseAmount(value.amount, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    violations.push({ field, rule: 'FORMAT', description: error.message, data: {} });
    return undefined;
  }
}

function mediaInputs(input: V3ProductInput['media']): MediaInput[] | undefined {
  if (!input) return undefined;
  const urls = [...(input.main?.url ? [input.main.url] : []), ...(input.itemsInfo?.items ?? []).map((m) => m.url ?? '')];
  return [...new Set(urls)].map((url, i) => {
    if (!/^(https?:\/\/|\/media\/)/.test(url)) throw ApiError.validation([{ field: `product.media.itemsInfo.items[${i}].url`, rule: 'FORMAT', description: 'media is added by http(s) URL' }]);
    return { url, width: 1000, height: 1000, title: '' };
  });
}

/**
 * A V3 product as a catalog patch. Each variant's compareAtPrice is its list price and
 * actualPrice what it sells for; the catalog keeps one discount per product, so the difference
 * must be the same for every variant. Products with options manage their variants.
 */
export function fromV3Product(input: V3ProductInput, currency: string, creating: boolean): ProductPatch {
  const violations: FieldViolation[] = [];
  const patch: ProductPatch = {};
  if (input.name !== undefined && input.name !== null) patch.name = input.name;
  if (input.slug) patch.slug = input.slug;
  if (input.plainDescription !== undefined && input.plainDescription !== null) patch.description = input.plainDescription;
  if (input.visible !== undefined && input.visible !== null) patch.visible = input.visible;
  if (input.productType) {
    if (input.productType !== 'PHYSICAL' && input.productType !== 'DIGITAL') {
      violations.push({ field: 'product.productType', rule: 'INVALID_ENUM_VALUE', description: 'must be PHYSICAL or DIGITAL', data: {} });
    } else patch.productType = input.productType === 'DIGITAL' ? 'digital' : 'physical';
  }
  if (input.brand !== undefined) patch.brand = input.brand?.name || null;
  if (input.ribbon !== undefined) patch.ribbon = input.ribbon?.name || null;
  if (input.infoSections) patch.additionalInfoSections = input.infoSections.map((s) => ({ title: s.title ?? s.uniqueName ?? '', description: s.plainDescription ?? '' }));
  if (input.modifiers) {
    patch.customTextFields = input.modifiers.map((m, i): CustomTextField => {
      if (m.modifierRenderType && m.modifierRenderType !== 'FREE_TEXT') {
        violations.push({ field: `product.modifiers[${i}].modifierRenderType`, rule: 'VALIDATION', description: 'only FREE_TEXT modifiers are kept', data: {} });
      }
      return { title: m.freeTextSettings?.title ?? m.name ?? '', maxLength: m.freeTextSettings?.maxCharCount ?? 500, mandatory: m.mandatory ?? false };
    });
  }
  const mediaPatch = mediaInputs(input.media);
  if (mediaPatch) patch.media = mediaPatch;
  if (input.options) {
    patch.options = input.options.map((o, i) => {
      if (!o.name) violations.push({ field: `product.options[${i}].name`, rule: 'REQUIRED_FIELD', description: 'an option needs a name', data: {} });
      const color = o.optionRenderType === 'SWATCH_CHOICES';
      return {
        optionType: color ? 'color' : 'drop_down',
        name: o.name ?? '',
        choices: (o.choicesSettings?.choices ?? []).map((c) => ({ value: c.name ?? '', description: color ? (c.colorCode ?? '') : (c.name ?? ''), inStock: true, visible: c.visible ?? true })),
      };
    });
  }

  const variants = input.variantsInfo?.variants;
  if (creating && !variants?.length) {
    violations.push({ field: 'product.variantsInfo.variants', rule: 'REQUIRED_FIELD', description: 'a product needs at least one variant with a price', data: {} });
  }
  if (variants?.length) {
    const withOptions = (patch.options?.length ?? 0) > 0;
    const priced = variants.map((v, i) => {
      const actual = amount(`product.variantsInfo.variants[${i}].price.actualPrice.amount`, v.price?.actualPrice, currency, violations);
      const compareAt = amount(`product.variantsInfo.variants[${i}].price.compareAtPrice.amount`, v.price?.compareAtPrice, currency, violations);
      if (actual === undefined) violations.push({ field: `product.variantsInfo.variants[${i}].price.actualPrice.amount`, rule: 'REQUIRED_FIELD', description: 'a variant needs a price', data: {} });
      const list = compareAt !== undefined && actual !== undefined && compareAt > actual ? compareAt : actual ?? 0n;
      return { list, off: list - (actual ?? 0n) };
    });
    const offs = new Set(priced.map((p) => p.off));
    if (offs.size > 1) {
      violations.push({ field: 'product.variantsInfo.variants', rule: 'VALIDATION', description: 'every variant must have the same compareAtPrice − actualPrice difference here', data: {} });
    }
    const off = priced[0]?.off ?? 0n;
    const lowest = priced.reduce((min, p) => (p.list < min ? p.list : min), priced[0]?.list ?? 0n);
    patch.price = lowest;
    patch.discount = off > 0n ? { type: 'AMOUNT', value: off.toString() } : { type: 'NONE', value: '0' };
    const inventory = variants.map((v) => v.inventoryItem).filter((x): x is NonNullable<typeof x> => !!x);
    const tracked = inventory.some((x) => x.trackQuantity === true || (x.trackQuantity !== false && x.quantity !== undefined && x.quantity !== null));
    if (inventory.length) patch.trackInventory = tracked;
    if (withOptions) {
      patch.manageVariants = true;
      patch.variants = variants.map((v, i): VariantPatch => ({
        choices: Object.fromEntries((v.choices ?? []).map((c) => [c.optionChoiceNames?.optionName ?? '', c.optionChoiceNames?.choiceName ?? ''])),
        price: priced[i].list,
        ...(v.sku !== undefined && { sku: v.sku }),
        ...(v.physicalProperties?.weight !== undefined && v.physicalProperties.weight !== null && { weight: String(v.physicalProperties.weight) }),
        ...(v.visible !== undefined && v.visible !== null && { visible: v.visible }),
        ...(v.inventoryItem && tracked && { quantity: v.inventoryItem.quantity ?? 0 }),
        ...(v.inventoryItem && !tracked && { inStock: v.inventoryItem.inStock ?? true }),
      }));
    } else {
      const only = variants[0];
      if (variants.length > 1) violations.push({ field: 'product.variantsInfo.variants', rule: 'MAX_SIZE', description: 'a product without options has one variant', data: {} });
      if (only.sku !== undefined) patch.sku = only.sku;
      if (only.physicalProperties?.weight !== undefined && only.physicalProperties.weight !== null) patch.weight = String(only.physicalProperties.weight);
      if (only.inventoryItem && tracked) patch.quantity = only.inventoryItem.quantity ?? 0;
      if (only.inventoryItem && !tracked) patch.inStock = only.inventoryItem.inStock ?? true;
    }
  }
  if (creating && !patch.name) violations.push({ field: 'product.name', rule: 'REQUIRED_FIELD', description: 'a product needs a name', data: {} });
  if (violations.length) throw ApiError.validation(violations);
  return patch;
}

// Ribbons, brands and customizations: what the products carry -------------------------------------

export function toV3Label(kind: 'ribbon' | 'brand', label: { name: string; count: number }): WireV3Label {
  return { id: kind === 'ribbon' ? ribbonId(label.name) : brandId(label.name), revision: '1', name: label.name, assignedProductCount: label.count };
}

/** The site's options and modifiers as V3 customizations, merged by name over the products. */
export function toV3Customizations(products: readonly Product[]): WireV3Customization[] {
  const options = new Map<string, { option: ProductOption; values: Map<string, string>; count: number }>();
  const modifiers = new Map<string, { field: CustomTextField; count: number }>();
  for (const product of products) {
    for (const option of product.options) {
      const entry = options.get(option.name) ?? { option, values: new Map<string, string>(), count: 0 };
      entry.count++;
      for (const c of option.choices) if (!entry.values.has(c.value)) entry.values.set(c.value, c.description);
      options.set(option.name, entry);
    }
    for (const field of product.customTextFields) {
      const entry = modifiers.get(field.title) ?? { field, count: 0 };
      entry.count++;
      modifiers.set(field.title, entry);
    }
  }
  return [
    ...[...options.values()].map(({ option, values, count }) => ({
      id: optionId(option.name),
      revision: '1',
      name: option.name,
      customizationType: 'PRODUCT_OPTION' as const,
      customizationRenderType: renderType(option),
      choicesSettings: {
        choices: [...values].map(([value, description]) => ({
          id: choiceId(option.name, value),
          choiceType: option.optionType === 'color' ? 'ONE_COLOR' as const : 'CHOICE_TEXT' as const,
          key: value,
          name: value,
          ...(option.optionType === 'color' ? { colorCode: description } : {}),
        })),
      },
      assignedProductsCount: count,
    })),
    ...[...modifiers.values()].map(({ field, count }) => ({
      id: modifierId(field.title),
      revision: '1',
      name: field.title,
      customizationType: 'MODIFIER' as const,
      customizationRenderType: 'FREE_TEXT' as const,
      freeTextInput: { minCharCount: 0, maxCharCount: field.maxLength, title: field.title, key: field.title },
      assignedProductsCount: count,
    })),
  ];
}
