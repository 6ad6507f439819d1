// The products CSV that export writes and import reads: one row per variant, amounts as decimal
// strings in the site currency, lists joined with `|`. Pure: no I/O.
//
// A product without options is one row. A product with options is one row per variant, its rows
// one after another: the first carries the product's columns, each row its variant's choices
// (optionNName / optionNValue) and, when variants are managed, the variant's own price, SKU,
// weight and stock. Later rows repeat `id`, `slug` and `name` so they read on their own; any other
// product column there must be empty or the same as on the first row. In a list cell a `|` that
// belongs to an item is written `\|` (and a backslash `\\`).
import { formatAmount, MoneyError, parseAmount } from '../../platform/money.js';
import type { Product, ProductPatch } from '../catalog/service.js';

/** Stores v1's limit on a product's options: one name and value column pair for each. */
export const CSV_OPTION_SLOTS = 6;

const PRODUCT_COLUMNS = [
  { name: 'id', description: 'product id (export); on import, updates that product if this site has it, else a new product is made' },
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
  { name: 'quantity', description: 'units in stock when trackInventory is true (variants not managed)' },
  { name: 'inStock', description: 'true or false when inventory is not tracked (variants not managed)' },
  { name: 'collections', description: 'collection slugs joined with |' },
  { name: 'images', description: 'image URLs joined with |' },
  { name: 'imageTitles', description: 'each image\'s title, in the order of images, joined with | (empty between two | for none)' },
  { name: 'imageAltTexts', description: 'each image\'s alt text (what a screen reader says), in the order of images, joined with |' },
  { name: 'productType', description: 'physical (default) or digital' },
  { name: 'infoSections', description: 'the product page\'s extra sections as JSON: [{"title": "Care", "description": "…"}]' },
  { name: 'customTextFields', description: 'text the buyer types in, as JSON: [{"title": "Engraving", "maxLength": 20, "mandatory": false}]' },
  { name: 'manageVariants', description: 'true: each variant row has its own price, SKU, weight and stock (default: true when a variant column is filled)' },
  { name: 'hiddenChoices', description: 'choices not shown in the shop, as Option: choice joined with |, e.g. Size: XXL|Colour: Green' },
  { name: 'outOfStockChoices', description: 'choices sold out whatever the stock, as Option: choice joined with |, e.g. Size: XS' },
] as const;

const OPTION_COLUMNS = Array.from({ length: CSV_OPTION_SLOTS }, (_, i) => [
  { name: `option${i + 1}Name` as const, description: i === 0 ? 'an option of the product, e.g. Size; a colour option ends in " [color]", e.g. "Colour [color]"' : `option ${i + 1}'s name` },
  { name: `option${i + 1}Value` as const, description: i === 0 ? 'this variant\'s choice, e.g. M; for a colour option the code may follow in brackets, e.g. "Red [#c0392b]"' : `this variant's choice of option ${i + 1}` },
]).flat();

const VARIANT_COLUMNS = [
  { name: 'variantPrice', description: "the variant's price when variants are managed (empty: the product's)" },
  { name: 'variantSku', description: "the variant's SKU" },
  { name: 'variantWeight', description: "the variant's weight" },
  { name: 'variantQuantity', description: 'units of this variant in stock when trackInventory is true' },
  { name: 'variantInStock', description: 'true or false when inventory is not tracked' },
  { name: 'variantVisible', description: 'false hides this variant in the shop' },
] as const;

type OptionColumn = `option${number}Name` | `option${number}Value`;
type ProductColumn = (typeof PRODUCT_COLUMNS)[number]['name'];
type VariantColumn = (typeof VARIANT_COLUMNS)[number]['name'];
export const PRODUCT_CSV_COLUMNS: readonly { name: ProductColumn | OptionColumn | VariantColumn; description: string }[] = [...PRODUCT_COLUMNS, ...OPTION_COLUMNS, ...VARIANT_COLUMNS];

