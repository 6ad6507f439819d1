import { z } from 'zod';
import { PRODUCT_LIMITS, type Product, type ProductInput } from '@bodega/sdk';
import { productOptions, productVariants } from '../../domain/product.js';
import { mediaOf, mediaPatch, saveChoicePictures } from './media.js';
import type { AdminClient } from '../client.js';

/** The store's built-in collection every product is in: never offered, added or removed. */
export const ALL_PRODUCTS = '00000000-000000-000000-000000000001';

const atMost = (n: number) => `At most ${n} characters`;
const decimal = /^\d{1,9}(\.\d{1,2})?$/;
const isNumberOrEmpty = (v: string) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)));
const isQuantityOrEmpty = (v: string) => v === '' || (/^\d+$/.test(v) && Number(v) <= PRODUCT_LIMITS.quantity);
const optionalNumber = z.string().trim().refine(isNumberOrEmpty, 'Enter a number');

// A disabled input (the stock, when not tracked) has no value in the form: hence optional.
const variantRow = z.object({ price: z.string().optional(), sku: z.string().optional(), weight: z.string().optional(), stock: z.string().optional() });
export type VariantRow = z.infer<typeof variantRow>;
type VariantRows = Record<string, VariantRow>;

const picture = z.object({
  url: z.string(),
  width: z.number().optional(),
  height: z.number().optional(),
  altText: z.string().max(PRODUCT_LIMITS.altText, atMost(PRODUCT_LIMITS.altText)),
});

export const productSchema = z.object({
  name: z.string().trim().min(1, 'Give the product a name').max(PRODUCT_LIMITS.name, atMost(PRODUCT_LIMITS.name)),
  description: z.string().max(PRODUCT_LIMITS.description, atMost(PRODUCT_LIMITS.description)),
  price: z.string().trim().regex(decimal, 'Enter a price like 12.50'),
  discountType: z.enum(['NONE', 'PERCENT', 'AMOUNT']),
  discountValue: optionalNumber,
  sku: z.string().trim().max(PRODUCT_LIMITS.sku, atMost(PRODUCT_LIMITS.sku)),
  weight: optionalNumber,
  visible: z.boolean(),
  productType: z.enum(['physical', 'digital']),
  ribbon: z.string().trim().max(PRODUCT_LIMITS.ribbon, atMost(PRODUCT_LIMITS.ribbon)),
  trackInventory: z.boolean(),
  quantity: z.string().trim().refine(isQuantityOrEmpty, 'A whole number'),
  collectionIds: z.array(z.string()),
  options: z.array(z.object({
    name: z.string().trim().min(1, 'Name the option').max(PRODUCT_LIMITS.optionName, atMost(PRODUCT_LIMITS.optionName)),
    choices: z.string()
      .refine((v) => v.split(',').map((c) => c.trim()).filter(Boolean).length > 0, 'List the choices, separated by commas')
      .refine((v) => v.split(',').every((c) => c.trim().length <= PRODUCT_LIMITS.choice), `Each choice at most ${PRODUCT_LIMITS.choice} characters`)
      .refine((v) => v.split(',').filter((c) => c.trim()).length <= PRODUCT_LIMITS.choicesPerOption, `At most ${PRODUCT_LIMITS.choicesPerOption} choices`),
  })).max(PRODUCT_LIMITS.options, `At most ${PRODUCT_LIMITS.options} options`),
  /** The variants' own price, SKU, weight and stock, under rowName(choices); empty means the product's. */
  variants: z.record(z.string(), variantRow),
  /** The pictures in order (the first is the main one) and the picture of each choice by `option=choice`. */
  media: z.object({ items: z.array(picture), choices: z.record(z.string(), z.string()) }),
}).superRefine((form, ctx) => {
  // Only the rows of the variants the options make now: a row left from a removed choice is not sent.
  for (const choices of combinations(form.options)) {
    const name = rowName(choices);
    const row = form.variants[name];
    if (!row) continue;
    const problem = (field: keyof VariantRow, message: string) => ctx.addIssue({ code: 'custom', path: ['variants', name, field], message });
    const price = row.price?.trim() ?? '';
    if (price !== '' && !decimal.test(price)) problem('price', 'Enter a price like 12.50');
    if ((row.sku?.trim() ?? '').length > PRODUCT_LIMITS.sku) problem('sku', atMost(PRODUCT_LIMITS.sku));
    if (!isNumberOrEmpty(row.weight?.trim() ?? '')) problem('weight', 'Enter a number');
    if (form.trackInventory && !isQuantityOrEmpty(row.stock?.trim() ?? '')) problem('stock', 'A whole number');
  }
});
export type ProductForm = z.infer<typeof productSchema>;

const choicesOf = (o: ProductForm['options'][number]) => [...new Set(o.choices.split(',').map((c) => c.trim()).filter(Boolean))];

/** Every combination of the options' choices, as `{option: choice}` maps. */
export function combinations(options: ProductForm['options']): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const o of options) {
    const name = o.name.trim();
    const choices = choicesOf(o);
    if (!name || choices.length === 0) continue;
    out = out.flatMap((c) => choices.map((choice) => ({ ...c, [name]: choice })));
  }
  return options.some((o) => o.name.trim() && choicesOf(o).length) ? out : [];
}
export const keyOf = (choices: Record<string, string>) => Object.entries(choices).map(([k, v]) => `${k}=${v}`).join('|');

