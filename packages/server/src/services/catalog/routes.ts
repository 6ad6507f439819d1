import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { COLLECTION_LIMITS, PRODUCT_LIMITS as L } from '../../platform/field-limits.js';
import { type RequestContext } from '../../platform/caller.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import type { PageBase } from '../../platform/page-base.js';
import { DEMO_MEDIA } from './demo.js';
import { DEFAULT_LOW_STOCK, isShopper, type CatalogService, type PageQuery } from './service.js';
import {
  DEFAULT_MEDIA_SIZE,
  fromWireProduct,
  isMediaUrl,
  MEDIA_URL_RULE,
  fromWireVariant,
  toWireCollection,
  toWireMediaItem,
  toWireProduct,
  toWireVariant,
  numberFromMinor,
  type WireOptions,
} from './wire.js';
import { discountedPrice, stockOf, variantPrice, variantSku, variantWeight } from './products.js';
import { formattedAmount } from '../../platform/money.js';
import {
  CollectionResponse, Empty, SelectedVariant, OptionsAvailabilityResponse, ProductResponse, ProductsPage, QueryCollectionsResponse, QueryCollectionsV1Response,
  QueryProductsV1Response, QueryVariantsResponse, VariantsResponse,
} from './wire-schemas.js';

/** Stores v1 writes at www.wixapis.com and at a custom host. */
const WRITE_PREFIXES = ['/stores/v1', '/_api/catalog-server/v1'];
/** Stores v1 reads at www.wixapis.com and at a custom host. */
const READ_PREFIXES = ['/stores-reader/v1', '/_api/catalog-reader-server/v1'];

const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParams = Type.Object({ id: Id });
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });

const Media = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  title: Type.Optional(Type.String({ maxLength: 200 })),
  altText: Type.Optional(Type.Union([Type.String({ maxLength: L.altText }), Type.Null()])),
  image: Type.Optional(Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    width: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
    height: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
    altText: Type.Optional(Type.Union([Type.String({ maxLength: L.altText }), Type.Null()])),
  })),
});

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
const Choices = Type.Record(Type.String({ maxLength: L.optionName }), Type.String({ maxLength: L.choice }));

const VariantInput = Type.Object({
  choices: Type.Optional(Choices),
  variantIds: Type.Optional(Type.Array(Id, { maxItems: L.variants })),
  price: Type.Optional(NullableNumber),
  weight: Type.Optional(NullableNumber),
  sku: Type.Optional(NullableString(L.sku)),
  visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  variant: Type.Optional(Type.Object({
    priceData: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber) })),
    weight: Type.Optional(NullableNumber),
    sku: Type.Optional(NullableString(L.sku)),
    visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  })),
  stock: Type.Optional(Type.Object({
    quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    inStock: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    trackQuantity: Type.Optional(Type.Boolean()),
  })),
});