export type ProductCsvColumn = ProductColumn | OptionColumn | VariantColumn;
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

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;
/** A colour choice's code, alone or in brackets after the choice: "Red [#c0392b]". */
const COLOR_CODE = '#[0-9a-f]{3,8}';
const IS_COLOR_CODE = new RegExp(`^${COLOR_CODE}$`, 'i');
const CODED_CHOICE = new RegExp(`^(.*?)\\s*\\[(${COLOR_CODE})\\]$`, 'i');

const decimal = (column: string, value: string): string => {
  if (!DECIMAL.test(value.trim())) throw new RowError(`${column}: "${value}" is not a number`);
  return value.trim();
};

const whole = (column: string, value: string): number => {
  if (!WHOLE.test(value.trim())) throw new RowError(`${column}: "${value}" is not a whole number`);
  return Number(value.trim());
};

/** A list cell's items in order, empty ones kept; `\|` is a | inside an item. */
const items = (value: string | undefined): string[] => {
  if (value === undefined || value === '') return [];
  const out = [''];
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) out[out.length - 1] += value[++i];
    else if (c === '|') out.push('');
    else out[out.length - 1] += c;
  }
  return out.map((item) => item.trim());
};
const list = (value: string | undefined): string[] => items(value).filter(Boolean);
const joinList = (values: readonly string[]): string => values.map((v) => v.replace(/[\\|]/g, (c) => `\\${c}`)).join('|');

/** A JSON array in a cell, each object read by `read` (undefined: not of the shape `shape`). */
function jsonList<T>(column: string, text: string, read: (o: Record<string, unknown>) => T | undefined, shape: string): T[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RowError(`${column}: not valid JSON`);
  }
  if (!Array.isArray(parsed)) throw new RowError(`${column}: a JSON array of objects`);
  return parsed.map((item: unknown, i) => {
    const value = typeof item === 'object' && item !== null && !Array.isArray(item) ? read(Object.fromEntries(Object.entries(item))) : undefined;
    if (value === undefined) throw new RowError(`${column}: item ${i + 1} needs ${shape}`);
    return value;
  });
}

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
      if (!DECIMAL.test(value.trim()) || percent > 100) throw new RowError(`discountValue: "${value}" is not a percent from 0 to 100`);
      patch.discount = { type: 'PERCENT', value: value.trim() };
    } else patch.discount = { type: 'NONE', value: '0' };
  }
  const sku = given('sku');
  if (sku !== undefined) patch.sku = sku.trim();
  const weight = given('weight');
  if (weight !== undefined) patch.weight = decimal('weight', weight);
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
    patch.quantity = whole('quantity', quantity);
    if (track === undefined) patch.trackInventory = true;
  }
  const inStock = given('inStock');
  if (inStock !== undefined) patch.inStock = bool('inStock', inStock);
  const images = list(given('images'));
  for (const url of images) {
    if (!/^https?:\/\/\S+$/.test(url) && !url.startsWith('/')) throw new RowError(`images: "${url}" is not a URL`);
  }
  const titles = items(given('imageTitles'));
  const altTexts = items(given('imageAltTexts'));
  for (const [column, texts] of [['imageTitles', titles], ['imageAltTexts', altTexts]] as const) {
    if (texts.length > images.length) throw new RowError(`${column}: ${texts.length} for ${images.length} ${images.length === 1 ? 'image' : 'images'}`);
  }
  if (images.length) {
    patch.media = images.map((url, i) => ({ url, width: 0, height: 0, title: titles[i] ?? '', ...(altTexts[i] ? { altText: altTexts[i] } : {}) }));
  }
  const productType = given('productType')?.trim().toLowerCase();
  if (productType !== undefined) {
    if (productType !== 'physical' && productType !== 'digital') throw new RowError(`productType: "${productType}" is not physical or digital`);
    patch.productType = productType;
  }
  const sections = given('infoSections');
  if (sections !== undefined) {
    patch.additionalInfoSections = jsonList('infoSections', sections, (o) => {
      if (typeof o.title !== 'string' || typeof o.description !== 'string') return undefined;
      return { title: o.title, description: o.description };
    }, 'a title and a description');
  }
  const textFields = given('customTextFields');
  if (textFields !== undefined) {
    patch.customTextFields = jsonList('customTextFields', textFields, (o) => {
      const maxLength = o.maxLength ?? 500;
      if (typeof o.title !== 'string' || !o.title || typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength < 1) return undefined;
      return { title: o.title, maxLength, mandatory: o.mandatory === true };
    }, 'a title, and a whole maxLength');
  }
  const collections = list(given('collections'));
  return { ...(id ? { id } : {}), patch, ...(collections.length ? { collectionSlugs: collections } : {}) };
}

