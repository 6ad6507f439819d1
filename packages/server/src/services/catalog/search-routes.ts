// Bodega's catalog search for storefronts: POST /_api/bodega/v1/catalog/search (results, facets,
// "did you mean") and GET /_api/bodega/v1/catalog/suggest (as one types). Every caller of a site
// may search it; shoppers (visitors, members) find visible products and collections only.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { RequestContext } from '../../platform/caller.js';
import { formatAmount } from '../../platform/money.js';
import { highlightName, SUGGESTIONS, type CatalogSearch, type SearchResult } from './search.js';
import { isShopper, type CatalogService } from './service.js';
import { toWireProduct, type WireOptions } from './wire.js';
import type { Product } from './products.js';

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

export function catalogSearchRoutes(catalog: CatalogService, search: CatalogSearch, publicUrl: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = async (ctx: RequestContext): Promise<WireOptions> => ({ currency: await catalog.currency(ctx.siteId), publicUrl, merchant: !isShopper(ctx) });
    const item = (product: Product, text: string, o: WireOptions) => ({ product: toWireProduct(product, o), nameHighlight: highlightName(product.name, text) });

    app.post(SEARCH_PATH, { schema: { body: SearchBody }, config: { access: 'shop' } }, async (req) => {
      const { text = '', filters = {}, sort, paging } = req.body;
      const limit = paging?.limit ?? 24;
      const offset = paging?.offset ?? 0;
      const result = await search.search(req.ctx, { text, ...filters, sort, limit, offset });
      const o = await options(req.ctx);
      return toWireSearch(result, text, o, limit, offset, item);
    });

    app.get(SUGGEST_PATH, { schema: { querystring: SuggestQuery }, config: { access: 'shop' } }, async (req) => {
      const found = await search.suggest(req.ctx, req.query.text);
      const o = await options(req.ctx);
      return { products: found.products.map((p) => item(p, req.query.text, o)), collections: found.collections, limit: SUGGESTIONS };
    });
  };
}

function toWireSearch(
  result: SearchResult, text: string, o: WireOptions, limit: number, offset: number,
  item: (p: Product, text: string, o: WireOptions) => unknown,
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
