/**
 * The V3 catalog through the current official packages (`productsV3`, `readOnlyVariantsV3`,
 * `inventoryItemsV3`, `catalogVersioning`, `@wix/categories`) and the current cart: a V3 view of
 * the one catalog, so V3 products are carted, priced, stocked and ordered as V1 products are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { brandsV3, catalogVersioning, customizationsV3, inventoryItemsV3, productsV3, readOnlyVariantsV3, ribbonsV3 } from '@wix/stores';
import { categories } from '@wix/categories';
import { checkout, currentCart } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { listen, redirectWixFetch } from '../test/wix-fetch.js';
import { apiKey, createProduct, NEW_YORK, STORES_APP_ID } from '../test/commerce.js';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

const TREE = { appNamespace: '@wix/stores' };

function admin(site: TestSite) {
  return createClient({ modules: { productsV3, inventoryItemsV3, categories, catalogVersioning }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
}
function storefront(site: TestSite) {
  return createClient({ modules: { productsV3, readOnlyVariantsV3, categories, catalogVersioning, currentCart, checkout }, auth: OAuthStrategy({ clientId: site.clientId }) });
}

/** A T-shirt in two sizes, 4 of S and 3 of M, at $25 (list $30), in a "Summer" category. */
async function seedV3(site: TestSite) {
  const a = admin(site);
  const created = await a.productsV3.createProductWithInventory({
    name: 'Summer Tee',
    productType: productsV3.ProductType.PHYSICAL,
    physicalProperties: {},
    plainDescription: 'Light cotton',
    options: [{
      name: 'Size',
      optionRenderType: productsV3.ProductOptionRenderType.TEXT_CHOICES,
      choicesSettings: { choices: [{ name: 'S', choiceType: productsV3.ChoiceType.CHOICE_TEXT }, { name: 'M', choiceType: productsV3.ChoiceType.CHOICE_TEXT }] },
    }],
    variantsInfo: {
      variants: ['S', 'M'].map((size, i) => ({
        choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: size, renderType: productsV3.ProductOptionRenderType.TEXT_CHOICES } }],
        price: { actualPrice: { amount: '25' }, compareAtPrice: { amount: '30' } },
        sku: `TEE-${size}`,
        physicalProperties: { weight: 0.2 },
        inventoryItem: { quantity: i === 0 ? 4 : 3, trackQuantity: true },
      })),
    },
  });
  const summer = await a.categories.createCategory({ name: 'Summer', visible: true }, { treeReference: TREE });
  await a.categories.bulkAddItemsToCategory(summer._id as string, [{ catalogItemId: created.product?._id as string, appId: STORES_APP_ID }], { treeReference: TREE });
  return { product: created.product as NonNullable<typeof created.product>, summerId: summer._id as string };
}