type ProductOption = NonNullable<ProductPatch['options']>[number];
type VariantPatch = NonNullable<ProductPatch['variants']>[number];
const COLOR_SUFFIX = ' [color]';

/** A row of the file with its number (1 = the first data row). */
export interface NumberedRow {
  row: number;
  cells: ProductCsvRow;
}

/** A row that fails takes its product with it; the failures file names the row at fault. */
export class ProductRowsError extends Error {
  constructor(readonly row: number, message: string) {
    super(message);
  }
}

const filled = (cells: ProductCsvRow, c: ProductCsvColumn): string | undefined => {
  const v = cells[c];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};
const optionName = (i: number): OptionColumn => `option${i + 1}Name`;
const optionValue = (i: number): OptionColumn => `option${i + 1}Value`;
const hasChoices = (cells: ProductCsvRow) => Array.from({ length: CSV_OPTION_SLOTS }, (_, i) => filled(cells, optionValue(i))).some(Boolean);
const keyOf = (cells: ProductCsvRow) => filled(cells, 'id') ?? filled(cells, 'slug') ?? filled(cells, 'name') ?? '';

/**
 * The file's rows as products: a row with choices continues the product above when it names the
 * same product (the first of id, slug, name) and that product has choices too.
 */
export function groupProductRows<R extends NumberedRow>(rows: readonly R[]): R[][] {
  const groups: R[][] = [];
  for (const r of rows) {
    const last = groups[groups.length - 1];
    const key = keyOf(r.cells);
    if (last && key !== '' && hasChoices(r.cells) && hasChoices(last[0].cells) && keyOf(last[0].cells) === key) last.push(r);
    else groups.push([r]);
  }
  return groups;
}

