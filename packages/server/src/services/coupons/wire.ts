// The Wix coupons API's shapes (`/stores/v2/coupons`): request schemas, reading a specification
// into coupon fields (amounts in minor units) and writing a coupon back. The rules a coupon must
// keep are the service's.
import { Type, type Static } from 'typebox';
import { COUPON_CODE_PATTERN, COUPON_LIMITS } from '../../platform/field-limits.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { formatDecimal, MoneyError, parseAmount, parseDecimal, toWireMoney } from '../../platform/money.js';
import type { Coupon, CouponFields } from './model.js';

const Amount = Type.Union([Type.Number({ minimum: 0 }), Type.String({ maxLength: 40 })]);
/** Bodega also takes the percent as a decimal string ("12.5"), so a client needs no float. */
const Percent = Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: COUPON_LIMITS.percent }), Type.String({ maxLength: 20, pattern: '^\\d{1,3}(\\.\\d{1,4})?$' })]);
const Code = Type.String({ minLength: 1, maxLength: COUPON_LIMITS.code, pattern: COUPON_CODE_PATTERN });
const Scope = Type.Object({
  namespace: Type.Optional(Type.String({ maxLength: 50 })),
  group: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 50 })), entityId: Type.Optional(Type.String({ maxLength: 100 })) })),
});
const ProductIds = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));

const CouponSpec = Type.Object({
  name: Type.Optional(Type.String({ maxLength: COUPON_LIMITS.name })),
  code: Code,
  startTime: Nullable(Type.String({ format: 'date-time' })),
  expirationTime: Nullable(Type.String({ format: 'date-time' })),
  usageLimit: Nullable(Type.Integer({ minimum: 1, maximum: COUPON_LIMITS.usageLimit })),
  minimumSubtotal: Nullable(Amount),
  moneyOffAmount: Type.Optional(Amount),
  percentOffRate: Type.Optional(Percent),
  active: Type.Optional(Type.Boolean()),
  scope: Type.Optional(Scope),
  /** Bodega: several products at once (the scope names one). */
  productIds: Type.Optional(ProductIds),
});

/** An update names only what changes; null clears a value. */
const CouponPatchSpec = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: COUPON_LIMITS.name })),
  code: Type.Optional(Code),
  startTime: Nullable(Type.String({ format: 'date-time' })),
  expirationTime: Nullable(Type.String({ format: 'date-time' })),
  usageLimit: Nullable(Type.Integer({ minimum: 1, maximum: COUPON_LIMITS.usageLimit })),
  minimumSubtotal: Nullable(Amount),
  moneyOffAmount: Type.Optional(Amount),
  percentOffRate: Type.Optional(Percent),
  active: Type.Optional(Type.Boolean()),
  scope: Nullable(Scope),
  productIds: Nullable(ProductIds),
});

export const CreateCouponBody = Type.Object({ specification: CouponSpec });
export const QueryCouponsBody = Type.Object({
  query: Type.Optional(Type.Object({ paging: Type.Optional(Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), offset: Type.Optional(Type.Integer({ minimum: 0 })) })) })),
});
const MASKABLE = ['name', 'code', 'startTime', 'expirationTime', 'usageLimit', 'minimumSubtotal', 'moneyOffAmount', 'percentOffRate', 'active', 'scope', 'productIds'] as const;
type Maskable = (typeof MASKABLE)[number];
const CLEARABLE: readonly Maskable[] = ['startTime', 'expirationTime', 'usageLimit', 'minimumSubtotal', 'scope', 'productIds'];
export const UpdateCouponBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  specification: CouponPatchSpec,
  /** The SDK's `fieldMask`: a list, protobuf JSON's comma-separated string, or `{paths}`. */
  fieldMask: Type.Optional(Type.Union([
    Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 }),
    Type.String({ maxLength: 1000 }),
    Type.Object({ paths: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 }) }),
  ])),
});
export const CouponIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

type Spec = Static<typeof CouponPatchSpec>;

/**
 * The fields a specification sets: absent keys are left alone, null clears. With a field mask,
 * only the masked fields change, and a masked field the specification leaves out is cleared.
 */
