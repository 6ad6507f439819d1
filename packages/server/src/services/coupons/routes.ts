import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { CouponsService } from './service.js';
import { CouponIdParams, couponFieldsFromWire, CreateCouponBody, QueryCouponsBody, toWireCoupon, UpdateCouponBody } from './wire.js';
import { CouponCreated, CouponResponse, CouponsPage, Empty } from './wire-schemas.js';

/** Coupons for the back office, in the shape of the Wix coupons API. */
export function couponsRoutes(coupons: CouponsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const prefix of ['/stores/v2/coupons', '/_api/bodega/v1/coupons']) {
      const config = { access: 'staff' } as const;
      app.post(prefix, { config, schema: { body: CreateCouponBody, response: { 200: CouponCreated } } }, async (req) => {
        const c = await coupons.currency(req.ctx);
        const spec = req.body.specification;
        const coupon = await coupons.createCoupon(req.ctx, { ...couponFieldsFromWire(spec, c), code: spec.code });
        return { id: coupon.id, coupon: toWireCoupon(coupon, c, req.ctx.now()) };
      });
      app.post(`${prefix}/query`, { config, schema: { body: QueryCouponsBody, response: { 200: CouponsPage } } }, async (req) => {
        const paging = req.body.query?.paging;
        const limit = paging?.limit ?? 50;
        const offset = paging?.offset ?? 0;
        const c = await coupons.currency(req.ctx);
        const { coupons: page, total } = await coupons.listCoupons(req.ctx, limit, offset);
        return { coupons: page.map((x) => toWireCoupon(x, c, req.ctx.now())), metadata: { count: page.length, offset, total } };
      });
      app.get(`${prefix}/:id`, { config, schema: { params: CouponIdParams, response: { 200: CouponResponse } } }, async (req) => {
        const c = await coupons.currency(req.ctx);
        return { coupon: toWireCoupon(await coupons.getCoupon(req.ctx, req.params.id), c, req.ctx.now()) };
      });
      // As the Wix API: the answer is empty; read the coupon again to see it.
      app.patch(`${prefix}/:id`, { config, schema: { params: CouponIdParams, body: UpdateCouponBody, response: { 200: Empty } } }, async (req) => {
        const c = await coupons.currency(req.ctx);
        await coupons.updateCoupon(req.ctx, req.params.id, couponFieldsFromWire(req.body.specification, c, req.body.fieldMask));
        return {};
      });
      app.delete(`${prefix}/:id`, { config, schema: { params: CouponIdParams, response: { 200: Empty } } }, async (req) => {
        await coupons.deleteCoupon(req.ctx, req.params.id);
        return {};
      });
    }
  };
}
