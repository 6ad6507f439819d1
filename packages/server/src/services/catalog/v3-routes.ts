/**
 * HTTP for the Stores V3 calls (`productsV3`, `readOnlyVariantsV3`, `inventoryItemsV3`,
 * `catalogVersioning`) and the Stores tree of `@wix/categories`, at the paths the official
 * packages send to www.wixapis.com. Every call reads and writes the one catalog through
 * CatalogService; categories are its collections, inventory items its variants' stock.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { PageBase } from '../../platform/page-base.js';
import { Type, type Static, type TSchema } from 'typebox';
import { PRODUCT_LIMITS as L } from '../../platform/field-limits.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { ALL_PRODUCTS_COLLECTION_ID, isStoresAppId, STORES_APP_ID, type Product } from './products.js';
import { isShopper, MAX_PAGE_SIZE, type CatalogService } from './service.js';
import { parseAggregations, toWireAggregations } from './v3-aggregations.js';
import { decodeCursor, fieldSet, filterByIdAndName, pagingMetadata, v3ProductFilter, v3ProductSort, type CursorState } from './v3-query.js';
import * as W from './v3-wire-schemas.js';
import {
  fromV3Product,
  parseInventoryItemId,
  STORES_TREE,
  toV3Category,
  toV3Customizations,
  toV3InventoryItem,
  toV3Label,
  toV3Product,
  toV3ReadOnlyVariant,
} from './v3-wire.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Str = (maxLength: number) => Type.String({ maxLength });
const Id = Type.String({ minLength: 1, maxLength: 200 });
const Fields = Type.Optional(Type.Union([Type.Array(Str(60), { maxItems: 40 }), Str(60)]));
const Money = Nullable(Type.Object({ amount: Type.Optional(Nullable(Str(40))) }));

const V3Variant = Type.Object({
  id: Type.Optional(Nullable(Str(100))),
  visible: Type.Optional(Nullable(Type.Boolean())),
  sku: Type.Optional(Nullable(Str(L.sku))),
  choices: Type.Optional(Nullable(Type.Array(Type.Object({
    optionChoiceNames: Type.Optional(Nullable(Type.Object({ optionName: Type.Optional(Str(L.optionName)), choiceName: Type.Optional(Str(L.choice)) }))),
  }), { maxItems: L.options }))),
  price: Type.Optional(Nullable(Type.Object({ actualPrice: Type.Optional(Money), compareAtPrice: Type.Optional(Money) }))),
  physicalProperties: Type.Optional(Nullable(Type.Object({ weight: Type.Optional(Nullable(Type.Number({ minimum: 0 }))) }))),
  inventoryItem: Type.Optional(Nullable(Type.Object({
    quantity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: L.quantity }))),
    inStock: Type.Optional(Nullable(Type.Boolean())),
    trackQuantity: Type.Optional(Nullable(Type.Boolean())),
  }))),
});

const V3Product = Type.Object({
  id: Type.Optional(Nullable(Str(100))),
  revision: Type.Optional(Nullable(Str(40))),
  name: Type.Optional(Nullable(Str(L.name))),
  slug: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }))),
  plainDescription: Type.Optional(Nullable(Str(L.description))),
  visible: Type.Optional(Nullable(Type.Boolean())),
  productType: Type.Optional(Nullable(Str(20))),
  options: Type.Optional(Nullable(Type.Array(Type.Object({
    name: Type.Optional(Nullable(Str(L.optionName))),
    optionRenderType: Type.Optional(Nullable(Str(30))),
    choicesSettings: Type.Optional(Nullable(Type.Object({
      choices: Type.Optional(Nullable(Type.Array(Type.Object({
        name: Type.Optional(Nullable(Str(L.choice))),
        colorCode: Type.Optional(Nullable(Str(50))),
        visible: Type.Optional(Nullable(Type.Boolean())),
      }), { maxItems: L.choicesPerOption }))),
    }))),
  }), { maxItems: L.options }))),
  modifiers: Type.Optional(Nullable(Type.Array(Type.Object({
    name: Type.Optional(Nullable(Str(100))),
    modifierRenderType: Type.Optional(Nullable(Str(30))),
    mandatory: Type.Optional(Nullable(Type.Boolean())),
    freeTextSettings: Type.Optional(Nullable(Type.Object({
      maxCharCount: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 500 }))),
      title: Type.Optional(Nullable(Str(100))),
    }))),
  }), { maxItems: 2 }))),
  brand: Type.Optional(Nullable(Type.Object({ name: Type.Optional(Nullable(Str(50))) }))),
  ribbon: Type.Optional(Nullable(Type.Object({ name: Type.Optional(Nullable(Str(30))) }))),
  infoSections: Type.Optional(Nullable(Type.Array(Type.Object({
    title: Type.Optional(Nullable(Str(50))),
    uniqueName: Type.Optional(Nullable(Str(100))),
    plainDescription: Type.Optional(Nullable(Str(L.description))),
  }), { maxItems: 20 }))),
  media: Type.Optional(Nullable(Type.Object({
    main: Type.Optional(Nullable(Type.Object({ url: Type.Optional(Nullable(Str(2048))) }))),
    itemsInfo: Type.Optional(Nullable(Type.Object({
      items: Type.Optional(Nullable(Type.Array(Type.Object({ url: Type.Optional(Nullable(Str(2048))), altText: Type.Optional(Nullable(Str(500))) }), { maxItems: 50 }))),
    }))),
  }))),
  variantsInfo: Type.Optional(Nullable(Type.Object({ variants: Type.Optional(Nullable(Type.Array(V3Variant, { maxItems: L.variants }))) }))),
});

const ProductBody = Type.Object({ product: V3Product, fields: Fields });
const CursorPaging = Type.Object({
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_PAGE_SIZE }))),
  cursor: Type.Optional(Nullable(Str(4000))),
});
const CursorQuery = Type.Object({
  filter: Type.Optional(Nullable(Type.Unknown())),
  sort: Type.Optional(Nullable(Type.Unknown())),
  cursorPaging: Type.Optional(Nullable(CursorPaging)),
});
const SearchQuery = Type.Object({
  filter: Type.Optional(Nullable(Type.Unknown())),
  sort: Type.Optional(Nullable(Type.Unknown())),
  cursorPaging: Type.Optional(Nullable(CursorPaging)),
  search: Type.Optional(Nullable(Type.Object({ expression: Type.Optional(Nullable(Str(200))) }))),
  aggregations: Type.Optional(Nullable(Type.Array(Type.Unknown(), { maxItems: 20 }))),
});
type ProductsSearch = Static<typeof SearchQuery>;
const QueryRequest = Type.Object({ query: Type.Optional(CursorQuery), fields: Fields });
const SearchRequest = Type.Object({ search: Type.Optional(SearchQuery), fields: Fields });
const CountRequest = Type.Object({ filter: Type.Optional(Nullable(Type.Unknown())), search: Type.Optional(Nullable(Type.Unknown())) });
const FieldsQuery = Type.Object({ fields: Fields });
const IdParams = Type.Object({ id: Id });
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });
const ProductIdsBody = Type.Object({ productIds: Type.Array(Id, { minItems: 1, maxItems: 100 }) });
const BulkCreateBody = Type.Object({ products: Type.Array(V3Product, { minItems: 1, maxItems: 100 }), returnEntity: Type.Optional(Type.Boolean()), fields: Fields });

const InventoryItemInput = Type.Object({
  id: Type.Optional(Nullable(Str(300))),
  revision: Type.Optional(Nullable(Str(40))),
  trackQuantity: Type.Optional(Nullable(Type.Boolean())),
  quantity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: L.quantity }))),
  inStock: Type.Optional(Nullable(Type.Boolean())),
});
const InventoryItemBody = Type.Object({ inventoryItem: InventoryItemInput, reason: Type.Optional(Str(40)) });

const TreeReference = Type.Object({ appNamespace: Type.Optional(Str(100)), treeKey: Type.Optional(Nullable(Str(100))) });
const CategoryInput = Type.Object({
  id: Type.Optional(Nullable(Str(100))),
  revision: Type.Optional(Nullable(Str(40))),
  name: Type.Optional(Nullable(Str(L.name))),
  slug: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }))),
  description: Type.Optional(Nullable(Str(1000))),
  visible: Type.Optional(Nullable(Type.Boolean())),
});
const CategoryBody = Type.Object({ category: CategoryInput, treeReference: Type.Optional(TreeReference), fields: Fields });
const CategoryQueryBody = Type.Object({ query: Type.Optional(CursorQuery), treeReference: Type.Optional(TreeReference), fields: Fields, returnNonVisibleCategories: Type.Optional(Type.Boolean()) });
const CategorySearchBody = Type.Object({ search: Type.Optional(SearchQuery), treeReference: Type.Optional(TreeReference), fields: Fields, returnNonVisibleCategories: Type.Optional(Type.Boolean()) });
const TreeQuery = Type.Object({ treeReference: Type.Optional(TreeReference), fields: Fields });
const ItemReference = Type.Object({ catalogItemId: Id, appId: Str(100) });
const CategoryItemsBody = Type.Object({ items: Type.Array(ItemReference, { minItems: 1, maxItems: 100 }), treeReference: Type.Optional(TreeReference) });
const ListItemsQuery = Type.Object({ treeReference: Type.Optional(TreeReference), cursorPaging: Type.Optional(CursorPaging), useCategoryArrangement: Type.Optional(Type.Unknown()), includeItemsFromSubcategories: Type.Optional(Type.Unknown()) });
const ItemCategoriesQuery = Type.Object({ item: Type.Optional(ItemReference), treeReference: Type.Optional(TreeReference) });

const DEFAULT_LIMIT = 100;

/** The paging state of a query: from its cursor, else from its filter and sort. */
function pageState(query: { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined): CursorState {
  const limit = query?.cursorPaging?.limit || undefined;
  if (query?.cursorPaging?.cursor) {
    const state = decodeCursor(query.cursorPaging.cursor);
    return { ...state, limit: limit ?? state.limit };
  }
  return { filter: query?.filter ?? undefined, sort: query?.sort ?? undefined, offset: 0, limit: limit ?? DEFAULT_LIMIT };
}

function checkTree(tree: { appNamespace?: string } | undefined): void {
  if (tree?.appNamespace !== undefined && tree.appNamespace !== STORES_TREE.appNamespace) {
    throw new ApiError(404, 'TREE_NOT_FOUND', `This server keeps the ${STORES_TREE.appNamespace} category tree only`);
  }
}

export function catalogV3Routes(catalog: CatalogService, publicUrl: string, pageBase: PageBase) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const currency = (ctx: RequestContext) => catalog.currency(ctx.siteId);
    const view = async (ctx: RequestContext, product: Product, fields: unknown, variants: boolean) =>
      toV3Product(product, { currency: await currency(ctx), publicUrl: await pageBase(ctx), fields: fieldSet(fields), variants });

    /** Products of a V3 query or search, a page at a time through the catalog's own query. */
    const productPage = async (ctx: RequestContext, state: CursorState, expression?: string | null) => {
      // search.expression goes through the catalog search (relevance order unless the query sorts).
      const page = await catalog.queryProducts(ctx, { filter: v3ProductFilter(state.filter), sort: v3ProductSort(state.sort), paging: { limit: state.limit, offset: state.offset } }, undefined, expression ?? undefined);
      return page;
    };

    app.get('/stores/v3/provision/version', { schema: { response: { 200: W.CatalogVersionResponse } }, config: { access: 'shop' } }, async (req) => ({ catalogVersion: await catalog.catalogVersion(req.ctx.siteId) }));

    // Products -------------------------------------------------------------------------------
    for (const path of ['/stores/v3/products', '/stores/v3/products-with-inventory']) {
      app.post(path, { schema: { body: ProductBody, response: { 200: W.V3ProductResponse } }, config: { access: 'staff' } }, async (req) => {
        const product = await catalog.createProduct(req.ctx, fromV3Product(req.body.product, await currency(req.ctx), true));
        return { product: await view(req.ctx, product, req.body.fields, true) };
      });
      app.patch(`${path}/:id`, { schema: { body: ProductBody, params: IdParams, response: { 200: W.V3ProductResponse } }, config: { access: 'staff' } }, async (req) => {
        const product = await catalog.updateProduct(req.ctx, req.params.id, fromV3Product(req.body.product, await currency(req.ctx), false));
        return { product: await view(req.ctx, product, req.body.fields, true) };
      });
    }
    app.post('/stores/v3/bulk/products/create', { schema: { body: BulkCreateBody, response: { 200: W.V3BulkProductsResponse } }, config: { access: 'staff' } }, async (req) => {
      const money = await currency(req.ctx);
      const results = [];
      for (const [i, input] of req.body.products.entries()) {
        try {
          const product = await catalog.createProduct(req.ctx, fromV3Product(input, money, true));
          results.push({ itemMetadata: { id: product.id, originalIndex: i, success: true }, ...(req.body.returnEntity && { item: await view(req.ctx, product, req.body.fields, true) }) });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ itemMetadata: { originalIndex: i, success: false, error: { code: error.code, description: error.message } } });
        }
      }
      const failures = results.filter((r) => !r.itemMetadata.success).length;
      return { results, bulkActionMetadata: { totalSuccesses: results.length - failures, totalFailures: failures, undetailedFailures: 0 } };
    });
    app.delete('/stores/v3/products/:id', { schema: { params: IdParams, response: { 200: W.DeletedResponse } }, config: { access: 'staff' } }, async (req) => {
      await catalog.deleteProduct(req.ctx, req.params.id);
      return {};
    });
    app.post('/stores/v3/bulk/products/delete', { schema: { body: ProductIdsBody, response: { 200: W.V3BulkResponse } }, config: { access: 'staff' } }, async (req) => {
      const results = [];
      for (const [i, id] of req.body.productIds.entries()) {
        try {
          await catalog.deleteProduct(req.ctx, id);
          results.push({ itemMetadata: { id, originalIndex: i, success: true } });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ itemMetadata: { id, originalIndex: i, success: false, error: { code: error.code, description: error.message } } });
        }
      }
      const failures = results.filter((r) => !r.itemMetadata.success).length;
      return { results, bulkActionMetadata: { totalSuccesses: results.length - failures, totalFailures: failures, undetailedFailures: 0 } };
    });

    const queryProducts = async (ctx: RequestContext, query: ProductsSearch | undefined, fields: unknown) => {
      const state = pageState(query);
      const aggregations = parseAggregations(query?.aggregations);
      const page = await productPage(ctx, state, query?.search?.expression);
      const money = await currency(ctx);
      const aggregated = aggregations.length
        ? await catalog.aggregateProducts(ctx, { filter: v3ProductFilter(state.filter) }, query?.search?.expression ?? undefined, aggregations)
        : undefined;
      const base = await pageBase(ctx);
      return {
        products: page.items.map((p) => toV3Product(p, { currency: money, publicUrl: base, fields: fieldSet(fields), variants: false })),
        pagingMetadata: pagingMetadata(state, page.items.length, page.total),
        ...(aggregated && { aggregationData: toWireAggregations(aggregations, aggregated) }),
      };
    };
    app.get('/stores/v3/products/query', { schema: { querystring: QueryRequest, response: { 200: W.V3ProductsPage } }, config: { access: 'shop' } }, async (req) => queryProducts(req.ctx, req.query.query, req.query.fields));
    app.post('/stores/v3/products/query', { schema: { body: QueryRequest, response: { 200: W.V3ProductsPage } }, config: { access: 'shop' } }, async (req) => queryProducts(req.ctx, req.body.query, req.body.fields));
    app.get('/stores/v3/products/search', { schema: { querystring: SearchRequest, response: { 200: W.V3ProductsPage } }, config: { access: 'shop' } }, async (req) => queryProducts(req.ctx, req.query.search, req.query.fields));
    app.post('/stores/v3/products/search', { schema: { body: SearchRequest, response: { 200: W.V3ProductsPage } }, config: { access: 'shop' } }, async (req) => queryProducts(req.ctx, req.body.search, req.body.fields));
    const countProducts = async (ctx: RequestContext, filter: unknown) => {
      const page = await catalog.queryProducts(ctx, { filter: v3ProductFilter(filter), paging: { limit: 1 } });
      return { count: page.total };
    };
    app.get('/stores/v3/products/count', { schema: { querystring: CountRequest, response: { 200: W.CountResponse } }, config: { access: 'shop' } }, async (req) => countProducts(req.ctx, req.query.filter));
    app.post('/stores/v3/products/count', { schema: { body: CountRequest, response: { 200: W.CountResponse } }, config: { access: 'shop' } }, async (req) => countProducts(req.ctx, req.body.filter));
    app.get('/stores/v3/products/slug/:slug', { schema: { params: SlugParams, querystring: FieldsQuery, response: { 200: W.V3ProductResponse } }, config: { access: 'shop' } }, async (req) => {
      const page = await catalog.queryProducts(req.ctx, { filter: { slug: req.params.slug }, paging: { limit: 1 } });
      const product = page.items[0];
      if (!product) throw ApiError.notFound('PRODUCT_NOT_FOUND', `No product with slug ${req.params.slug}`, { slug: req.params.slug });
      return { product: await view(req.ctx, product, req.query.fields, true) };
    });
    app.get('/stores/v3/products/:id', { schema: { params: IdParams, querystring: FieldsQuery, response: { 200: W.V3ProductResponse } }, config: { access: 'shop' } }, async (req) =>
      ({ product: await view(req.ctx, await catalog.getProduct(req.ctx, req.params.id), req.query.fields, true) }));
    app.get('/stores/v3/all-products-category', { schema: { response: { 200: W.AllProductsCategory } }, config: { access: 'shop' } }, async () => ({ categoryId: ALL_PRODUCTS_COLLECTION_ID, treeReference: STORES_TREE }));

    // Read-only variants: every variant of the matching products, paged over variants ----------------
    const VARIANT_SCAN = 1000;
    const queryVariants = async (ctx: RequestContext, query: { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined, fields: unknown) => {
      const state = pageState(query);
      const { productFilter, variantIds } = variantFilter(state.filter);
      const products = await allProducts(ctx, productFilter, VARIANT_SCAN);
      const money = await currency(ctx);
      const all = products.flatMap((p) => p.variants
        .filter((v) => (!isShopper(ctx) || v.visible) && (!variantIds || variantIds.includes(v.id)))
        .map((v) => toV3ReadOnlyVariant(p, v, { currency: money, fields: fieldSet(fields) })));
      const page = all.slice(state.offset, state.offset + state.limit);
      return { variants: page, pagingMetadata: pagingMetadata(state, page.length, all.length) };
    };
    app.post('/stores/v3/products/query-variants', { schema: { body: QueryRequest, response: { 200: W.V3VariantsPage } }, config: { access: 'shop' } }, async (req) => queryVariants(req.ctx, req.body.query, req.body.fields));
    app.post('/stores/v3/products/search-variants', { schema: { body: SearchRequest, response: { 200: W.V3VariantsPage } }, config: { access: 'shop' } }, async (req) => queryVariants(req.ctx, req.body.search, req.body.fields));

    /** Up to `max` products matching a catalog filter (read in pages of the catalog's size). */
    const allProducts = async (ctx: RequestContext, filter: unknown, max: number): Promise<Product[]> => {
      const out: Product[] = [];
      for (let offset = 0; out.length < max; offset += MAX_PAGE_SIZE) {
        const page = await catalog.queryProducts(ctx, { filter, paging: { limit: MAX_PAGE_SIZE, offset } });
        out.push(...page.items);
        if (offset + page.items.length >= page.total || page.items.length === 0) break;
      }
      return out;
    };

    // Inventory items: one per variant (stock levels are for the back office) --------------------------------------------------------------
    const inventoryItem = async (ctx: RequestContext, id: string) => {
      const ref = parseInventoryItemId(id);
      const product = ref ? await catalog.getProduct(ctx, ref.productId).catch(() => undefined) : undefined;
      const variant = ref && product?.variants.find((v) => v.id === ref.variantId);
      if (!product || !variant) throw ApiError.notFound('INVENTORY_ITEM_NOT_FOUND', `No inventory item ${id}`, { inventoryItemId: id });
      return { product, variant };
    };
    app.get('/stores/v3/inventory-items/:id', { schema: { params: IdParams, response: { 200: W.V3InventoryItemResponse } }, config: { access: 'staff' } }, async (req) => {
      const { product, variant } = await inventoryItem(req.ctx, req.params.id);
      return { inventoryItem: toV3InventoryItem(product, variant) };
    });
    const updateInventoryItem = async (ctx: RequestContext, id: string, input: { trackQuantity?: boolean | null; quantity?: number | null; inStock?: boolean | null }) => {
      const { product, variant } = await inventoryItem(ctx, id);
      const updated = await catalog.updateInventory(ctx, product.id, {
        ...(input.trackQuantity !== undefined && input.trackQuantity !== null && { trackQuantity: input.trackQuantity }),
        variants: [{
          variantId: variant.id,
          ...(input.quantity !== undefined && input.quantity !== null && { quantity: input.quantity }),
          ...(input.inStock !== undefined && input.inStock !== null && { inStock: input.inStock }),
        }],
      });
      const after = updated.variants.find((v) => v.id === variant.id) ?? variant;
      return toV3InventoryItem(updated, after);
    };
    app.patch('/stores/v3/inventory-items/:id', { schema: { params: IdParams, body: InventoryItemBody, response: { 200: W.V3InventoryItemResponse } }, config: { access: 'staff' } }, async (req) =>
      ({ inventoryItem: await updateInventoryItem(req.ctx, req.params.id, req.body.inventoryItem) }));
    app.post('/stores/v3/bulk/inventory-items/update', {
      schema: { body: Type.Object({ inventoryItems: Type.Array(Type.Object({ inventoryItem: InventoryItemInput }), { minItems: 1, maxItems: 100 }), returnEntity: Type.Optional(Type.Boolean()) }), response: { 200: W.V3BulkInventoryResponse } },
      config: { access: 'staff' },
    }, async (req) => {
      const results = [];
      for (const [i, { inventoryItem: input }] of req.body.inventoryItems.entries()) {
        try {
          const item = await updateInventoryItem(req.ctx, input.id ?? '', input);
          results.push({ itemMetadata: { id: item.id, originalIndex: i, success: true }, ...(req.body.returnEntity && { item }) });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ itemMetadata: { id: input.id ?? undefined, originalIndex: i, success: false, error: { code: error.code, description: error.message } } });
        }
      }
      const failures = results.filter((r) => !r.itemMetadata.success).length;
      return { results, bulkActionMetadata: { totalSuccesses: results.length - failures, totalFailures: failures, undetailedFailures: 0 } };
    });
    const queryInventory = async (ctx: RequestContext, query: { filter?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined) => {
      const state = pageState(query);
      const { productFilter, variantIds, itemIds } = inventoryFilter(state.filter);
      const products = await allProducts(ctx, productFilter, VARIANT_SCAN);
      const all = products.flatMap((p) => p.variants.map((v) => toV3InventoryItem(p, v)))
        .filter((item) => (!variantIds || variantIds.includes(item.variantId)) && (!itemIds || itemIds.includes(item.id)));
      const page = all.slice(state.offset, state.offset + state.limit);
      return { inventoryItems: page, pagingMetadata: pagingMetadata(state, page.length, all.length) };
    };
    app.get('/stores/v3/inventory-items/query', { schema: { querystring: QueryRequest, response: { 200: W.V3InventoryItemsPage } }, config: { access: 'staff' } }, async (req) => queryInventory(req.ctx, req.query.query));
    app.post('/stores/v3/inventory-items/query', { schema: { body: QueryRequest, response: { 200: W.V3InventoryItemsPage } }, config: { access: 'staff' } }, async (req) => queryInventory(req.ctx, req.body.query));
    app.get('/stores/v3/inventory-items/search', { schema: { querystring: SearchRequest, response: { 200: W.V3InventoryItemsPage } }, config: { access: 'staff' } }, async (req) => queryInventory(req.ctx, req.query.search));
    app.post('/stores/v3/inventory-items/search', { schema: { body: SearchRequest, response: { 200: W.V3InventoryItemsPage } }, config: { access: 'staff' } }, async (req) => queryInventory(req.ctx, req.body.search));

    // Ribbons, brands and customizations: read from the products that carry them. Creating one
    // names it (ids follow names); it lists once a product carries it. --------------------------
    const labelKinds = [['ribbon', 'ribbons', 'ribbonName'], ['brand', 'brands', 'brandName']] as const;
    for (const [kind, plural, nameKey] of labelKinds) {
      const answers = W.labelSchemas(kind, plural);
      const list = async (ctx: RequestContext) => (await catalog.productLabels(ctx, kind)).map((l) => toV3Label(kind, l));
      const query = async (ctx: RequestContext, q: { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined) => {
        const state = pageState(q);
        const all = filterByIdAndName(await list(ctx), state.filter);
        const page = all.slice(state.offset, state.offset + state.limit);
        return { [plural]: page, pagingMetadata: pagingMetadata(state, page.length, all.length) };
      };
      const named = async (ctx: RequestContext, name: string) => (await list(ctx)).find((l) => l.name === name) ?? toV3Label(kind, { name, count: 0 });
      app.get(`/stores/v3/${plural}/query`, { schema: { querystring: QueryRequest, response: { 200: answers.page } }, config: { access: 'shop' } }, async (req) => query(req.ctx, req.query.query));
      app.post(`/stores/v3/${plural}/query`, { schema: { body: QueryRequest, response: { 200: answers.page } }, config: { access: 'shop' } }, async (req) => query(req.ctx, req.body.query));
      app.post(`/stores/v3/${plural}/count`, { schema: { body: CountRequest, response: { 200: W.CountResponse } }, config: { access: 'shop' } }, async (req) => ({ count: filterByIdAndName(await list(req.ctx), req.body.filter).length }));
      app.get(`/stores/v3/${plural}/:id`, { schema: { params: IdParams, response: { 200: answers.one } }, config: { access: 'shop' } }, async (req) => {
        const found = (await list(req.ctx)).find((l) => l.id === req.params.id);
        if (!found) throw ApiError.notFound(`${kind.toUpperCase()}_NOT_FOUND`, `No ${kind} ${req.params.id}`, { id: req.params.id });
        return { [kind]: found };
      });
      app.post(`/stores/v3/${plural}`, { schema: { body: Type.Object({ [kind]: Type.Object({ name: Type.String({ minLength: 1, maxLength: kind === 'ribbon' ? 30 : 50 }) }) }), response: { 200: answers.one } }, config: { access: 'staff' } }, async (req) => {
        const body: Record<string, { name: string } | undefined> = req.body;
        return { [kind]: await named(req.ctx, body[kind]?.name ?? '') };
      });
      app.post(`/stores/v3/${plural}/get-or-create`, { schema: { body: Type.Object({ [nameKey]: Type.String({ minLength: 1, maxLength: kind === 'ribbon' ? 30 : 50 }) }), response: { 200: answers.one } }, config: { access: 'staff' } }, async (req) => {
        const body: Record<string, string | undefined> = req.body;
        return { [kind]: await named(req.ctx, body[nameKey] ?? '') };
      });
    }
    const customizations = async (ctx: RequestContext) => toV3Customizations(await allProducts(ctx, undefined, VARIANT_SCAN));
    const queryCustomizations = async (ctx: RequestContext, q: { filter?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined) => {
      const state = pageState(q);
      const all = filterByIdAndName(await customizations(ctx), state.filter);
      const page = all.slice(state.offset, state.offset + state.limit);
      return { customizations: page, pagingMetadata: pagingMetadata(state, page.length, all.length) };
    };
    app.get('/stores/v3/customizations/query', { schema: { querystring: QueryRequest, response: { 200: W.V3CustomizationsPage } }, config: { access: 'shop' } }, async (req) => queryCustomizations(req.ctx, req.query.query));
    app.post('/stores/v3/customizations/query', { schema: { body: QueryRequest, response: { 200: W.V3CustomizationsPage } }, config: { access: 'shop' } }, async (req) => queryCustomizations(req.ctx, req.body.query));
    app.post('/stores/v3/customizations/count', { schema: { body: CountRequest, response: { 200: W.CountResponse } }, config: { access: 'shop' } }, async (req) => ({ count: filterByIdAndName(await customizations(req.ctx), req.body.filter).length }));
    app.get('/stores/v3/customizations/:id', { schema: { params: IdParams, response: { 200: W.V3CustomizationResponse } }, config: { access: 'shop' } }, async (req) => {
      const found = (await customizations(req.ctx)).find((c) => c.id === req.params.id);
      if (!found) throw ApiError.notFound('CUSTOMIZATION_NOT_FOUND', `No customization ${req.params.id}`, { id: req.params.id });
      return { customization: found };
    });

    // Categories (@wix/categories, the @wix/stores tree): the catalog's collections -------------------
    app.post('/categories/v1/categories', { schema: { body: CategoryBody, response: { 200: W.V3CategoryResponse } }, config: { access: 'staff' } }, async (req) => {
      checkTree(req.body.treeReference);
      const c = req.body.category;
      const created = await catalog.createCollection(req.ctx, {
        ...(c.name ? { name: c.name } : {}), ...(c.slug ? { slug: c.slug } : {}),
        ...(c.description !== undefined && { description: c.description }), ...(c.visible !== undefined && c.visible !== null && { visible: c.visible }),
      });
      return { category: toV3Category(created, publicUrl) };
    });
    app.patch('/categories/v1/categories/:id', { schema: { params: IdParams, body: CategoryBody, response: { 200: W.V3CategoryResponse } }, config: { access: 'staff' } }, async (req) => {
      checkTree(req.body.treeReference);
      const c = req.body.category;
      const updated = await catalog.updateCollection(req.ctx, req.params.id, {
        ...(c.name ? { name: c.name } : {}), ...(c.slug ? { slug: c.slug } : {}),
        ...(c.description !== undefined && { description: c.description }), ...(c.visible !== undefined && c.visible !== null && { visible: c.visible }),
      });
      return { category: toV3Category(updated, publicUrl) };
    });
    app.delete('/categories/v1/categories/:id', { schema: { params: IdParams, querystring: TreeQuery, response: { 200: W.DeletedResponse } }, config: { access: 'staff' } }, async (req) => {
      checkTree(req.query.treeReference);
      await catalog.deleteCollection(req.ctx, req.params.id);
      return {};
    });
    const queryCategories = async (ctx: RequestContext, query: { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | null; cursor?: string | null } | null } | undefined) => {
      const state = pageState(query);
      const filter = categoryFilter(state.filter);
      const page = await catalog.queryCollections(ctx, { filter, sort: state.sort, paging: { limit: state.limit, offset: state.offset } });
      return { categories: page.items.map((c) => toV3Category(c, publicUrl)), pagingMetadata: pagingMetadata(state, page.items.length, page.total) };
    };
    app.post('/categories/v1/categories/query', { schema: { body: CategoryQueryBody, response: { 200: W.V3CategoriesPage } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.body.treeReference);
      return queryCategories(req.ctx, req.body.query);
    });
    app.post('/categories/v1/categories/search', { schema: { body: CategorySearchBody, response: { 200: W.V3CategoriesPage } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.body.treeReference);
      return queryCategories(req.ctx, req.body.search);
    });
    app.post('/categories/v1/categories/count', { schema: { body: Type.Object({ filter: Type.Optional(Type.Unknown()), treeReference: Type.Optional(TreeReference) }), response: { 200: W.CountResponse } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.body.treeReference);
      const page = await catalog.queryCollections(req.ctx, { filter: categoryFilter(req.body.filter), paging: { limit: 1 } });
      return { count: page.total };
    });
    app.get('/categories/v1/categories/slug/:slug', { schema: { params: SlugParams, querystring: TreeQuery, response: { 200: W.V3CategoryResponse } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.query.treeReference);
      return { category: toV3Category(await catalog.getCollection(req.ctx, { slug: req.params.slug }), publicUrl) };
    });
    const categoriesForItem = async (ctx: RequestContext, input: { item?: { catalogItemId: string; appId: string }; treeReference?: { appNamespace?: string } }) => {
      checkTree(input.treeReference);
      const ref = input.item;
      if (!ref || !isStoresAppId(ref.appId)) throw ApiError.validation([{ field: 'item', rule: 'REQUIRED_FIELD', description: 'an item of the Stores catalog is required' }]);
      const product = await catalog.getProduct(ctx, ref.catalogItemId);
      return { directCategoryIds: product.collectionIds, allCategoryIds: product.collectionIds };
    };
    app.get('/categories/v1/categories/list-categories-for-item', { schema: { querystring: ItemCategoriesQuery, response: { 200: W.ItemCategories } }, config: { access: 'shop' } }, async (req) => categoriesForItem(req.ctx, req.query));
    app.post('/categories/v1/categories/list-categories-for-item', { schema: { body: ItemCategoriesQuery, response: { 200: W.ItemCategories } }, config: { access: 'shop' } }, async (req) => categoriesForItem(req.ctx, req.body));
    app.get('/categories/v1/categories/:id', { schema: { params: IdParams, querystring: TreeQuery, response: { 200: W.V3CategoryResponse } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.query.treeReference);
      return { category: toV3Category(await catalog.getCollection(req.ctx, { id: req.params.id }), publicUrl) };
    });
    const itemsResult = (items: { catalogItemId: string; appId: string }[]) => ({
      results: items.map((item, i) => ({ itemMetadata: { id: item.catalogItemId, originalIndex: i, success: true } })),
      bulkActionMetadata: { totalSuccesses: items.length, totalFailures: 0, undetailedFailures: 0 },
    });
    const storesItems = (items: { catalogItemId: string; appId: string }[]) => {
      const other = items.findIndex((item) => !isStoresAppId(item.appId));
      if (other >= 0) throw new ApiError(400, 'CATALOG_APP_NOT_SUPPORTED', `items[${other}]: only Stores products are kept in this tree`, { index: other });
      return items.map((item) => item.catalogItemId);
    };
    app.post('/categories/v1/bulk/categories/:id/add-items', { schema: { params: IdParams, body: CategoryItemsBody, response: { 200: W.V3BulkResponse } }, config: { access: 'staff' } }, async (req) => {
      checkTree(req.body.treeReference);
      await catalog.addProductsToCollection(req.ctx, req.params.id, storesItems(req.body.items));
      return itemsResult(req.body.items);
    });
    app.post('/categories/v1/bulk/categories/:id/remove-items', { schema: { params: IdParams, body: CategoryItemsBody, response: { 200: W.V3BulkResponse } }, config: { access: 'staff' } }, async (req) => {
      checkTree(req.body.treeReference);
      await catalog.removeProductsFromCollection(req.ctx, req.params.id, storesItems(req.body.items));
      return itemsResult(req.body.items);
    });
    app.get('/categories/v1/categories/:id/list-items', { schema: { params: IdParams, querystring: ListItemsQuery, response: { 200: W.CategoryItemsPage } }, config: { access: 'shop' } }, async (req) => {
      checkTree(req.query.treeReference);
      await catalog.getCollection(req.ctx, { id: req.params.id });
      const state = pageState({ filter: { collectionIds: { $hasSome: [req.params.id] } }, cursorPaging: req.query.cursorPaging });
      const page = await catalog.queryProducts(req.ctx, { filter: state.filter, paging: { limit: state.limit, offset: state.offset } });
      return { items: page.items.map((p) => ({ catalogItemId: p.id, appId: STORES_APP_ID })), pagingMetadata: pagingMetadata(state, page.items.length, page.total) };
    });
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(condition: unknown, field: string): string[] {
  const raw = isObject(condition) ? (condition.$in ?? condition.$eq ?? condition.$hasSome) : condition;
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.every((x): x is string => typeof x === 'string')) throw new ApiError(400, 'INVALID_QUERY', `${field} takes $eq or $in with ids`);
  return list;
}

/** A read-only-variant filter: product fields narrow the products, ids the variants. */
function variantFilter(filter: unknown): { productFilter: unknown; variantIds?: string[] } {
  if (filter === undefined || filter === null) return { productFilter: undefined };
  if (!isObject(filter)) throw new ApiError(400, 'INVALID_QUERY', 'A filter must be an object');
  const productFilter: Record<string, unknown> = {};
  let variantIds: string[] | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'productData.productId') productFilter.id = { $in: listOf(value, key) };
    else if (key === 'productData.visible') productFilter.visible = value;
    else if (key === 'productData.slug') productFilter.slug = value;
    else if (key === 'id' || key === '_id' || key === 'variantId') variantIds = listOf(value, key);
    else throw new ApiError(400, 'INVALID_QUERY', `"${key}" cannot be filtered on`);
  }
  return { productFilter, ...(variantIds && { variantIds }) };
}

