// A site's coupons: created, changed and deleted from the back office, found by code for pricing,
// and counted when an order uses one.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import type { SitesService } from '../sites/service.js';
import type { Coupon, CouponDiscount, CouponFields } from './model.js';
import * as store from './store.js';

export type { Coupon, CouponDiscount, CouponFields } from './model.js';

function couponNotFound(couponId: string): ApiError {
  return ApiError.notFound('COUPON_NOT_FOUND', `Coupon ${couponId} was not found`, { couponId });
}

function codeTaken(code: string): ApiError {
  return new ApiError(409, 'COUPON_CODE_ALREADY_EXISTS', `A coupon with the code "${code}" exists`, { code });
}

/** A coupon ends after it starts; violations found earlier are answered with it. */
function checkRules(coupon: Coupon, violations: FieldViolation[] = []): void {
  if (coupon.validFrom && coupon.validUntil && coupon.validUntil <= coupon.validFrom) {
    violations.push({ field: 'specification.expirationTime', rule: 'VALIDATION', description: 'must be after startTime' });
  }
  if (violations.length) throw ApiError.validation(violations);
}

function discountOf(fields: CouponFields): CouponDiscount | undefined {
  if (fields.moneyOff !== undefined) return { type: 'AMOUNT', amount: fields.moneyOff };
  if (fields.percentOff !== undefined) return { type: 'PERCENT', percent: fields.percentOff };
  return undefined;
}

export class CouponsService {
  constructor(private readonly sites: SitesService) {}

  /** The site's currency, which coupon amounts are in. */
  async currency(ctx: SiteContext): Promise<string> {
    return (await this.sites.activeSite(ctx)).settings.currency;
  }

  async createCoupon(ctx: RequestContext, fields: CouponFields & { code: string }): Promise<Coupon> {
    const violations: FieldViolation[] = [];
    const discount = discountOf(fields);
    if ((fields.moneyOff !== undefined) === (fields.percentOff !== undefined)) {
      violations.push({ field: 'specification', rule: 'REQUIRED_ONE_OF_FIELD', description: 'give moneyOffAmount or percentOffRate' });
    }
    const coupon: Coupon = {
      id: newId(),
      code: fields.code,
      name: fields.name ?? fields.code,
      discount: discount ?? { type: 'AMOUNT', amount: 0n },
      minimumSubtotal: fields.minimumSubtotal ?? null,
      validFrom: fields.validFrom ?? null,
      validUntil: fields.validUntil ?? null,
      usageLimit: fields.usageLimit ?? null,
      productIds: fields.productIds ?? [],
      active: fields.active ?? true,
      timesUsed: 0,
      createdDate: ctx.now(),
    };
    checkRules(coupon, violations);
    await withTransaction(ctx, async (tx) => {
      try {
        await store.insertCoupon(tx, coupon);
      } catch (error) {
        if (isUniqueViolation(error)) throw codeTaken(coupon.code);
        throw error;
      }
      await recordEvent(tx, { siteId: ctx.siteId, type: 'coupon.created', entityType: 'coupon', entityId: coupon.id, payload: { couponId: coupon.id, code: coupon.code } });
    });
    return coupon;
  }

  /**
   * Changes the given fields of a coupon. Its kind stays (money off stays money off, as in the
   * Wix coupons API); its value may change. Its uses are kept.
   */
  async updateCoupon(ctx: RequestContext, couponId: string, fields: CouponFields): Promise<Coupon> {
    return withTransaction(ctx, async (tx) => {
      const current = await store.findCoupon(tx, couponId, true);
      if (!current) throw couponNotFound(couponId);
      const violations: FieldViolation[] = [];
      const discount = discountOf(fields);
      if (fields.moneyOff !== undefined && fields.percentOff !== undefined) {
        violations.push({ field: 'specification', rule: 'VALIDATION', description: 'give moneyOffAmount or percentOffRate, not both' });
      } else if (discount && discount.type !== current.discount.type) {
        const field = discount.type === 'AMOUNT' ? 'moneyOffAmount' : 'percentOffRate';
        violations.push({ field: `specification.${field}`, rule: 'VALIDATION', description: `a coupon's type cannot change; this one is ${current.discount.type === 'AMOUNT' ? 'money off' : 'percent off'}` });
      }
      const next: Coupon = {
        ...current,
        ...(fields.code !== undefined && { code: fields.code }),
        ...(fields.name !== undefined && { name: fields.name }),
        ...(discount && { discount }),
        ...(fields.minimumSubtotal !== undefined && { minimumSubtotal: fields.minimumSubtotal }),
        ...(fields.validFrom !== undefined && { validFrom: fields.validFrom }),
        ...(fields.validUntil !== undefined && { validUntil: fields.validUntil }),
        ...(fields.usageLimit !== undefined && { usageLimit: fields.usageLimit }),
        ...(fields.productIds !== undefined && { productIds: fields.productIds }),
        ...(fields.active !== undefined && { active: fields.active }),
      };
      checkRules(next, violations);
      try {
        await store.updateCoupon(tx, next);
      } catch (error) {
        if (isUniqueViolation(error)) throw codeTaken(next.code);
        throw error;
      }
      await recordEvent(tx, { siteId: ctx.siteId, type: 'coupon.updated', entityType: 'coupon', entityId: next.id, payload: { couponId: next.id, code: next.code } });
      return next;
    });
  }

  /** Deletes a coupon; orders that used it keep their copy of it. */
  async deleteCoupon(ctx: RequestContext, couponId: string): Promise<void> {
    await withTransaction(ctx, async (tx) => {
      const deleted = await store.deleteCoupon(tx, couponId);
      if (!deleted) throw couponNotFound(couponId);
      await recordEvent(tx, { siteId: ctx.siteId, type: 'coupon.deleted', entityType: 'coupon', entityId: couponId, payload: { couponId, code: deleted.code } });
    });
  }

  async getCoupon(ctx: RequestContext, couponId: string): Promise<Coupon> {
    const coupon = await store.findCoupon(ctx, couponId);
    if (!coupon) throw couponNotFound(couponId);
    return coupon;
  }

  async listCoupons(ctx: RequestContext, limit: number, offset: number): Promise<{ coupons: Coupon[]; total: number }> {
    return store.listCoupons(ctx, limit, offset);
  }

  /** The site's coupon with this code (any case), for pricing. */
  async findByCode(ctx: SiteContext, code: string): Promise<Coupon | undefined> {
    return store.findCouponByCode(ctx, code);
  }

  /** Counts a coupon's use for an order; false when its limit was reached meanwhile. */
  async useCoupon(ctx: SiteContext, couponId: string): Promise<boolean> {
    return store.useCoupon(ctx, couponId);
  }

  async releaseCoupon(ctx: SiteContext, couponId: string): Promise<void> {
    await store.releaseCoupon(ctx, couponId);
  }
}
