import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { ALL_CALLERS, BACK_OFFICE, type CallerKind, type RequestContext } from '../../platform/caller.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { DEMO_MEDIA } from './demo.js';
import { isShopper, type CatalogService, type PageQuery } from './service.js';
import {
  fromWireProduct,
  fromWireVariant,
  toWireCollection,
  toWireMediaItem,
  toWireProduct,
  toWireVariant,
  numberFromMinor,
  type WireOptions,
  type WireProductInput,
} from './wire.js';
import { discountedPrice, stockOf, variantPrice, variantSku, variantWeight } from './products.js';
import { formattedAmount } from '../cart/money.js';

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
  altText: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  image: Type.Optional(Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    width: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
    height: Type.Optional(Type.Integer({ minimum: 1, maximum: 20000 })),
    altText: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  })),
});

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
const Choices = Type.Record(Type.String({ maxLength: 50 }), Type.String({ maxLength: 50 }));

const VariantInput = Type.Object({
  choices: Type.Optional(Choices),
  variantIds: Type.Optional(Type.Array(Id, { maxItems: 300 })),
  price: Type.Optional(NullableNumber),
  weight: Type.Optional(NullableNumber),
  sku: Type.Optional(NullableString(40)),
  visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  variant: Type.Optional(Type.Object({
    priceData: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber) })),
    weight: Type.Optional(NullableNumber),
    sku: Type.Optional(NullableString(40)),
    visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  })),
  stock: Type.Optional(Type.Object({
    quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    inStock: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    trackQuantity: Type.Optional(Type.Boolean()),
  })),
});

const ProductInput = Type.Object({
  name: Type.Optional(NullableString(80)),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  visible: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  productType: Type.Optional(Type.String({ maxLength: 40 })),
  description: Type.Optional(NullableString(16000)),
  sku: Type.Optional(NullableString(40)),
  weight: Type.Optional(NullableNumber),
  priceData: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber), currency: Type.Optional(Type.String({ maxLength: 3 })) })),
  price: Type.Optional(Type.Object({ price: Type.Optional(NullableNumber) })),
  discount: Type.Optional(Type.Object({ type: Type.Optional(Type.String({ maxLength: 20 })), value: Type.Optional(Type.Number()) })),
  stock: Type.Optional(Type.Object({
    trackInventory: Type.Optional(Type.Boolean()),
    quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 99_999_999 }), Type.Null()])),
    inStock: Type.Optional(Type.Boolean()),
    inventoryStatus: Type.Optional(Type.String({ maxLength: 40 })),
  })),
  manageVariants: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  productOptions: Type.Optional(Type.Array(Type.Object({
    optionType: Type.Optional(Type.String({ maxLength: 40 })),
    name: Type.Optional(Type.String({ maxLength: 50 })),
    choices: Type.Optional(Type.Array(Type.Object({
      value: Type.Optional(Type.String({ maxLength: 50 })),
      description: Type.Optional(Type.String({ maxLength: 50 })),
      inStock: Type.Optional(Type.Boolean()),
      visible: Type.Optional(Type.Boolean()),
    }), { maxItems: 100 })),
  }), { maxItems: 6 })),
  ribbon: Type.Optional(NullableString(30)),
  ribbons: Type.Optional(Type.Array(Type.Object({ text: Type.Optional(Type.String({ maxLength: 30 })) }), { maxItems: 1 })),
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
  variants: Type.Optional(Type.Array(VariantInput, { maxItems: 300 })),
});

const ProductBody = Type.Object({ product: ProductInput });
const VariantsBody = Type.Object({ variants: Type.Array(VariantInput, { maxItems: 300 }) });
const MediaBody = Type.Object({
  media: Type.Array(Type.Object({
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    mediaId: Type.Optional(Type.String({ maxLength: 200 })),
    choice: Type.Optional(Type.Object({ option: Type.Optional(Type.String()), choice: Type.Optional(Type.String()) })),
  }), { minItems: 1, maxItems: 50 }),
});
const MediaIdsBody = Type.Object({ mediaIds: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })) });
const ProductIdsBody = Type.Object({ productIds: Type.Array(Id, { minItems: 1, maxItems: 1000 }) });
const CollectionInput = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 50 })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' })),
  description: Type.Optional(NullableString(1000)),
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
  variantIds: Type.Optional(Type.Array(Id, { maxItems: 300 })),
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
const InventoryBody = Type.Object({
  inventoryItem: Type.Object({
    productId: Type.Optional(Id),
    trackQuantity: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    variants: Type.Optional(Type.Array(Type.Object({
      variantId: Id,
      inStock: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 99_999_999 }), Type.Null()])),
    }), { maxItems: 300 })),
  }),
});