function inventoryFilter(filter: unknown): { productFilter: unknown; variantIds?: string[]; itemIds?: string[] } {
  if (filter === undefined || filter === null) return { productFilter: undefined };
  if (!isObject(filter)) throw new ApiError(400, 'INVALID_QUERY', 'A filter must be an object');
  const productFilter: Record<string, unknown> = {};
  let variantIds: string[] | undefined;
  let itemIds: string[] | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'productId') productFilter.id = { $in: listOf(value, key) };
    else if (key === 'variantId') variantIds = listOf(value, key);
    else if (key === 'id' || key === '_id') {
      itemIds = listOf(value, key);
      productFilter.id = { $in: itemIds.map((id) => parseInventoryItemId(id)?.productId ?? id) };
    } else throw new ApiError(400, 'INVALID_QUERY', `"${key}" cannot be filtered on`);
  }
  return { productFilter, ...(variantIds && { variantIds }), ...(itemIds && { itemIds }) };
}

/** Category fields the collections know; `parentCategory.id` is the root (no nesting here). */
function categoryFilter(filter: unknown): unknown {
  if (filter === undefined || filter === null) return undefined;
  if (!isObject(filter)) throw new ApiError(400, 'INVALID_QUERY', 'A filter must be an object');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '_id') out.id = value;
    else if (key === 'parentCategory.id') continue;
    else out[key] = value;
  }
  return out;
}
