// The coupon answers (the Wix coupons API's shape, for the back office): they write the wire,
// document it and are the SDK's Coupon.
import { Type } from 'typebox';
import { Timestamp } from '../../platform/wire-schema.js';

export const Coupon = Type.Object({
  id: Type.String(),
  specification: Type.Object({
    name: Type.String(),
    code: Type.String(),
    startTime: Type.Optional(Timestamp),
    expirationTime: Type.Optional(Timestamp),
    usageLimit: Type.Optional(Type.Integer()),
    minimumSubtotal: Type.Optional(Type.Number({ description: 'In the store currency, as a number (as Wix answers it).' })),
    moneyOffAmount: Type.Optional(Type.Number()),
    percentOffRate: Type.Optional(Type.Number()),
    productIds: Type.Optional(Type.Array(Type.String())),
    scope: Type.Optional(Type.Object({
      namespace: Type.String(),
      group: Type.Object({ name: Type.String(), entityId: Type.String() }),
    }, { description: 'The first product of `productIds`, as Wix scopes a coupon.' })),
    active: Type.Boolean(),
  }),
  numberOfUsages: Type.Integer(),
  expired: Type.Boolean(),
  dateCreated: Timestamp,
}, { title: 'Coupon' });

export const CouponCreated = Type.Object({ id: Type.String(), coupon: Coupon }, { title: 'CouponCreated' });
export const CouponResponse = Type.Object({ coupon: Coupon }, { title: 'CouponResponse' });
export const CouponsPage = Type.Object({
  coupons: Type.Array(Coupon),
  metadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
}, { title: 'CouponsPage' });
export const Empty = Type.Object({});
