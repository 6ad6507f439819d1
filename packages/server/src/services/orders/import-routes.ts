// Order import: the official @wix/ecom orders calls importOrder and setOrderNumberCounter, and the
// back office's file import. Staff only (owner, contributor, API key).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsv } from '../../platform/csv-cells.js';
import { CsvFile } from '../../platform/wire-schema.js';
import type { PageBase } from '../../platform/page-base.js';
import type { OrderImports } from './import-service.js';
import * as W from './import-wire-schemas.js';
import { toWireOrder } from './wire.js';

const ORDER_PREFIXES = ['/ecom/v1', '/_api/ecom-orders/v1'];

export function orderImportRoutes(imports: OrderImports, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;
    for (const prefix of ORDER_PREFIXES) {
      app.post(`${prefix}/orders/import`, { config, schema: { body: W.ImportOrderBody, response: { 200: W.ImportOrderAnswer } } }, async (req) => {
        const { order } = await imports.importOrder(req.ctx, req.body.order);
        return { order: toWireOrder(order, await pageBase(req.ctx)) };
      });
      app.post(`${prefix}/orders/import/set-order-number-counter`, { config, schema: { body: W.SetCounterBody, response: { 200: W.SetCounterAnswer } } }, async (req) => {
        const answer = await imports.setOrderNumberCounter(req.ctx, Number(req.body.counter), req.body.allowLowerCounter === true);
        return { oldCounter: String(answer.oldCounter), newCounter: String(answer.newCounter) };
      });
    }
    app.post('/bodega/v1/order-imports', {
      config,
      schema: {
        tags: ['orders'],
        summary: 'Imports orders from another platform: a CSV (README "Order import") or a JSON array of orders as importOrder takes them; one result per order',
        body: W.ImportFileBody,
        response: { 200: W.OrderImportAnswer },
      },
    }, async (req) => {
      const { results, ...counts } = await imports.importFile(req.ctx, req.body.format, req.body.content);
      return {
        ...counts,
        results: results.map(({ number, ...r }) => ({ ...r, ...(number !== undefined && { number: String(number) }) })),
      };
    });
    app.get('/bodega/v1/order-imports/:importId/failures.csv', {
      config,
      schema: {
        tags: ['orders'],
        summary: "An order import's refused rows: row (1 = the first data row), error (the reason in words), reason (the spec's code), then the row as sent",
        params: W.ImportIdParams,
        produces: ['text/csv'],
        response: { 200: CsvFile },
      },
    }, async (req, reply) => {
      // Found first: a refusal must not go out with the attachment's headers.
      const chunks = await imports.importFailuresCsv(req.ctx, req.params.importId);
      return sendCsv(reply, `order-import-${req.params.importId}-failures.csv`, chunks);
    });
  };
}