/** A product's rows: the first row's product, its options from the rows' choices, a patch per variant. */
export function productFromRows(rows: readonly NumberedRow[], currency: string): ProductImport {
  const [first, ...rest] = rows;
  const at = (row: number, run: () => void) => {
    try {
      run();
    } catch (error) {
      if (error instanceof RowError) throw new ProductRowsError(row, error.message);
      throw error;
    }
  };
  let item: ProductImport = { patch: {} };
  at(first.row, () => { item = productFromRow(first.cells, currency); });
  for (const r of rest) {
    at(r.row, () => {
      for (const c of PRODUCT_COLUMNS) {
        const mine = filled(r.cells, c.name);
        if (mine !== undefined && mine !== filled(first.cells, c.name)) throw new RowError(`${c.name}: a product's own columns go on its first row (row ${first.row}); a variant's go in the variant columns`);
      }
    });
  }
  // Options: named on the first row, in slot order; every row gives a choice for each.
  const slots: { slot: number; option: ProductOption }[] = [];
  at(first.row, () => {
    for (let i = 0; i < CSV_OPTION_SLOTS; i++) {
      const name = filled(first.cells, optionName(i));
      if (name === undefined) continue;
      const color = name.toLowerCase().endsWith(COLOR_SUFFIX);
      const plain = color ? name.slice(0, -COLOR_SUFFIX.length).trim() : name;
      if (!plain) throw new RowError(`${optionName(i)}: an option needs a name`);
      if (plain.length > 50) throw new RowError(`${optionName(i)}: at most 50 characters`);
      if (slots.some((s) => s.option.name === plain)) throw new RowError(`${optionName(i)}: the option "${plain}" is named twice`);
      slots.push({ slot: i, option: { name: plain, optionType: color ? 'color' : 'drop_down', choices: [] } });
    }
  });
  const seen = new Map<string, number>();
  const variants: VariantPatch[] = [];
  let variantColumns = false;
  for (const r of rows) {
    at(r.row, () => {
      const choices: Record<string, string> = {};
      for (let i = 0; i < CSV_OPTION_SLOTS; i++) {
        const slot = slots.find((s) => s.slot === i);
        const name = filled(r.cells, optionName(i));
        const value = filled(r.cells, optionValue(i));
        if (!slot) {
          if (value !== undefined || name !== undefined) throw new RowError(`${optionName(i)}: name the option on the product's first row (row ${first.row})`);
          continue;
        }
        if (name !== undefined && name !== filled(first.cells, optionName(i))) throw new RowError(`${optionName(i)}: "${name}" is not "${filled(first.cells, optionName(i)) ?? ''}" as on row ${first.row}`);
        if (value === undefined) throw new RowError(`${optionValue(i)}: this variant needs a choice of ${slot.option.name}`);
        const coded = slot.option.optionType === 'color' ? CODED_CHOICE.exec(value) : null;
        const choice = coded ? coded[1] : value;
        if (!choice || choice.length > 50) throw new RowError(`${optionValue(i)}: a choice is 1 to 50 characters`);
        if (!slot.option.choices.some((c) => c.value === choice)) slot.option.choices.push({ value: choice, description: coded ? coded[2] : choice, inStock: true, visible: true });
        choices[slot.option.name] = choice;
      }
      if (slots.length === 0) return;
      const key = JSON.stringify(slots.map((s) => choices[s.option.name]));
      const earlier = seen.get(key);
      if (earlier !== undefined) throw new RowError(`this variant (${Object.values(choices).join(' / ')}) is on row ${earlier} already`);
      seen.set(key, r.row);
      const variant: VariantPatch = { choices };
      const price = filled(r.cells, 'variantPrice');
      if (price !== undefined) variant.price = amount('variantPrice', price, currency);
      const sku = filled(r.cells, 'variantSku');
      if (sku !== undefined) variant.sku = sku;
      const weight = filled(r.cells, 'variantWeight');
      if (weight !== undefined) variant.weight = decimal('variantWeight', weight);
      const quantity = filled(r.cells, 'variantQuantity');
      if (quantity !== undefined) variant.quantity = whole('variantQuantity', quantity);
      const inStock = filled(r.cells, 'variantInStock');
      if (inStock !== undefined) variant.inStock = bool('variantInStock', inStock);
      const visible = filled(r.cells, 'variantVisible');
      if (visible !== undefined) variant.visible = bool('variantVisible', visible);
      if (Object.keys(variant).length > 1) variantColumns = true;
      variants.push(variant);
    });
  }
  if (rows.length > 1 && slots.length === 0) throw new ProductRowsError(rows[1].row, 'option1Name: rows of one product differ by their options; name them on the first row');
  at(first.row, () => {
    for (const column of ['hiddenChoices', 'outOfStockChoices'] as const) {
      for (const entry of list(filled(first.cells, column))) {
        const choice = choiceNamed(slots.map((s) => s.option), entry);
        if (!choice) throw new RowError(`${column}: "${entry}" is no Option: choice of this product`);
        if (column === 'hiddenChoices') choice.visible = false;
        else choice.inStock = false;
      }
    }
  });
  const patch = { ...item.patch };
  if (slots.length) {
    patch.options = slots.map((s) => s.option);
    patch.variants = variants;
  }
  let manage: boolean | undefined;
  at(first.row, () => {
    const given = filled(first.cells, 'manageVariants');
    manage = given !== undefined ? bool('manageVariants', given) : undefined;
  });
  if (manage !== undefined) patch.manageVariants = manage;
  else if (variantColumns) patch.manageVariants = true;
  // As `quantity` does for the product, a variant's quantity means its stock is counted.
  if (patch.trackInventory === undefined && variants.some((v) => v.quantity !== undefined)) patch.trackInventory = true;
  if (patch.manageVariants && slots.length === 0) throw new ProductRowsError(first.row, 'manageVariants: a product without options has no variants to manage');
  return { ...item, patch };
}

