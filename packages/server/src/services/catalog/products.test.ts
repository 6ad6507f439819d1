import { describe, expect, it } from 'vitest';
import {
  applyStockChanges,
  buildVariants,
  DEFAULT_VARIANT_ID,
  discountedPrice,
  lineKey,
  productStock,
  resolveVariant,
  stockOf,
  type Product,
  type ProductOption,
} from './products.js';

let ids = 0;
const nextId = () => `v${++ids}`;

const SIZE: ProductOption = { optionType: 'drop_down', name: 'Size', choices: ['S', 'M'].map((value) => ({ value, description: value, inStock: true, visible: true })) };
const COLOR: ProductOption = { optionType: 'color', name: 'Color', choices: [{ value: 'Red', description: '#f00', inStock: true, visible: true }, { value: 'Blue', description: '#00f', inStock: false, visible: true }] };

function product(overrides: Partial<Product> = {}): Product {
  const base: Product = {
    id: 'p1', numericId: 1, slug: 'p', name: 'P', description: '', productType: 'physical', visible: true, sku: null, weight: '1',
    price: 1000n, discount: { type: 'NONE', value: '0' }, trackInventory: false, quantity: null, inStock: true, manageVariants: false,
    options: [], variants: [], media: [], ribbon: null, brand: null, additionalInfoSections: [], customTextFields: [], collectionIds: [],
    createdDate: new Date(0), updatedDate: new Date(0), ...overrides,
  };
  return { ...base, variants: overrides.variants ?? buildVariants(base.options, [], nextId) };
}

describe('variants', () => {
  it('gives a product without options one default variant', () => {
    expect(buildVariants([], [], nextId)).toEqual([expect.objectContaining({ id: DEFAULT_VARIANT_ID, choices: {} })]);
  });

  it('makes one variant per combination of choices and keeps data when options change', () => {
    const first = buildVariants([SIZE, COLOR], [], nextId);
    expect(first.map((v) => v.choices)).toEqual([
      { Size: 'S', Color: 'Red' }, { Size: 'S', Color: 'Blue' }, { Size: 'M', Color: 'Red' }, { Size: 'M', Color: 'Blue' },
    ]);
    first[0].price = 1200n;
    const again = buildVariants([SIZE, COLOR], first, nextId);
    expect(again[0]).toBe(first[0]);
    expect(again.map((v) => v.id)).toEqual(first.map((v) => v.id));
  });

  it.each([
    [{ variantId: 'nope' }, 'VARIANT_NOT_FOUND'],
    [{ options: { Size: 'XL' } }, 'VARIANT_NOT_FOUND'],
    [undefined, 'OPTIONS_REQUIRED'],
    [{ options: {} }, 'OPTIONS_REQUIRED'],
  ])('refuses the options %j with %s', (options, code) => {
    const p = product({ options: [SIZE] });
    expect(resolveVariant(p, options)).toMatchObject({ ok: false, code });
  });

  it('finds a variant by id or by choices, the same one either way', () => {
    const p = product({ options: [SIZE] });
    const byChoices = resolveVariant(p, { options: { Size: 'M' } });
    const byId = resolveVariant(p, { variantId: p.variants[1].id });
    expect(byChoices).toMatchObject({ ok: true, variant: p.variants[1] });
    expect(byId).toMatchObject({ ok: true, variant: p.variants[1] });
  });

  it('checks custom text fields and puts them in the line key', () => {
    const p = product({ customTextFields: [{ title: 'Engraving', maxLength: 5, mandatory: true }] });
    expect(resolveVariant(p, {})).toMatchObject({ ok: false, code: 'INVALID_CUSTOM_TEXT_FIELD' });
    expect(resolveVariant(p, { customTextFields: { Engraving: 'toolong' } })).toMatchObject({ ok: false, code: 'INVALID_CUSTOM_TEXT_FIELD' });
    const ok = resolveVariant(p, { customTextFields: { Engraving: 'Ada' } });
    expect(ok).toMatchObject({ ok: true, customTextFields: { Engraving: 'Ada' } });
    expect(lineKey('p1', 'v', { Engraving: 'Ada' })).not.toBe(lineKey('p1', 'v', { Engraving: 'Bob' }));
    expect(lineKey('p1', 'v', {})).toBe(lineKey('p1', 'v', {}));
  });
});