const ProductInput = Type.Object({
  name: Type.Optional(NullableString(L.name)),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  productType: Type.Optional(Type.String({ maxLength: 40 })),
  description: Type.Optional(NullableString(L.description)),
  sku: Type.Optional(NullableString(L.sku)),
  weight: Type.Optional(NullableNumber),
  priceData: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber), currency: Type.Optional(Type.String({ maxLength: 3 })) })),
  price: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber) })),
  discount: Type.Optional(Type.Object({ type: Type.Optional(Type.String({ maxLength: 20 })), value: Type.Optional(Type.Number()) })),
  stock: Type.Optional(Type.Object({
    trackInventory: Type.Optional(Type.Boolean()),
    quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: L.quantity }), Type.Null()])),
    inStock: Type.Optional(Type.Boolean()),
    inventoryStatus: Type.Optional(Type.String({ maxLength: 40 })),
  })),
  manageVariants: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  productOptions: Type.Optional(Type.Array(Type.Object({
    optionType: Type.Optional(Type.String({ maxLength: 40 })),
    name: Type.Optional(Type.String({ maxLength: L.optionName })),
    choices: Type.Optional(Type.Array(Type.Object({
      value: Type.Optional(Type.String({ maxLength: L.choice })),
      description: Type.Optional(Type.String({ maxLength: L.choice })),
      inStock: Type.Optional(Type.Boolean()),
      visible: Type.Optional(Type.Boolean()),
    }), { maxItems: L.choicesPerOption })),
  }), { maxItems: L.options })),
  ribbon: Type.Optional(NullableString(L.ribbon)),
  ribbons: Type.Optional(Type.Array(Type.Object({ text: Type.Optional(Type.String({ maxLength: L.ribbon })) }), { maxItems: 1 })),
  brand: Type.Optional(NullableString(50)),
  additionalInfoSections: Type.Optional(Type.Array(Type.Object({
    title: Type.Optional(Type.String({ maxLength: 50 })),
    description: Type.Optional(Type.String({ maxLength: 16000 })),
  }), { maxItems: 20 })),
  customTextFields: Type.Optional(Type.Array(Type.Object({
    title: Type.Optional(Type.String({ maxLength: 100 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    mandatory: Type.Optional(Type.Boolean()),
  }), { maxItems: 2 })),
  media: Type.Optional(Type.Object({ items: Type.Optional(Type.Array(Media, { maxItems: 50 })), mainMedia: Type.Optional(Media) })),
  variants: Type.Optional(Type.Array(VariantInput, { maxItems: L.variants })),
});

const ProductBody = Type.Object({ product: ProductInput });
const VariantsBody = Type.Object({ variants: Type.Array(VariantInput, { maxItems: L.variants }) });
const MediaBody = Type.Object({
  media: Type.Array(Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    mediaId: Type.Optional(Type.String({ maxLength: 200 })),
    choice: Type.Optional(Type.Object({ option: Type.Optional(Type.String()), choice: Type.Optional(Type.String()) })),
  }), { minItems: 1, maxItems: 50 }),
});
const ChoiceMediaBody = Type.Object({
  media: Type.Array(Type.Object({
    option: Type.String({ minLength: 1, maxLength: 50 }),
    choice: Type.String({ minLength: 1, maxLength: 50 }),
    mediaIds: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  }), { minItems: 1, maxItems: 10 }),
});
const MediaIdsBody = Type.Object({ mediaIds: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })) });
const ProductIdsBody = Type.Object({ productIds: Type.Array(Id, { minItems: 1, maxItems: 1000 }) });
const CollectionInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: COLLECTION_LIMITS.name })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' })),
  description: Type.Optional(NullableString(COLLECTION_LIMITS.description)),
  visible: Type.Optional(Type.Boolean()),
  media: Type.Optional(Type.Object({ mainMedia: Type.Optional(Media) })),
});
const CollectionBody = Type.Object({ collection: CollectionInput });
const AvailabilityBody = Type.Object({ options: Type.Optional(Choices) });
const Paging = Type.Object({
  limit: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  offset: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
const VariantsQueryBody = Type.Object({
  choices: Type.Optional(Choices),
  variantIds: Type.Optional(Type.Array(Id, { maxItems: L.variants })),
  paging: Type.Optional(Paging),
  includeMerchantSpecificData: Type.Optional(Type.Boolean()),
});
const QueryBody = Type.Object({
  query: Type.Optional(Type.Object({
    filter: Type.Optional(Type.Unknown()),
    sort: Type.Optional(Type.Unknown()),
    paging: Type.Optional(Paging),
  })),
  includeVariants: Type.Optional(Type.Boolean()),
  includeHiddenProducts: Type.Optional(Type.Boolean()),
});
/** Bodega's product query for the back office: the wire's query, plus a stock filter. */
const BACK_OFFICE_QUERY_PATH = '/bodega/v1/products/query';
const BackOfficeQueryBody = Type.Object({
  query: Type.Optional(Type.Object({
    filter: Type.Optional(Type.Unknown()),
    sort: Type.Optional(Type.Unknown()),
    paging: Type.Optional(Paging),
  })),
  stock: Type.Optional(Type.Union([Type.Literal('IN_STOCK'), Type.Literal('OUT_OF_STOCK'), Type.Literal('LOW_STOCK')], {
    description: 'IN_STOCK / OUT_OF_STOCK: stock.inStock as the product shows it; LOW_STOCK: tracked products with at most lowStockAtMost units (the lowest variant when variants are managed)',
  })),
  lowStockAtMost: Type.Optional(Type.Integer({ minimum: 0, maximum: L.quantity, default: DEFAULT_LOW_STOCK })),
  text: Type.Optional(Type.String({ maxLength: 200, description: 'Free text through the catalog search (name, SKU, options, collections, brand, description; typos too); ranked by relevance unless the query sorts' })),
}, { additionalProperties: false });
/** A GET query, decoded from `.r` or dotted keys; readQuery checks its shape. */
const GetQuery = Type.Object({ query: Type.Optional(Type.Unknown()) });

const InventoryBody = Type.Object({
  inventoryItem: Type.Object({
    productId: Type.Optional(Id),
    trackQuantity: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    variants: Type.Optional(Type.Array(Type.Object({
      variantId: Id,
      inStock: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: L.quantity }), Type.Null()])),
    }), { maxItems: L.variants })),
  }),
});