type Handler = (req: FastifyRequest) => Promise<unknown>;

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  callers: readonly CallerKind[];
  body?: TSchema;
  params?: TSchema;
  handler: Handler;
}

function register(app: FastifyInstance, prefixes: readonly string[], routes: Route[]): void {
  for (const prefix of prefixes) {
    for (const route of routes) {
      app.route({
        method: route.method,
        url: prefix + route.path,
        schema: { ...(route.body && { body: route.body }), ...(route.params && { params: route.params }) },
        config: { callers: route.callers },
        handler: route.handler as RouteHandlerMethod,
      });
    }
  }
}

/** A GET query arrives decoded from `.r` or dotted keys; it must still be an object. */
function readQuery(value: unknown): PageQuery {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.validation([{ field: 'query', rule: 'VALIDATION', description: 'must be an object' }]);
  }
  return value as PageQuery;
}

function collectionMedia(input: Static<typeof CollectionInput>['media']) {
  if (input === undefined) return undefined;
  const main = input.mainMedia;
  const url = main?.image?.url ?? main?.url;
  if (!url) return null;
  if (!/^(https?:\/\/|\/media\/)/.test(url)) {
    throw ApiError.validation([{ field: 'collection.media.mainMedia.image.url', rule: 'FORMAT', description: 'must be an http(s) URL or a /media/ path' }]);
  }
  return { url, width: main?.image?.width ?? 1000, height: main?.image?.height ?? 1000 };
}

