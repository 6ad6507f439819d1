import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { STORES_APP_ID } from '../catalog/service.js';
import type { BackInStockService, StockRequest } from './service.js';
import { BackInStockRequestResponse, BackInStockRequestsPage, Empty } from './wire-schemas.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Options = Type.Object({
  variantId: Type.Optional(Id),
  options: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 200 }))),
  customTextFields: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 500 }))),
});
const CatalogReference = Type.Object({ catalogItemId: Id, appId: Id, options: Type.Optional(Options) });
const ItemDetails = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 500 })),
  price: Type.Optional(Type.String({ maxLength: 50 })),
  image: Type.Optional(Type.String({ maxLength: 2000 })),
});
const CreateBody = Type.Object({
  request: Type.Object({ catalogReference: CatalogReference, email: Type.String({ minLength: 3, maxLength: 320 }), itemUrl: Type.Optional(Type.String({ maxLength: 2000 })) }),
  itemDetails: Type.Optional(ItemDetails),
});
const Paging = Type.Object({ limit: Type.Optional(Type.Unknown()), offset: Type.Optional(Type.Unknown()) });
const Query = Type.Object({ filter: Type.Optional(Type.Unknown()), paging: Type.Optional(Paging), cursorPaging: Type.Optional(Paging) });
const QueryBody = Type.Object({ query: Type.Optional(Query) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ApiError.validation([{ field: 'query.filter', rule: 'FORMAT', description: 'must be a JSON object' }]);
  }
}
const ReportBody = Type.Object({ itemDetails: Type.Optional(ItemDetails), catalogReference: CatalogReference });
const Params = Type.Object({ id: Id });

function toWire(r: StockRequest) {
  return {
    id: r.id,
    catalogReference: { catalogItemId: r.productId, appId: STORES_APP_ID, ...(r.catalogOptions ? { options: r.catalogOptions } : {}) },
    email: r.email,
    ...(r.contactId ? { contactId: r.contactId } : {}),
    status: r.status,
    ...(r.autoNotified !== null ? { autoNotified: r.autoNotified } : {}),
    createdDate: r.createdDate.toISOString(),
    ...(r.itemUrl ? { itemUrl: r.itemUrl } : {}),
  };
}

/** @wix/ecom backInStockNotifications at `/back-in-stock-service/v1/back-in-stock-notification-requests`. */
export function backInStockRoutes(service: BackInStockService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const p = '/back-in-stock-service/v1/back-in-stock-notification-requests';
    const backOffice = { access: 'staff' } as const;
    app.post(p, { config: { access: 'shop' }, schema: { body: CreateBody, response: { 200: BackInStockRequestResponse } } }, async (req) => {
      const r = req.body.request;
      const created = await service.createRequest(req.ctx, { catalogReference: r.catalogReference, email: r.email, itemUrl: r.itemUrl, itemDetails: req.body.itemDetails ?? {} });
      return { request: toWire(created) };
    });
    // The SDK sends the query as a GET (the query string decoded by platform/query-string), a POST when it is long.
    const query = async (ctx: FastifyRequest['ctx'], q: Static<typeof Query> | undefined) => {
      const found = await service.queryRequests(ctx, { filter: typeof q?.filter === 'string' ? parseJson(q.filter) : q?.filter, paging: q?.paging ?? q?.cursorPaging });
      return { requests: found.map(toWire), pagingMetadata: { count: found.length } };
    };
    app.get(p, { config: backOffice, schema: { querystring: QueryBody, response: { 200: BackInStockRequestsPage } } }, async (req) => query(req.ctx, req.query.query));
    app.post(`${p}/query`, { config: backOffice, schema: { body: QueryBody, response: { 200: BackInStockRequestsPage } } }, async (req) => query(req.ctx, req.body.query));
    app.post(`${p}/report-items-back-in-stock`, { config: backOffice, schema: { body: ReportBody, response: { 200: Empty } } }, async (req) => {
      await service.reportBackInStock(req.ctx, req.body.catalogReference.catalogItemId);
      return {};
    });
    app.get(`${p}/:id`, { config: backOffice, schema: { params: Params, response: { 200: BackInStockRequestResponse } } }, async (req) => ({ request: toWire(await service.getRequest(req.ctx, req.params.id)) }));
    app.delete(`${p}/:id`, { config: backOffice, schema: { params: Params, response: { 200: Empty } } }, async (req) => {
      await service.deleteRequest(req.ctx, req.params.id);
      return {};
    });
    app.put(`${p}/:id/mark-as-notification-sent`, { config: backOffice, schema: { params: Params, response: { 200: BackInStockRequestResponse } } }, async (req) => ({ request: toWire(await service.markAsSent(req.ctx, req.params.id)) }));
  };
}