/** A GET query arrives decoded from `.r` or dotted keys; it must still be an object. */
function readQuery(value: unknown): PageQuery {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.validation([{ field: 'query', rule: 'VALIDATION', description: 'must be an object' }]);
  }
  return value;
}

function collectionMedia(input: Static<typeof CollectionInput>['media']) {
  if (input === undefined) return undefined;
  const main = input.mainMedia;
  const url = main?.image?.url ?? main?.url;
  if (!url) return null;
  if (!isMediaUrl(url)) {
    throw ApiError.validation([{ field: 'collection.media.mainMedia.image.url', rule: 'FORMAT', description: MEDIA_URL_RULE }]);
  }
  return { url, width: main?.image?.width ?? DEFAULT_MEDIA_SIZE, height: main?.image?.height ?? DEFAULT_MEDIA_SIZE };
}

export function catalogRoutes(catalog: CatalogService, publicUrl: string, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = async (ctx: RequestContext): Promise<WireOptions> => ({
      currency: await catalog.currency(ctx.siteId),
      publicUrl: await pageBase(ctx),
      merchant: !isShopper(ctx),
    });
    const wireProduct = async (ctx: RequestContext, id: string) => ({ product: toWireProduct(await catalog.getProduct(ctx, id), await options(ctx)) });

    for (const prefix of WRITE_PREFIXES) {
      app.route({
        method: 'POST', url: prefix + '/products', config: { access: 'staff' }, schema: { body: ProductBody, response: { 200: ProductResponse } },
        handler: async (req) => {
          const o = await options(req.ctx);
          const patch = fromWireProduct(req.body.product, o.currency);
          return { product: toWireProduct(await catalog.createProduct(req.ctx, patch), o) };
        },
      });
      app.route({
        method: 'PATCH', url: prefix + '/products/:id', config: { access: 'staff' }, schema: { body: ProductBody, params: IdParams, response: { 200: ProductResponse } },
        handler: async (req) => {
          const o = await options(req.ctx);
          const patch = fromWireProduct(req.body.product, o.currency);
          return { product: toWireProduct(await catalog.updateProduct(req.ctx, req.params.id, patch), o) };
        },
      });
      app.route({
        method: 'DELETE', url: prefix + '/products/:id', config: { access: 'staff' }, schema: { params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.deleteProduct(req.ctx, req.params.id);
          return {};
        },
      });
      app.route({
        method: 'PATCH', url: prefix + '/products/:id/variants', config: { access: 'staff' }, schema: { body: VariantsBody, params: IdParams, response: { 200: VariantsResponse } },
        handler: async (req) => {
          const o = await options(req.ctx);
          const violations: FieldViolation[] = [];
          const patches = req.body.variants.map((v, i) => fromWireVariant(v, o.currency, `variants[${i}]`, violations));
          if (violations.length) throw ApiError.validation(violations);
          const product = await catalog.updateVariants(req.ctx, req.params.id, patches);
          return { variants: product.variants.map((v) => toWireVariant(product, v, o)) };
        },
      });
      app.route({
        method: 'POST', url: prefix + '/products/:id/variants/resetToDefault', config: { access: 'staff' }, schema: { params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.resetVariants(req.ctx, req.params.id);
          return {};
        },
      });
      app.route({
        method: 'POST', url: prefix + '/products/:id/media', config: { access: 'staff' }, schema: { body: MediaBody, params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          const media = req.body.media.map((m, i) => {
            if (!m.url || !/^(https?:\/\/|\/media\/)/.test(m.url)) {
              throw ApiError.validation([{ field: `media[${i}].url`, rule: 'FORMAT', description: 'media is added by http(s) URL' }]);
            }
            return { url: m.url, width: 1000, height: 1000, title: '' };
          });
          await catalog.addMedia(req.ctx, req.params.id, media);
          return {};
        },
      });
      app.route({
        method: 'POST', url: prefix + '/products/:id/media/delete', config: { access: 'staff' }, schema: { body: MediaIdsBody, params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.removeMedia(req.ctx, req.params.id, req.body.mediaIds);
          return {};
        },
      });
      // A choice's pictures (Wix: addProductMediaToChoices, removeProductMediaFromChoices).
      for (const [method, path, add] of [['PATCH', '/choices/media', true], ['POST', '/choices/media/delete', false]] as const) {
        app.route({
          method, url: `${prefix}/products/:id${path}`, config: { access: 'staff' }, schema: { body: ChoiceMediaBody, params: IdParams, response: { 200: Empty } },
          handler: async (req) => {
            await catalog.choiceMedia(req.ctx, req.params.id, req.body.media.map((m) => ({ option: m.option, choice: m.choice, mediaIds: m.mediaIds ?? [] })), add);
            return {};
          },
        });
      }
      // Three calls that each empty one field of a product.
      for (const [method, path, field] of [['DELETE', '/products/:id/options', 'options'], ['POST', '/products/:id/remove-ribbon', 'ribbon'], ['POST', '/products/:id/remove-brand', 'brand']] as const) {
        app.route({
          method, url: prefix + path, config: { access: 'staff' }, schema: { params: IdParams, response: { 200: Empty } },
          handler: async (req) => {
            await catalog.clearField(req.ctx, req.params.id, field);
            return {};
          },
        });
      }
      app.route({
        method: 'POST', url: prefix + '/collections', config: { access: 'staff' }, schema: { body: CollectionBody, response: { 200: CollectionResponse } },
        handler: async (req) => {
          const input = req.body.collection;
          const collection = await catalog.createCollection(req.ctx, { ...input, media: collectionMedia(input.media) });
          return { collection: toWireCollection(collection, publicUrl) };
        },
      });
      app.route({
        method: 'PATCH', url: prefix + '/collections/:id', config: { access: 'staff' }, schema: { body: CollectionBody, params: IdParams, response: { 200: CollectionResponse } },
        handler: async (req) => {
          const input = req.body.collection;
          const collection = await catalog.updateCollection(req.ctx, req.params.id, { ...input, media: collectionMedia(input.media) });
          return { collection: toWireCollection(collection, publicUrl) };
        },
      });
      app.route({
        method: 'DELETE', url: prefix + '/collections/:id', config: { access: 'staff' }, schema: { params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.deleteCollection(req.ctx, req.params.id);
          return {};
        },
      });
      app.route({
        method: 'POST', url: prefix + '/collections/:id/productIds', config: { access: 'staff' }, schema: { body: ProductIdsBody, params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.addProductsToCollection(req.ctx, req.params.id, req.body.productIds);
          return {};
        },
      });
      app.route({
        method: 'POST', url: prefix + '/collections/:id/productIds/delete', config: { access: 'staff' }, schema: { body: ProductIdsBody, params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          await catalog.removeProductsFromCollection(req.ctx, req.params.id, req.body.productIds);
          return {};
        },
      });
    }

    // The GET form carries the query decoded from the URL, the POST form in the body.
    const queryPlatformized = async (ctx: RequestContext, source: { query?: unknown } | undefined) => {
      const page = await catalog.queryProducts(ctx, readQuery(source?.query));
      const o = await options(ctx);
      return { products: page.items.map((p) => toWireProduct(p, o)), metadata: { count: page.items.length, offset: page.offset, total: page.total } };
    };

    app.route({
      // Hidden products included; the answer is query-platformized's (products, metadata.total).
      method: 'POST', url: BACK_OFFICE_QUERY_PATH, config: { access: 'staff' },
      schema: { tags: ['back office'], summary: 'Products for the back office: the Stores v1 query (filter, sort, paging) plus a stock filter', body: BackOfficeQueryBody, response: { 200: ProductsPage } },
      handler: async (req) => {
        const { stock, lowStockAtMost, text } = req.body;
        const page = await catalog.queryProducts(req.ctx, readQuery(req.body.query), stock ? { status: stock, lowStockAtMost } : undefined, text);
        const o = await options(req.ctx);
        return { products: page.items.map((p) => toWireProduct(p, o)), metadata: { count: page.items.length, offset: page.offset, total: page.total } };
      },
    });

    for (const prefix of READ_PREFIXES) {
      app.route({ method: 'GET', url: prefix + '/products/query-platformized', config: { access: 'shop' }, schema: { querystring: GetQuery, response: { 200: ProductsPage } }, handler: async (req) => queryPlatformized(req.ctx, req.query) });
      app.route({ method: 'POST', url: prefix + '/products/query-platformized', config: { access: 'shop' }, schema: { body: QueryBody, response: { 200: ProductsPage } }, handler: async (req) => queryPlatformized(req.ctx, req.body) });
      app.route({
        // The older query call: same filter, `metadata.items` and `totalResults`.
        method: 'POST', url: prefix + '/products/query', config: { access: 'shop' }, schema: { body: QueryBody, response: { 200: QueryProductsV1Response } },
        handler: async (req) => {
          const page = await catalog.queryProducts(req.ctx, readQuery(req.body.query));
          const o = await options(req.ctx);
          return { products: page.items.map((p) => toWireProduct(p, o)), metadata: { items: page.items.length, offset: page.offset }, totalResults: page.total };
        },
      });
      app.route({ method: 'GET', url: prefix + '/products/:id', config: { access: 'shop' }, schema: { params: IdParams, response: { 200: ProductResponse } }, handler: async (req) => wireProduct(req.ctx, req.params.id) });
      app.route({
        method: 'POST', url: prefix + '/products/:id/productOptionsAvailability', config: { access: 'shop' }, schema: { body: AvailabilityBody, params: IdParams, response: { 200: OptionsAvailabilityResponse } },
        handler: async (req) => {
          const result = await catalog.optionsAvailability(req.ctx, req.params.id, req.body.options ?? {});
          const o = await options(req.ctx);
          const { product, selected } = result;
          let selectedVariant: Static<typeof SelectedVariant> | undefined;
          if (selected) {
            const price = variantPrice(product, selected);
            const discounted = discountedPrice(price, product.discount);
            const level = stockOf(product, selected);
            const sku = variantSku(product, selected);
            const data = {
              currency: o.currency,
              price: numberFromMinor(price, o.currency),
              discountedPrice: numberFromMinor(discounted, o.currency),
              formatted: { price: formattedAmount(price, o.currency), discountedPrice: formattedAmount(discounted, o.currency) },
            };
            selectedVariant = {
              price: data,
              convertedPriceData: data,
              weight: Number(variantWeight(product, selected) ?? '0'),
              ...(sku ? { sku } : {}),
              ...(level.tracked ? { quantity: level.quantity } : {}),
              inStock: level.inStock,
              visible: selected.visible,
            };
          }
          const media = product.media.map((m) => toWireMediaItem(m, publicUrl));
          return {
            ...(selectedVariant && { selectedVariant }),
            media: { ...(media[0] ? { mainMedia: media[0] } : {}), items: media },
            productOptions: result.options.map((opt) => ({ ...opt, choices: opt.choices.filter((c) => !isShopper(req.ctx) || c.visible) })),
            availableForPurchase: product.options.length === 0 ? product.variants.some((v) => stockOf(product, v).inStock) : result.availableForPurchase,
          };
        },
      });
      app.route({
        method: 'POST', url: prefix + '/products/:id/variants/query', config: { access: 'shop' }, schema: { body: VariantsQueryBody, params: IdParams, response: { 200: QueryVariantsResponse } },
        handler: async (req) => {
          const result = await catalog.queryVariants(req.ctx, req.params.id, req.body);
          const o = await options(req.ctx);
          return {
            variants: result.variants.map((v) => toWireVariant(result.product, v, o)),
            metadata: { items: result.variants.length, offset: result.offset },
            totalResults: result.total,
          };
        },
      });
      app.route({
        method: 'GET', url: prefix + '/collections/slug/:slug', config: { access: 'shop' }, schema: { params: SlugParams, response: { 200: CollectionResponse } },
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { slug: req.params.slug }), publicUrl) }),
      });
      app.route({
        method: 'GET', url: prefix + '/collections/:id', config: { access: 'shop' }, schema: { params: IdParams, response: { 200: CollectionResponse } },
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { id: req.params.id }), publicUrl) }),
      });
      app.route({
        method: 'POST', url: prefix + '/collections/query', config: { access: 'shop' }, schema: { body: QueryBody, response: { 200: QueryCollectionsV1Response } },
        handler: async (req) => {
          const page = await catalog.queryCollections(req.ctx, readQuery(req.body.query));
          return { collections: page.items.map((c) => toWireCollection(c, publicUrl)), metadata: { items: page.items.length, offset: page.offset }, totalResults: page.total };
        },
      });
    }

    // @wix/stores `collections` module: /v2/collections… (current generation) and
    // /stores-reader/v2/collections… (the 2024 generation, at www.wixapis.com).
    const queryCollectionsV2 = async (ctx: RequestContext, source: { query?: unknown } | undefined) => {
      const page = await catalog.queryCollections(ctx, readQuery(source?.query));
      return { collections: page.items.map((c) => toWireCollection(c, publicUrl)), metadata: { count: page.items.length, offset: page.offset, total: page.total } };
    };
    for (const prefix of ['/v2', '/stores-reader/v2']) {
      app.route({ method: 'GET', url: prefix + '/collections/query', config: { access: 'shop' }, schema: { querystring: GetQuery, response: { 200: QueryCollectionsResponse } }, handler: async (req) => queryCollectionsV2(req.ctx, req.query) });
      app.route({ method: 'POST', url: prefix + '/collections/query', config: { access: 'shop' }, schema: { body: QueryBody, response: { 200: QueryCollectionsResponse } }, handler: async (req) => queryCollectionsV2(req.ctx, req.body) });
      app.route({
        method: 'GET', url: prefix + '/collections/slug/:slug', config: { access: 'shop' }, schema: { params: SlugParams, response: { 200: CollectionResponse } },
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { slug: req.params.slug }), publicUrl) }),
      });
      app.route({
        method: 'GET', url: prefix + '/collections/:id', config: { access: 'shop' }, schema: { params: IdParams, response: { 200: CollectionResponse } },
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { id: req.params.id }), publicUrl) }),
      });
    }

    // Stores v2 inventory: per-variant stock for managed variants.
    for (const prefix of ['/stores/v2', '/_api/wix-ecommerce-inventory/v2']) {
      app.route({
        method: 'PATCH', url: prefix + '/inventoryItems/product/:id', config: { access: 'staff' }, schema: { body: InventoryBody, params: IdParams, response: { 200: Empty } },
        handler: async (req) => {
          const item = req.body.inventoryItem;
          await catalog.updateInventory(req.ctx, req.params.id, {
            ...(item.trackQuantity !== undefined && item.trackQuantity !== null && { trackQuantity: item.trackQuantity }),
            variants: (item.variants ?? []).map((v) => ({
              variantId: v.variantId,
              ...(v.quantity !== undefined && { quantity: v.quantity }),
              ...(v.inStock !== undefined && v.inStock !== null && { inStock: v.inStock }),
            })),
          });
          return {};
        },
      });
    }

    // Images of the demo catalog, served by this server so the demo needs no outside host.
    app.get('/media/demo/:file', { schema: { params: Type.Object({ file: Type.String({ minLength: 1, maxLength: 200 }) }) } }, async (req, reply) => {
      const { file } = req.params;
      const svg = Object.hasOwn(DEMO_MEDIA, file) ? DEMO_MEDIA[file] : undefined;
      if (!svg) throw ApiError.notFound('MEDIA_NOT_FOUND', `No media ${file}`);
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    });
  };
}