export function catalogRoutes(catalog: CatalogService, publicUrl: string) {
  return async (app: FastifyInstance) => {
    const options = async (ctx: RequestContext): Promise<WireOptions> => ({
      currency: await catalog.currency(ctx.siteId),
      publicUrl: publicUrl,
      merchant: !isShopper(ctx),
    });
    const wireProduct = async (ctx: RequestContext, id: string) => ({ product: toWireProduct(await catalog.getProduct(ctx, id), await options(ctx)) });
    const params = (req: FastifyRequest) => req.params as Static<typeof IdParams>;

    register(app, WRITE_PREFIXES, [
      {
        method: 'POST', path: '/products', callers: BACK_OFFICE, body: ProductBody,
        handler: async (req) => {
          const o = await options(req.ctx);
          const patch = fromWireProduct((req.body as Static<typeof ProductBody>).product as WireProductInput, o.currency);
          return { product: toWireProduct(await catalog.createProduct(req.ctx, patch), o) };
        },
      },
      {
        method: 'PATCH', path: '/products/:id', callers: BACK_OFFICE, body: ProductBody, params: IdParams,
        handler: async (req) => {
          const o = await options(req.ctx);
          const patch = fromWireProduct((req.body as Static<typeof ProductBody>).product as WireProductInput, o.currency);
          return { product: toWireProduct(await catalog.updateProduct(req.ctx, params(req).id, patch), o) };
        },
      },
      {
        method: 'DELETE', path: '/products/:id', callers: BACK_OFFICE, params: IdParams,
        handler: async (req) => {
          await catalog.deleteProduct(req.ctx, params(req).id);
          return {};
        },
      },
      {
        method: 'PATCH', path: '/products/:id/variants', callers: BACK_OFFICE, body: VariantsBody, params: IdParams,
        handler: async (req) => {
          const o = await options(req.ctx);
          const violations: FieldViolation[] = [];
          const patches = (req.body as Static<typeof VariantsBody>).variants.map((v, i) => fromWireVariant(v, o.currency, `variants[${i}]`, violations));
          if (violations.length) throw ApiError.validation(violations);
          const product = await catalog.updateVariants(req.ctx, params(req).id, patches);
          return { variants: product.variants.map((v) => toWireVariant(product, v, o)) };
        },
      },
      {
        method: 'POST', path: '/products/:id/variants/resetToDefault', callers: BACK_OFFICE, params: IdParams,
        handler: async (req) => {
          await catalog.resetVariants(req.ctx, params(req).id);
          return {};
        },
      },
      {
        method: 'POST', path: '/products/:id/media', callers: BACK_OFFICE, body: MediaBody, params: IdParams,
        handler: async (req) => {
          const media = (req.body as Static<typeof MediaBody>).media.map((m, i) => {
            if (!m.url || !/^(https?:\/\/|\/media\/)/.test(m.url)) {
              throw ApiError.validation([{ field: `media[${i}].url`, rule: 'FORMAT', description: 'media is added by http(s) URL' }]);
            }
            return { url: m.url, width: 1000, height: 1000, title: '' };
          });
          await catalog.addMedia(req.ctx, params(req).id, media);
          return {};
        },
      },
      {
        method: 'POST', path: '/products/:id/media/delete', callers: BACK_OFFICE, body: MediaIdsBody, params: IdParams,
        handler: async (req) => {
          await catalog.removeMedia(req.ctx, params(req).id, (req.body as Static<typeof MediaIdsBody>).mediaIds);
          return {};
        },
      },
      // Three calls that each empty one field of a product.
      ...([['DELETE', '/products/:id/options', 'options'], ['POST', '/products/:id/remove-ribbon', 'ribbon'], ['POST', '/products/:id/remove-brand', 'brand']] as const)
        .map(([method, path, field]): Route => ({
          method, path, callers: BACK_OFFICE, params: IdParams,
          handler: async (req) => {
            await catalog.clearField(req.ctx, params(req).id, field);
            return {};
          },
        })),
      {
        method: 'POST', path: '/collections', callers: BACK_OFFICE, body: CollectionBody,
        handler: async (req) => {
          const input = (req.body as Static<typeof CollectionBody>).collection;
          const collection = await catalog.createCollection(req.ctx, { ...input, media: collectionMedia(input.media) });
          return { collection: toWireCollection(collection, publicUrl) };
        },
      },
      {
        method: 'PATCH', path: '/collections/:id', callers: BACK_OFFICE, body: CollectionBody, params: IdParams,
        handler: async (req) => {
          const input = (req.body as Static<typeof CollectionBody>).collection;
          const collection = await catalog.updateCollection(req.ctx, params(req).id, { ...input, media: collectionMedia(input.media) });
          return { collection: toWireCollection(collection, publicUrl) };
        },
      },
      {
        method: 'DELETE', path: '/collections/:id', callers: BACK_OFFICE, params: IdParams,
        handler: async (req) => {
          await catalog.deleteCollection(req.ctx, params(req).id);
          return {};
        },
      },
      {
        method: 'POST', path: '/collections/:id/productIds', callers: BACK_OFFICE, body: ProductIdsBody, params: IdParams,
        handler: async (req) => {
          await catalog.addProductsToCollection(req.ctx, params(req).id, (req.body as Static<typeof ProductIdsBody>).productIds);
          return {};
        },
      },
      {
        method: 'POST', path: '/collections/:id/productIds/delete', callers: BACK_OFFICE, body: ProductIdsBody, params: IdParams,
        handler: async (req) => {
          await catalog.removeProductsFromCollection(req.ctx, params(req).id, (req.body as Static<typeof ProductIdsBody>).productIds);
          return {};
        },
      },
    ]);

    const queryPlatformized: Handler = async (req) => {
      const source = req.method === 'GET' ? (req.query as { query?: unknown }) : (req.body as Static<typeof QueryBody>);
      const page = await catalog.queryProducts(req.ctx, readQuery(source.query));
      const o = await options(req.ctx);
      return { products: page.items.map((p) => toWireProduct(p, o)), metadata: { count: page.items.length, offset: page.offset, total: page.total } };
    };

    register(app, READ_PREFIXES, [
      { method: 'GET', path: '/products/query-platformized', callers: ALL_CALLERS, handler: queryPlatformized },
      { method: 'POST', path: '/products/query-platformized', callers: ALL_CALLERS, body: QueryBody, handler: queryPlatformized },
      {
        // The older query call: same filter, `metadata.items` and `totalResults`.
        method: 'POST', path: '/products/query', callers: ALL_CALLERS, body: QueryBody,
        handler: async (req) => {
          const page = await catalog.queryProducts(req.ctx, readQuery((req.body as Static<typeof QueryBody>).query));
          const o = await options(req.ctx);
          return { products: page.items.map((p) => toWireProduct(p, o)), metadata: { items: page.items.length, offset: page.offset }, totalResults: page.total };
        },
      },
      { method: 'GET', path: '/products/:id', callers: ALL_CALLERS, params: IdParams, handler: async (req) => wireProduct(req.ctx, params(req).id) },
      {
        method: 'POST', path: '/products/:id/productOptionsAvailability', callers: ALL_CALLERS, body: AvailabilityBody, params: IdParams,
        handler: async (req) => {
          const result = await catalog.optionsAvailability(req.ctx, params(req).id, (req.body as Static<typeof AvailabilityBody>).options ?? {});
          const o = await options(req.ctx);
          const { product, selected } = result;
          let selectedVariant: Record<string, unknown> | undefined;
          if (selected) {
            const price = variantPrice(product, selected);
            const discounted = discountedPrice(price, product.discount);
            const level = stockOf(product, selected);
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
              ...(variantSku(product, selected) ? { sku: variantSku(product, selected) } : {}),
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
      },
      {
        method: 'POST', path: '/products/:id/variants/query', callers: ALL_CALLERS, body: VariantsQueryBody, params: IdParams,
        handler: async (req) => {
          const result = await catalog.queryVariants(req.ctx, params(req).id, req.body as Static<typeof VariantsQueryBody>);
          const o = await options(req.ctx);
          return {
            variants: result.variants.map((v) => toWireVariant(result.product, v, o)),
            metadata: { items: result.variants.length, offset: result.offset },
            totalResults: result.total,
          };
        },
      },
      {
        method: 'GET', path: '/collections/slug/:slug', callers: ALL_CALLERS, params: SlugParams,
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { slug: (req.params as Static<typeof SlugParams>).slug }), publicUrl) }),
      },
      {
        method: 'GET', path: '/collections/:id', callers: ALL_CALLERS, params: IdParams,
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { id: params(req).id }), publicUrl) }),
      },
      {
        method: 'POST', path: '/collections/query', callers: ALL_CALLERS, body: QueryBody,
        handler: async (req) => {
          const page = await catalog.queryCollections(req.ctx, readQuery((req.body as Static<typeof QueryBody>).query));
          return { collections: page.items.map((c) => toWireCollection(c, publicUrl)), metadata: { items: page.items.length, offset: page.offset }, totalResults: page.total };
        },
      },
    ]);

    // @wix/stores `collections` module: /v2/collections… (current generation) and
    // /stores-reader/v2/collections… (the 2024 generation, at www.wixapis.com).
    const queryCollectionsV2: Handler = async (req) => {
      const source = req.method === 'GET' ? (req.query as { query?: unknown }) : (req.body as Static<typeof QueryBody>);
      const page = await catalog.queryCollections(req.ctx, readQuery(source.query));
      return { collections: page.items.map((c) => toWireCollection(c, publicUrl)), metadata: { count: page.items.length, offset: page.offset, total: page.total } };
    };
    register(app, ['/v2', '/stores-reader/v2'], [
      { method: 'GET', path: '/collections/query', callers: ALL_CALLERS, handler: queryCollectionsV2 },
      { method: 'POST', path: '/collections/query', callers: ALL_CALLERS, body: QueryBody, handler: queryCollectionsV2 },
      {
        method: 'GET', path: '/collections/slug/:slug', callers: ALL_CALLERS, params: SlugParams,
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { slug: (req.params as Static<typeof SlugParams>).slug }), publicUrl) }),
      },
      {
        method: 'GET', path: '/collections/:id', callers: ALL_CALLERS, params: IdParams,
        handler: async (req) => ({ collection: toWireCollection(await catalog.getCollection(req.ctx, { id: params(req).id }), publicUrl) }),
      },
    ]);

    // Stores v2 inventory: per-variant stock for managed variants.
    register(app, ['/stores/v2', '/_api/wix-ecommerce-inventory/v2'], [
      {
        method: 'PATCH', path: '/inventoryItems/product/:id', callers: BACK_OFFICE, body: InventoryBody, params: IdParams,
        handler: async (req) => {
          const item = (req.body as Static<typeof InventoryBody>).inventoryItem;
          await catalog.updateInventory(req.ctx, params(req).id, {
            ...(item.trackQuantity !== undefined && item.trackQuantity !== null && { trackQuantity: item.trackQuantity }),
            variants: (item.variants ?? []).map((v) => ({
              variantId: v.variantId,
              ...(v.quantity !== undefined && { quantity: v.quantity }),
              ...(v.inStock !== undefined && v.inStock !== null && { inStock: v.inStock }),
            })),
          });
          return {};
        },
      },
    ]);

    // Images of the demo catalog, served by this server so the demo needs no outside host.
    app.get('/media/demo/:file', async (req, reply) => {
      const file = (req.params as { file: string }).file;
      const svg = Object.hasOwn(DEMO_MEDIA, file) ? DEMO_MEDIA[file] : undefined;
      if (!svg) throw ApiError.notFound('MEDIA_NOT_FOUND', `No media ${file}`);
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    });
  };
}
