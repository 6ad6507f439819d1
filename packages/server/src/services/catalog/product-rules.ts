// The rules a product's shape keeps (sizes, stock, discount) and the variant overrides a patch
// applies; pure, shared by the service's creates and updates.
import { ApiError } from '../../platform/errors.js';
import { choiceCombinations, MAX_OPTIONS, MAX_STOCK_QUANTITY, MAX_VARIANTS, type Product, type Variant } from './products.js';
import type { VariantPatch } from './wire.js';

/** Refuses a product over the limits: options, variants, stock quantity, an amount discount above the price. */
export function checkProductShape(product: Product): void {
  if (product.options.length > MAX_OPTIONS) {
    throw ApiError.validation([{ field: 'product.productOptions', rule: 'MAX_SIZE', description: `at most ${MAX_OPTIONS} options`, data: { threshold: MAX_OPTIONS } }]);
  }
  if (choiceCombinations(product.options).length > MAX_VARIANTS) {
    throw ApiError.validation([{ field: 'product.productOptions', rule: 'MAX_SIZE', description: `the options make more than ${MAX_VARIANTS} variants`, data: { threshold: MAX_VARIANTS } }]);
  }
  if ((product.quantity ?? 0) > MAX_STOCK_QUANTITY) {
    throw ApiError.validation([{ field: 'product.stock.quantity', rule: 'MAX', description: `at most ${MAX_STOCK_QUANTITY}`, data: { threshold: MAX_STOCK_QUANTITY } }]);
  }
  if (product.discount.type === 'AMOUNT' && BigInt(product.discount.value) > product.price) {
    throw ApiError.validation([{ field: 'product.discount.value', rule: 'MAX', description: 'an amount discount cannot exceed the price' }]);
  }
}

/** Applies variant overrides, matched by variant ids, by (some of) their choices, or to all. */
export function applyVariantPatches(product: Product, patches: readonly VariantPatch[], field: string): Variant[] {
  const variants = product.variants.map((v) => ({ ...v }));
  patches.forEach((patch, i) => {
    let targets: Variant[];
    if (patch.variantIds?.length) {
      targets = variants.filter((v) => patch.variantIds?.includes(v.id));
      const unknown = patch.variantIds.filter((id) => !variants.some((v) => v.id === id));
      if (unknown.length) throw ApiError.validation([{ field: `${field}[${i}].variantIds`, rule: 'VALIDATION', description: `unknown variants: ${unknown.join(', ')}` }]);
    } else if (patch.choices && Object.keys(patch.choices).length) {
      const wanted = Object.entries(patch.choices);
      targets = variants.filter((v) => wanted.every(([k, val]) => v.choices[k] === val));
      if (targets.length === 0) throw ApiError.validation([{ field: `${field}[${i}].choices`, rule: 'VALIDATION', description: 'no variant has these choices' }]);
    } else {
      targets = variants;
    }
    for (const v of targets) {
      if (patch.price !== undefined) v.price = patch.price;
      if (patch.weight !== undefined) v.weight = patch.weight;
      if (patch.sku !== undefined) v.sku = patch.sku;
      if (patch.visible !== undefined) v.visible = patch.visible;
      if (patch.quantity !== undefined) v.quantity = patch.quantity;
      if (patch.inStock !== undefined) v.inStock = patch.inStock;
      if (v.quantity !== null && v.quantity > MAX_STOCK_QUANTITY) {
        throw ApiError.validation([{ field: `${field}[${i}].stock.quantity`, rule: 'MAX', description: `at most ${MAX_STOCK_QUANTITY}`, data: { threshold: MAX_STOCK_QUANTITY } }]);
      }
    }
  });
  return variants;
}

/** A URL slug from a name: accents dropped, lower case, words joined by hyphens (at most 100). */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || 'item';
}