describe('prices', () => {
  it.each([
    [{ type: 'NONE', value: '0' }, 1000n],
    [{ type: 'PERCENT', value: '10' }, 900n],
    [{ type: 'PERCENT', value: '12.5' }, 875n],
    [{ type: 'PERCENT', value: '0.05' }, 1000n], // 0.5 minor units round half-even to 0
    [{ type: 'AMOUNT', value: '250' }, 750n],
    [{ type: 'AMOUNT', value: '5000' }, 0n],
  ] as const)('applies %j to 10.00', (discount, expected) => {
    expect(discountedPrice(1000n, discount)).toBe(expected);
  });
});

describe('stock', () => {
  it('sells from the product when variants are not managed, from each variant when they are', () => {
    const shared = product({ options: [SIZE], trackInventory: true, quantity: 3 });
    expect(stockOf(shared, shared.variants[0])).toEqual({ tracked: true, quantity: 3, inStock: true });
    const managed = product({ options: [SIZE], trackInventory: true, manageVariants: true });
    managed.variants[0].quantity = 2;
    expect(stockOf(managed, managed.variants[0])).toEqual({ tracked: true, quantity: 2, inStock: true });
    expect(stockOf(managed, managed.variants[1])).toEqual({ tracked: true, quantity: 0, inStock: false });
    expect(productStock(managed)).toMatchObject({ quantity: 2, inStock: true, inventoryStatus: 'PARTIALLY_OUT_OF_STOCK' });
  });

  it('treats a choice marked out of stock as out of stock when variants are not managed', () => {
    const p = product({ options: [COLOR] });
    expect(stockOf(p, p.variants[1]).inStock).toBe(false);
    expect(stockOf(p, p.variants[0]).inStock).toBe(true);
  });

  it('sells what is there and refuses the whole sale when one line is short', () => {
    const a = product({ id: 'a', trackInventory: true, quantity: 5 });
    const b = product({ id: 'b', trackInventory: true, quantity: 1 });
    const products = new Map([[a.id, a], [b.id, b]]);
    const sold = applyStockChanges(products, [{ productId: 'a', variantId: DEFAULT_VARIANT_ID, quantity: 2 }, { productId: 'a', variantId: DEFAULT_VARIANT_ID, quantity: 3 }], -1);
    expect(sold).toMatchObject({ ok: true, changed: [{ id: 'a', quantity: 0 }] });
    expect(a.quantity).toBe(5);
    const short = applyStockChanges(products, [{ productId: 'a', variantId: DEFAULT_VARIANT_ID, quantity: 1 }, { productId: 'b', variantId: DEFAULT_VARIANT_ID, quantity: 2 }], -1);
    expect(short).toEqual({ ok: false, shortages: [{ productId: 'b', variantId: DEFAULT_VARIANT_ID, requested: 2, available: 1 }] });
    const missing = applyStockChanges(products, [{ productId: 'gone', variantId: DEFAULT_VARIANT_ID, quantity: 1 }], -1);
    expect(missing).toMatchObject({ ok: false, shortages: [{ productId: 'gone', available: 0 }] });
  });

  it('leaves untracked stock alone but refuses an item marked out of stock', () => {
    const open = product({ id: 'o' });
    const closed = product({ id: 'c', inStock: false });
    const products = new Map([[open.id, open], [closed.id, closed]]);
    expect(applyStockChanges(products, [{ productId: 'o', variantId: DEFAULT_VARIANT_ID, quantity: 99 }], -1)).toEqual({ ok: true, changed: [] });
    expect(applyStockChanges(products, [{ productId: 'c', variantId: DEFAULT_VARIANT_ID, quantity: 1 }], -1)).toMatchObject({ ok: false });
  });

  it('restocks tracked variants and skips products that are gone', () => {
    const m = product({ id: 'm', options: [SIZE], trackInventory: true, manageVariants: true });
    m.variants[1].quantity = 1;
    const back = applyStockChanges(new Map([[m.id, m]]), [{ productId: 'm', variantId: m.variants[1].id, quantity: 2 }, { productId: 'gone', variantId: 'x', quantity: 1 }], 1);
    expect(back).toMatchObject({ ok: true });
    if (back.ok) expect(back.changed[0].variants[1].quantity).toBe(3);
  });
});