/** The choice an `Option: choice` entry names (an option's name may itself hold ": "). */
function choiceNamed(options: readonly ProductOption[], entry: string): ProductOption['choices'][number] | undefined {
  for (const option of options) {
    if (!entry.startsWith(`${option.name}:`)) continue;
    const value = entry.slice(option.name.length + 1).trim();
    const choice = option.choices.find((c) => c.value === value);
    if (choice) return choice;
  }
  return undefined;
}

/** The `Option: choice` entries of the choices `pick` selects. */
const choiceEntries = (p: Product, pick: (c: ProductOption['choices'][number]) => boolean): string =>
  joinList(p.options.flatMap((o) => o.choices.filter(pick).map((c) => `${o.name}: ${c.value}`)));

/**
 * One product as its CSV rows (the export), in PRODUCT_CSV_COLUMNS order: one row, or one per
 * variant; the product's own columns on the first, its id, slug and name on each.
 */
export function productToRows(p: Product, currency: string, collectionSlugs: readonly string[]): string[][] {
  const product: Record<ProductColumn, string> = {
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
    collections: joinList(collectionSlugs),
    images: joinList(p.media.map((m) => m.url)),
    imageTitles: p.media.some((m) => m.title) ? joinList(p.media.map((m) => m.title)) : '',
    imageAltTexts: p.media.some((m) => m.altText) ? joinList(p.media.map((m) => m.altText ?? '')) : '',
    productType: p.productType,
    infoSections: p.additionalInfoSections.length ? JSON.stringify(p.additionalInfoSections.map((x) => ({ title: x.title, description: x.description }))) : '',
    customTextFields: p.customTextFields.length ? JSON.stringify(p.customTextFields.map((x) => ({ title: x.title, maxLength: x.maxLength, mandatory: x.mandatory }))) : '',
    manageVariants: String(p.manageVariants),
    hiddenChoices: choiceEntries(p, (c) => !c.visible),
    outOfStockChoices: choiceEntries(p, (c) => !c.inStock),
  };
  const variants = p.options.length ? p.variants : [undefined];
  return variants.map((v, n) => {
    const row: ProductCsvRow = n === 0 ? { ...product } : { id: p.id, slug: p.slug, name: p.name };
    if (v) {
      p.options.forEach((o, i) => {
        row[optionName(i)] = o.optionType === 'color' ? `${o.name}${COLOR_SUFFIX}` : o.name;
        const value = v.choices[o.name] ?? '';
        const code = o.optionType === 'color' ? o.choices.find((c) => c.value === value)?.description : undefined;
        row[optionValue(i)] = code && IS_COLOR_CODE.test(code) ? `${value} [${code}]` : value;
      });
      if (p.manageVariants) {
        row.variantPrice = v.price === null ? '' : formatAmount(v.price, currency);
        row.variantSku = v.sku ?? '';
        row.variantWeight = v.weight ?? '';
        row.variantQuantity = p.trackInventory && v.quantity !== null ? String(v.quantity) : '';
        row.variantInStock = p.trackInventory ? '' : String(v.inStock);
        row.variantVisible = String(v.visible);
      }
    }
    return PRODUCT_CSV_COLUMNS.map((c) => row[c.name] ?? '');
  });
}