export function couponFieldsFromWire(spec: Spec, currency: string, fieldMask?: Static<typeof UpdateCouponBody>['fieldMask']): CouponFields {
  const violations: FieldViolation[] = [];
  const masked = maskedSpec(spec, fieldMask, violations);
  const amount = (field: string, value: number | string): bigint => {
    try {
      return parseAmount(typeof value === 'number' ? formatDecimal(parseDecimal(value)) : value, currency);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message });
      return 0n;
    }
  };
  const date = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Date(value));
  const fields: CouponFields = {};
  if (masked.code !== undefined) fields.code = masked.code;
  if (masked.name !== undefined) fields.name = masked.name;
  if (masked.moneyOffAmount !== undefined) fields.moneyOff = amount('specification.moneyOffAmount', masked.moneyOffAmount);
  if (masked.percentOffRate !== undefined) {
    const percent = parseDecimal(masked.percentOffRate);
    if (percent.units <= 0n || Number(formatDecimal(percent)) > 100) violations.push({ field: 'specification.percentOffRate', rule: 'VALIDATION', description: 'must be more than 0 and at most 100' });
    fields.percentOff = formatDecimal(percent);
  }
  if (masked.minimumSubtotal !== undefined) fields.minimumSubtotal = masked.minimumSubtotal === null ? null : amount('specification.minimumSubtotal', masked.minimumSubtotal);
  const validFrom = date(masked.startTime);
  if (validFrom !== undefined) fields.validFrom = validFrom;
  const validUntil = date(masked.expirationTime);
  if (validUntil !== undefined) fields.validUntil = validUntil;
  if (masked.usageLimit !== undefined) fields.usageLimit = masked.usageLimit;
  if (masked.active !== undefined) fields.active = masked.active;
  if (masked.productIds !== undefined || masked.scope !== undefined) {
    const scoped = masked.scope?.group?.name === 'product' && masked.scope.group.entityId ? [masked.scope.group.entityId] : [];
    fields.productIds = [...new Set([...(masked.productIds ?? []), ...scoped])];
  }
  if (violations.length) throw ApiError.validation(violations);
  return fields;
}

function maskedSpec(spec: Spec, fieldMask: Static<typeof UpdateCouponBody>['fieldMask'], violations: FieldViolation[]): Spec {
  if (fieldMask === undefined) return spec;
  const paths = (Array.isArray(fieldMask) ? fieldMask : typeof fieldMask === 'string' ? fieldMask.split(',') : fieldMask.paths)
    .map((p) => p.trim().replace(/^specification\./, ''))
    .filter((p) => p !== '');
  if (!paths.length) violations.push({ field: 'fieldMask', rule: 'MIN_SIZE', description: 'name at least one field to update' });
  const unknown = paths.filter((p) => !(MASKABLE as readonly string[]).includes(p));
  if (unknown.length) violations.push({ field: 'fieldMask', rule: 'VALIDATION', description: `not coupon fields: ${unknown.join(', ')}` });
  const masked: Record<string, unknown> = {};
  // Only values that may be empty are cleared by leaving them out; the others stay as they are.
  for (const path of paths as Maskable[]) {
    if (spec[path] !== undefined || CLEARABLE.includes(path)) masked[path] = spec[path] ?? null;
  }
  return masked as Spec;
}

export function toWireCoupon(c: Coupon, currency: string, now: Date) {
  const number = (minor: bigint) => Number(toWireMoney(minor, currency).amount);
  return {
    id: c.id,
    specification: {
      name: c.name,
      code: c.code,
      ...(c.validFrom && { startTime: c.validFrom.toISOString() }),
      ...(c.validUntil && { expirationTime: c.validUntil.toISOString() }),
      ...(c.usageLimit !== null && { usageLimit: c.usageLimit }),
      ...(c.minimumSubtotal !== null && { minimumSubtotal: number(c.minimumSubtotal) }),
      ...(c.discount.type === 'AMOUNT' ? { moneyOffAmount: number(c.discount.amount) } : { percentOffRate: Number(c.discount.percent) }),
      ...(c.productIds.length ? { productIds: c.productIds, scope: { namespace: 'stores', group: { name: 'product', entityId: c.productIds[0] } } } : {}),
      active: c.active,
    },
    numberOfUsages: c.timesUsed,
    expired: c.validUntil !== null && c.validUntil <= now,
    dateCreated: c.createdDate.toISOString(),
  };
}
