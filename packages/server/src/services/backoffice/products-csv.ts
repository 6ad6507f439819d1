// The products CSV that export writes and import reads: one row per product, amounts as decimal
// strings in the site currency, lists joined with `|`. Pure: no I/O.
import { formatAmount, MoneyError, parseAmount } from '../../platform/money.js';
import type { Product, ProductPatch } from '../catalog/service.js';

export const PRODUCT_CSV_COLUMNS = [
  { name: 'id', description: 'product id (export); on import, updates that product' },
  { name: 'name', description: 'required for a new product' },
  { name: 'slug', description: 'URL name; made from the name when empty' },
  { name: 'description', description: 'text or HTML' },
  { name: 'price', description: 'decimal, e.g. 12.50; required for a new product' },
  { name: 'discountType', description: 'NONE, AMOUNT or PERCENT' },
  { name: 'discountValue', description: 'an amount (decimal) or a percent' },
  { name: 'sku', description: 'stock-keeping unit' },
  { name: 'weight', description: 'decimal, in the store weight unit' },
  { name: 'visible', description: 'true or false' },
  { name: 'ribbon', description: 'e.g. New' },
  { name: 'brand', description: 'brand name' },
  { name: 'trackInventory', description: 'true: quantity is counted' },
  { name: 'quantity', description: 'units in stock when trackInventory is true' },
  { name: 'inStock', description: 'true or false when inventory is not tracked' },
  { name: 'collections', description: 'collection slugs joined with |' },
  { name: 'images', description: 'image URLs joined with |' },
] as const;

export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number]['name'];
export type ProductCsvRow = Partial<Record<ProductCsvColumn, string>>;

export class RowError extends Error {}

const bool = (column: string, value: string): boolean => {
  const v = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(v)) return true;
  if (['false', 'no', '0'].includes(v)) return false;
  throw new RowError(`${column}: "${value}" is not true or false`);
};

const amount = (column: string, value: string, currency: string): bigint => {
  try {
    return parseAmount(value.trim(), currency);
  } catch (error) {
    if (error instanceof MoneyError) throw new RowError(`${column}: ${error.message}`);
    throw error;
  }
};

const list = (value: string | undefined): string[] => (value ?? '').split('|').map((s) => s.trim()).filter(Boolean);

/** What one CSV row asks for: the product fields, its collections by slug, and an id to update. */
export interface ProductImport {
  id?: string;
  patch: ProductPatch;
  collectionSlugs?: string[];
}

/** Reads a row; throws RowError with a sentence for the failures file. */
export function productFromRow(row: ProductCsvRow, currency: string): ProductImport {
  const given = (c: ProductCsvColumn): string | undefined => {
    const v = row[c];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const patch: ProductPatch = {};
  const id = given('id')?.trim();
  const name = given('name')?.trim();
  if (name !== undefined) {
    if (name.length > 80) throw new RowError('name: at most 80 characters');
    patch.name = name;
  }
  if (!id && name === undefined) throw new RowError('name: a new product needs a name');
  const slug = given('slug');
  if (slug !== undefined) patch.slug = slug.trim();
  const description = given('description');
  if (description !== undefined) patch.description = description;
  const price = given('price');
  if (price !== undefined) patch.price = amount('price', price, currency);
  else if (!id) throw new RowError('price: a new product needs a price');
  const discountType = given('discountType')?.trim().toUpperCase();
  if (discountType !== undefined) {
    if (discountType !== 'NONE' && discountType !== 'AMOUNT' && discountType !== 'PERCENT') throw new RowError(`discountType: "${discountType}" is not NONE, AMOUNT or PERCENT`);
    const value = given('discountValue') ?? '0';
    if (discountType === 'AMOUNT') patch.discount = { type: 'AMOUNT', value: amount('discountValue', value, currency).toString() };
    else if (discountType === 'PERCENT') {
      const percent = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value.trim()) || percent > 100) throw new RowError(`discountValue: "${value}" is not a percent from 0 to 100`);
      patch.discount = { type: 'PERCENT', value: value.trim() };
    } else patch.discount = { type: 'NONE', value: '0' };
  }
  const sku = given('sku');
  if (sku !== undefined) patch.sku = sku.trim();
  const weight = given('weight');
  if (weight !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(weight.trim())) throw new RowError(`weight: "${weight}" is not a number`);
    patch.weight = weight.trim();
  }
  const visible = given('visible');
  if (visible !== undefined) patch.visible = bool('visible', visible);
  const ribbon = given('ribbon');
  if (ribbon !== undefined) patch.ribbon = ribbon.trim();
  const brand = given('brand');
  if (brand !== undefined) patch.brand = brand.trim();
  const track = given('trackInventory');
  if (track !== undefined) patch.trackInventory = bool('trackInventory', track);
  const quantity = given('quantity');
  if (quantity !== undefined) {
    if (!/^\d+$/.test(quantity.trim())) throw new RowError(`quantity: "${quantity}" is not a whole number`);
    patch.quantity = Number(quantity.trim());
    if (track === undefined) patch.trackInventory = true;
  }
  const inStock = given('inStock');
  if (inStock !== undefined) patch.inStock = bool('inStock', inStock);
  const images = list(given('images'));
  for (const url of images) {
    if (!/^https?:\/\/\S+$/.test(url) && !url.startsWith('/')) throw new RowError(`images: "${url}" is not a URL`);
  }
  if (images.length) patch.media = images.map((url) => ({ url, width: 0, height: 0, title: '' }));
  const collections = list(given('collections'));
  return { ...(id ? { id } : {}), patch, ...(collections.length ? { collectionSlugs: collections } : {}) };
}

/** One product as its CSV row (the export), in PRODUCT_CSV_COLUMNS order. */
export function productToRow(p: Product, currency: string, collectionSlugs: readonly string[]): string[] {
  const row: Record<ProductCsvColumn, string> = {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    price: formatAmount(p.price, currency),
    discountType: p.discount.type,
    discountValue: p.discount.type === 'AMOUNT' ? formatAmount(BigInt(p.discount.value), currency) : p.discount.type === 'PERCENT' ? p.discount.value : '',
    sku: p.sku ?? '',
    weight: p.weight ?? '',
    visible: String(p.visible),
    ribbon: p.ribbon ?? '',
    brand: p.brand ?? '',
    trackInventory: String(p.trackInventory),
    quantity: p.trackInventory && p.quantity !== null ? String(p.quantity) : '',
    inStock: String(p.inStock),
    collections: collectionSlugs.join('|'),
    images: p.media.map((m) => m.url).join('|'),
  };
  return PRODUCT_CSV_COLUMNS.map((c) => row[c.name]);
}