describe('the V3 catalog through the official packages', () => {
  it('answers getCatalogVersion from the site setting', async () => {
    const v1 = await t.createSite();
    const v3 = await t.createSite({ catalogVersion: 'V3_CATALOG' });
    expect((await storefront(v1).catalogVersioning.getCatalogVersion()).catalogVersion).toBe('V1_CATALOG');
    expect((await admin(v3).catalogVersioning.getCatalogVersion()).catalogVersion).toBe('V3_CATALOG');
    expect((await storefront(v3).catalogVersioning.getCatalogVersion()).catalogVersion).toBe('V3_CATALOG');
    await t.app.services.sites.setCatalogVersion(t.app.services.sites.contextFor(v1.siteId), 'V3_CATALOG');
    expect((await storefront(v1).catalogVersioning.getCatalogVersion()).catalogVersion).toBe('V3_CATALOG');
    const anonymous = await t.app.inject({ method: 'GET', url: '/stores/v3/provision/version' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('runs a storefront: list, category search, product by slug, pick a variant, cart, checkout; stock goes down', async () => {
    const site = await t.createSite({ catalogVersion: 'V3_CATALOG' });
    const { product, summerId } = await seedV3(site);
    await createProduct(t.app, site, { name: 'Winter Coat', priceData: { price: 120 } });
    expect(product).toMatchObject({ name: 'Summer Tee', slug: 'summer-tee', productType: 'PHYSICAL', visible: true });
    expect(product.variantsInfo?.variants).toHaveLength(2);

    const sf = storefront(site);
    expect((await sf.catalogVersioning.getCatalogVersion()).catalogVersion).toBe('V3_CATALOG');

    const listed = await sf.productsV3.queryProducts().limit(1).find();
    expect(listed.items).toHaveLength(1);
    expect(listed.hasNext()).toBe(true);
    const next = await listed.next();
    expect([...listed.items, ...next.items].map((p) => p.name).sort()).toEqual(['Summer Tee', 'Winter Coat']);

    const inSummer = await sf.productsV3.searchProducts(
      { filter: { 'allCategoriesInfo.categories': { $matchItems: [{ _id: { $in: [summerId] } }] } }, cursorPaging: { limit: 20 } },
      { fields: [productsV3.RequestedFields.ALL_CATEGORIES_INFO, productsV3.RequestedFields.CURRENCY] },
    );
    expect(inSummer.products?.map((p) => p.name)).toEqual(['Summer Tee']);
    expect(inSummer.products?.[0]).toMatchObject({
      currency: 'USD',
      actualPriceRange: { minValue: { amount: '25.00' }, maxValue: { amount: '25.00' } },
      compareAtPriceRange: { minValue: { amount: '30.00' } },
      inventory: { availabilityStatus: 'IN_STOCK' },
    });
    expect(inSummer.products?.[0].allCategoriesInfo?.categories?.map((c) => c._id)).toContain(summerId);

    const { product: page } = await sf.productsV3.getProductBySlug('summer-tee', { fields: [productsV3.RequestedFields.URL, productsV3.RequestedFields.PLAIN_DESCRIPTION] });
    expect(page).toMatchObject({ _id: product._id, plainDescription: 'Light cotton' });
    expect(page?.options?.[0].choicesSettings?.choices?.map((c) => c.name)).toEqual(['S', 'M']);

    const variants = await sf.readOnlyVariantsV3.queryVariants().eq('productData.productId', product._id).find();
    const medium = variants.items.find((v) => v.optionChoices?.some((c) => c.optionChoiceNames?.choiceName === 'M'));
    expect(medium).toMatchObject({ sku: 'TEE-M', price: { actualPrice: { amount: '25.00' } }, inventoryStatus: { inStock: true } });

    await sf.currentCart.addToCurrentCart({
      lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product._id as string, options: { variantId: medium?._id } }, quantity: 2 }],
    });
    const cart = await sf.currentCart.getCurrentCart();
    expect((cart.lineItems ?? []).map((l) => [l.productName?.original, l.price?.amount, l.quantity])).toEqual([['Summer Tee', '25.00', 2]]);
    const { checkoutId } = await sf.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB });
    await sf.checkout.updateCheckout(checkoutId as string, { buyerInfo: { email: 'v3@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } });
    const { orderId } = await sf.checkout.createOrder(checkoutId as string);
    expect(orderId).toEqual(expect.any(String));

    const stock = await admin(site).inventoryItemsV3.queryInventoryItems().eq('productId', product._id).find();
    expect(Object.fromEntries(stock.items.map((i) => [i.product?.variantSku, i.quantity]))).toEqual({ 'TEE-S': 4, 'TEE-M': 1 });
    const v1View = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${product._id}`, headers: apiKey(site) });
    expect(v1View.json().product.variants.map((v: { stock: { quantity: number } }) => v.stock.quantity)).toEqual([4, 1]);
    expect(wixFetch.calls).toEqual(expect.arrayContaining([
      'GET /stores/v3/provision/version', 'GET /stores/v3/products/query', 'GET /stores/v3/products/search',
      'GET /stores/v3/products/slug/summer-tee', 'POST /stores/v3/products/query-variants',
      'POST /categories/v1/categories', `POST /categories/v1/bulk/categories/${summerId}/add-items`,
    ]));
  });

  it('shows V1 products in V3 and V3 writes in V1, and updates stock through inventory items', async () => {
    const site = await t.createSite();
    const mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 9 }, discount: { type: 'AMOUNT', value: 1 }, stock: { trackInventory: true, quantity: 5 }, ribbon: 'Sale', brand: 'Clayworks' });
    const a = admin(site);
    const product = await a.productsV3.getProduct(mug.id);
    expect(product).toMatchObject({ name: 'Mug', ribbon: { name: 'Sale' }, brand: { name: 'Clayworks' }, actualPriceRange: { minValue: { amount: '8.00' } } });
    const only = product?.variantsInfo?.variants?.[0];
    expect(only?.price).toMatchObject({ actualPrice: { amount: '8.00' }, compareAtPrice: { amount: '9.00' } });

    const updated = await a.productsV3.updateProduct(mug.id, { name: 'Big Mug', revision: product?.revision });
    expect(updated.name).toBe('Big Mug');
    const items = await a.inventoryItemsV3.queryInventoryItems().eq('productId', mug.id).find();
    expect(items.items.map((i) => [i.quantity, i.trackQuantity])).toEqual([[5, true]]);
    const changed = await a.inventoryItemsV3.updateInventoryItem(items.items[0]._id as string, { quantity: 12, revision: items.items[0].revision });
    expect(changed.quantity).toBe(12);
    const v1 = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${mug.id}`, headers: apiKey(site) });
    expect(v1.json().product).toMatchObject({ name: 'Big Mug', stock: { quantity: 12 } });
    expect((await a.productsV3.countProducts()).count).toBe(1);
  });

  it('lists ribbons, brands and customizations from the products that carry them', async () => {
    const site = await t.createSite();
    await seedV3(site);
    await createProduct(t.app, site, { name: 'Mug', priceData: { price: 9 }, ribbon: 'Sale', brand: 'Clayworks', customTextFields: [{ title: 'Engraving', maxLength: 20 }] });
    await createProduct(t.app, site, { name: 'Bowl', priceData: { price: 7 }, ribbon: 'Sale' });
    const a = createClient({ modules: { ribbonsV3, brandsV3, customizationsV3, productsV3 }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const ribbons = await a.ribbonsV3.queryRibbons().find();
    expect(ribbons.items.map((r) => [r.name, r.assignedProductCount])).toEqual([['Sale', 2]]);
    const sale = await a.ribbonsV3.getOrCreateRibbon('Sale');
    expect(sale.ribbon?._id).toBe(ribbons.items[0]._id);
    expect((await a.ribbonsV3.getRibbon(ribbons.items[0]._id as string)).name).toBe('Sale');
    const brands = await a.brandsV3.queryBrands().find();
    expect(brands.items.map((b) => b.name)).toEqual(['Clayworks']);
    const custom = await a.customizationsV3.queryCustomizations().find();
    expect(custom.items.map((c) => [c.name, c.customizationType, c.customizationRenderType])).toEqual([
      ['Size', 'PRODUCT_OPTION', 'TEXT_CHOICES'], ['Engraving', 'MODIFIER', 'FREE_TEXT'],
    ]);
    const tee = (await a.productsV3.getProductBySlug('summer-tee')).product;
    expect(tee?.options?.[0]._id).toBe(custom.items[0]._id);
    expect((await a.customizationsV3.getCustomization(custom.items[0]._id as string)).choicesSettings?.choices?.map((c) => c.name)).toEqual(['S', 'M']);
  });

  it('lists, reads and empties categories, which are the V1 collections', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Hat', priceData: { price: 15 } });
    const a = admin(site);
    const hats = await a.categories.createCategory({ name: 'Hats' }, { treeReference: TREE });
    await a.categories.bulkAddItemsToCategory(hats._id as string, [{ catalogItemId: p.id, appId: STORES_APP_ID }], { treeReference: TREE });
    const sf = storefront(site);
    const bySlug = await sf.categories.getCategoryBySlug('hats', TREE);
    expect(bySlug.category).toMatchObject({ _id: hats._id, name: 'Hats', itemCounter: 1 });
    const listed = await sf.categories.queryCategories({ treeReference: TREE }).eq('name', 'Hats').find();
    expect(listed.items.map((c) => c._id)).toEqual([hats._id]);
    const items = await sf.categories.listItemsInCategory(hats._id as string, TREE);
    expect(items.items).toEqual([{ catalogItemId: p.id, appId: STORES_APP_ID }]);
    const v1 = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${p.id}`, headers: apiKey(site) });
    expect(v1.json().product.collectionIds).toContain(hats._id);
    await a.categories.bulkRemoveItemsFromCategory(hats._id as string, [{ catalogItemId: p.id, appId: STORES_APP_ID }], { treeReference: TREE });
    expect((await sf.categories.listItemsInCategory(hats._id as string, TREE)).items).toEqual([]);
  });

  it('serves the bulk, search, count and item calls the README lists', async () => {
    const site = await t.createSite();
    const a = createClient({ modules: { productsV3, readOnlyVariantsV3, inventoryItemsV3, categories }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const variant = (amount: string) => ({ variantsInfo: { variants: [{ price: { actualPrice: { amount } } }] } });
    const bulk = await a.productsV3.bulkCreateProducts([
      { name: 'Pen', productType: productsV3.ProductType.PHYSICAL, physicalProperties: {}, ...variant('2') },
      { name: 'Ink', productType: productsV3.ProductType.PHYSICAL, physicalProperties: {}, ...variant('0.001') },
    ], { returnEntity: true });
    expect((bulk.results ?? []).map((r) => r.itemMetadata?.success)).toEqual([true, false]);
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    const penId = bulk.results?.[0].itemMetadata?._id as string;
    expect((await a.productsV3.getAllProductsCategory()).categoryId).toEqual(expect.any(String));

    const found = await a.readOnlyVariantsV3.searchVariants({ filter: { 'productData.productId': penId } });
    expect((found.variants ?? []).map((v) => v.productData?.name)).toEqual(['Pen']);
    const searched = await a.inventoryItemsV3.searchInventoryItems({ filter: { productId: penId } });
    const item = (searched.inventoryItems ?? [])[0];
    const updated = await a.inventoryItemsV3.bulkUpdateInventoryItems([{ inventoryItem: { _id: item._id as string, revision: item.revision as string, trackQuantity: true, quantity: 6 } }], { returnEntity: true });
    expect(updated.results?.[0].item?.quantity).toBe(6);

    const pens = await a.categories.createCategory({ name: 'Pens' }, { treeReference: TREE });
    await a.categories.bulkAddItemsToCategory(pens._id as string, [{ catalogItemId: penId, appId: STORES_APP_ID }], { treeReference: TREE });
    const renamed = await a.categories.updateCategory(pens._id as string, { name: 'Fine Pens', revision: pens.revision }, { treeReference: TREE });
    expect(renamed.name).toBe('Fine Pens');
    expect((await a.categories.searchCategories({ filter: { name: 'Fine Pens' } }, { treeReference: TREE })).categories?.map((c) => c._id)).toEqual([pens._id]);
    expect((await a.categories.countCategories({ treeReference: TREE })).count).toBe(2);
    const forItem = await a.categories.listCategoriesForItem({ catalogItemId: penId, appId: STORES_APP_ID }, { treeReference: TREE });
    expect(forItem.directCategoryIds).toContain(pens._id);
    await a.categories.deleteCategory(pens._id as string, TREE);
    expect((await a.categories.countCategories({ treeReference: TREE })).count).toBe(1);

    const deleted = await a.productsV3.bulkDeleteProducts([penId, 'no-such-product']);
    expect((deleted.results ?? []).map((r) => r.itemMetadata?.success)).toEqual([true, false]);
  });

  it('refuses V3 writes from a visitor, bad prices with the field named, and unknown filters', async () => {
    const site = await t.createSite();
    const visitor = await t.visitorToken(site);
    const body = { product: { name: 'X', productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] } } };
    const asVisitor = await t.app.inject({ method: 'POST', url: '/stores/v3/products', headers: { authorization: visitor }, payload: body });
    expect(asVisitor.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'POST', url: '/stores/v3/products', headers: apiKey(site), payload: { product: { name: 'X', variantsInfo: { variants: [{ price: { actualPrice: { amount: '1.001' } } }] } } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.validationError.fieldViolations[0].field).toBe('product.variantsInfo.variants[0].price.actualPrice.amount');
    const noVariants = await t.app.inject({ method: 'POST', url: '/stores/v3/products', headers: apiKey(site), payload: { product: { name: 'X' } } });
    expect(noVariants.statusCode).toBe(400);
    const filter = await t.app.inject({ method: 'POST', url: '/stores/v3/products/search', headers: { authorization: visitor }, payload: { search: { filter: { 'seoData.title': 'x' } } } });
    expect([filter.statusCode, filter.json().details.applicationError.code]).toEqual([400, 'INVALID_QUERY']);
    const cursor = await t.app.inject({ method: 'POST', url: '/stores/v3/products/query', headers: { authorization: visitor }, payload: { query: { cursorPaging: { cursor: 'nonsense' } } } });
    expect(cursor.statusCode).toBe(400);
    const stock = await t.app.inject({ method: 'POST', url: '/stores/v3/inventory-items/query', headers: { authorization: visitor }, payload: {} });
    expect(stock.statusCode).toBe(403);
  });
});