/**
 * A variant's row as a form field name: react-hook-form reads `.` and `[…]` in a name as a path,
 * and option names and choices may hold them, so every character but a letter or digit is escaped.
 */
export function rowName(choices: Record<string, string>): string {
  return `v${encodeURIComponent(keyOf(choices)).replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}`;
}

export function toForm(p: Product | undefined): ProductForm {
  if (!p) {
    return { name: '', description: '', price: '', discountType: 'NONE', discountValue: '', sku: '', weight: '', visible: true, productType: 'physical', ribbon: '', trackInventory: true, quantity: '', collectionIds: [], options: [], variants: {}, media: mediaOf(undefined) };
  }
  const discount = p.discount?.type === 'PERCENT' || p.discount?.type === 'AMOUNT' ? p.discount.type : 'NONE';
  return {
    name: p.name ?? '', description: p.description ?? '', price: String(p.priceData?.price ?? ''), discountType: discount,
    discountValue: discount === 'NONE' ? '' : String(p.discount?.value ?? ''), sku: p.sku ?? '', weight: p.weight ? String(p.weight) : '',
    visible: p.visible !== false, productType: p.productType === 'digital' ? 'digital' : 'physical', ribbon: p.ribbon ?? '',
    trackInventory: p.stock?.trackInventory === true, quantity: p.stock?.trackInventory ? String(p.stock.quantity ?? 0) : '',
    collectionIds: (p.collectionIds ?? []).filter((id) => id !== ALL_PRODUCTS),
    options: productOptions(p).map((o) => ({ name: o.name, choices: o.choices.map((c) => c.value).join(', ') })),
    variants: variantRows(p),
    media: mediaOf(p),
  };
}

function variantRows(p: Product | undefined): VariantRows {
  const rows: VariantRows = {};
  if (!p?.manageVariants) return rows;
  for (const v of productVariants(p)) {
    const raw = p.variants.find((x) => x._id === v.id)?.variant;
    rows[rowName(v.choices)] = { price: String(raw?.priceData.price ?? ''), sku: v.sku ?? '', weight: raw?.weight ? String(raw.weight) : '', stock: v.quantity !== undefined ? String(v.quantity) : '' };
  }
  return rows;
}

export async function saveProduct(api: AdminClient, id: string | undefined, before: Product | undefined, form: ProductForm): Promise<string> {
  const { media } = form;
  const rows = form.variants;
  const combos = combinations(form.options);
  const hasVariants = combos.length > 0;
  const productOptionsWire = form.options.map((o) => ({ name: o.name.trim(), optionType: 'drop_down' as const, choices: choicesOf(o).map((c) => ({ value: c, description: c })) }));
  const optionsChanged = JSON.stringify(toForm(before).options) !== JSON.stringify(form.options);
  const base: ProductInput = {
    name: form.name, description: form.description, priceData: { price: Number(form.price) }, visible: form.visible, productType: form.productType,
    ...(form.sku ? { sku: form.sku } : {}), ...(form.weight ? { weight: Number(form.weight) } : {}),
    ...(form.ribbon ? { ribbon: form.ribbon } : {}),
    discount: form.discountType === 'NONE' ? { type: 'NONE', value: 0 } : { type: form.discountType, value: Number(form.discountValue || 0) },
    stock: hasVariants ? { trackInventory: form.trackInventory } : { trackInventory: form.trackInventory, ...(form.trackInventory ? { quantity: Number(form.quantity || 0) } : { inStock: true }) },
    ...(!id || optionsChanged ? { manageVariants: hasVariants, productOptions: productOptionsWire } : {}),
  };
  const pictures = mediaPatch(before, media);
  if (pictures) base.media = pictures;
  let productId = id;
  if (productId) await api.products.updateProduct(productId, base);
  else productId = (await api.products.createProduct(base)).product?._id;
  if (!productId) throw new Error('The server did not answer with the product');
  if (id && before?.ribbon && !form.ribbon) await api.products.removeProductRibbon(productId);

  await saveChoicePictures(api, productId, before, media, productOptionsWire.flatMap((o) => o.choices.map((c) => ({ option: o.name, choice: c.value }))));

  if (hasVariants) {
    await api.products.updateProductVariants(productId, combos.map((choices) => {
      const row = rows[rowName(choices)];
      return {
        choices,
        ...(row?.price ? { price: Number(row.price) } : { price: Number(form.price) }),
        ...(row?.sku ? { sku: row.sku } : {}),
        ...(row?.weight ? { weight: Number(row.weight) } : {}),
      };
    }));
    if (form.trackInventory) {
      const saved = (await api.products.getProduct(productId)).product;
      const variants = productVariants(saved).map((v) => ({ variantId: v.id, quantity: Number(rows[rowName(v.choices)]?.stock || 0) }));
      await api.inventory.updateInventoryVariants(productId, { trackQuantity: true, variants });
    }
  }

  const oldCollections = new Set(toForm(before).collectionIds);
  const newCollections = new Set(form.collectionIds);
  for (const c of newCollections) if (!oldCollections.has(c)) await api.products.addProductsToCollection(c, [productId]);
  for (const c of oldCollections) if (!newCollections.has(c)) await api.products.removeProductsFromCollection(c, [productId]);
  return productId;
}

