// Bodega's catalog search for storefronts: POST /_api/bodega/v1/catalog/search (results, facets,
// "did you mean") and GET /_api/bodega/v1/catalog/suggest (as one types). Every caller of a site
// may search it; shoppers (visitors, members) find visible products and collections only.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { RequestContext } from '../../platform/caller.js';
import { formatAmount } from '../../platform/money.js';
import { highlightName, SUGGESTIONS, type CatalogSearch, type SearchResult } from './search.js';
import { isShopper, type CatalogService } from './service.js';
import { toWireProduct, type WireOptions } from './wire.js';
import type { Product } from './products.js';
import { Product as WireProduct } from './wire-schemas.js';

export const SEARCH_PATH = '/_api/bodega/v1/catalog/search';
export const SUGGEST_PATH = '/_api/bodega/v1/catalog/suggest';

const Text = Type.String({ maxLength: 200 });
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const Values = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });

const SearchBody = Type.Object({
  text: Type.Optional(Text),
  filters: Type.Optional(Type.Object({
    collectionIds: Type.Optional(Ids),
    options: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 50 }), Values, { maxProperties: 10 })),
    prices: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
    inStock: Type.Optional(Type.Boolean()),
    onSale: Type.Optional(Type.Boolean()),
    brands: Type.Optional(Values),
  }, { additionalProperties: false })),
  sort: Type.Optional(Type.Union([Type.Literal('RELEVANCE'), Type.Literal('PRICE_ASC'), Type.Literal('PRICE_DESC'), Type.Literal('NEWEST'), Type.Literal('NAME')])),
  paging: Type.Optional(Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  })),
}, { additionalProperties: false });

const SuggestQuery = Type.Object({ text: Text });

const Found = Type.Object({
  product: WireProduct,
  /** The name in parts, the ones the search words matched marked. */
  nameHighlight: Type.Array(Type.Object({ text: Type.String(), match: Type.Boolean() })),
});
const Counted = { count: Type.Integer() };
const SearchAnswer = Type.Object({
  items: Type.Array(Found),
  metadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), total: Type.Integer() }),
  facets: Type.Object({
    collections: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Counted })),
    options: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.Object({ value: Type.String(), ...Counted })) })),
    prices: Type.Array(Type.Object({ id: Type.String(), from: Type.String(), to: Type.Union([Type.String(), Type.Null()]), ...Counted })),
    inStock: Type.Integer(),
    onSale: Type.Integer(),
    brands: Type.Array(Type.Object({ name: Type.String(), ...Counted })),
  }),
  didYouMean: Type.Union([Type.String(), Type.Null()]),
}, { title: 'CatalogSearchResponse' });
const SuggestAnswer = Type.Object({
  products: Type.Array(Found),
  collections: Type.Array(Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() })),
  limit: Type.Integer(),
}, { title: 'CatalogSuggestResponse' });

export function catalogSearchRoutes(catalog: CatalogService, search: CatalogSearch, publicUrl: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = async (ctx: RequestContext): Promise<WireOptions> => ({ currency: await catalog.currency(ctx.siteId), publicUrl, merchant: !isShopper(ctx) });
    const item = (product: Product, text: string, o: WireOptions) => ({ product: toWireProduct(product, o), nameHighlight: highlightName(product.name, text) });

    app.post(SEARCH_PATH, { schema: { body: SearchBody, response: { 200: SearchAnswer } }, config: { access: 'shop' } }, async (req) => {
      const { text = '', filters = {}, sort, paging } = req.body;
      const limit = paging?.limit ?? 24;
      const offset = paging?.offset ?? 0;
      const result = await search.search(req.ctx, { text, ...filters, sort, limit, offset });
      const o = await options(req.ctx);
      return toWireSearch(result, text, o, limit, offset, item);
    });

    app.get(SUGGEST_PATH, { schema: { querystring: SuggestQuery, response: { 200: SuggestAnswer } }, config: { access: 'shop' } }, async (req) => {
      const found = await search.suggest(req.ctx, req.query.text);
      const o = await options(req.ctx);
      return { products: found.products.map((p) => item(p, req.query.text, o)), collections: found.collections, limit: SUGGESTIONS };
    });
  };
}

function toWireSearch(
  result: SearchResult, text: string, o: WireOptions, limit: number, offset: number,
  item: (p: Product, text: string, o: WireOptions) => Static<typeof Found>,
) {
  const { facets } = result;
  return {
    items: result.products.map((p) => item(p, text, o)),
    metadata: { count: result.products.length, offset, limit, total: result.total },
    facets: {
      collections: facets.collections,
      options: facets.options,
      prices: facets.prices.map((b) => ({ id: b.id, from: formatAmount(b.from, o.currency), to: b.to === null ? null : formatAmount(b.to, o.currency), count: b.count })),
      inStock: facets.inStock,
      onSale: facets.onSale,
      brands: facets.brands,
    },
    didYouMean: result.didYouMean,
  };
}
