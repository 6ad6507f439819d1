// A site's coupon as the service and store hold it (amounts in minor units).

/** Money off in minor units, or a percent as a decimal string ("12.5"). */
export type CouponDiscount = { type: 'PERCENT'; percent: string } | { type: 'AMOUNT'; amount: bigint };

export interface Coupon {
  id: string;
  code: string;
  name: string;
  discount: CouponDiscount;
  minimumSubtotal: bigint | null;
  validFrom: Date | null;
  validUntil: Date | null;
  usageLimit: number | null;
  timesUsed: number;
  productIds: string[];
  active: boolean;
  createdDate: Date;
}

/** What a create or an update sets: absent is unchanged, null clears. */
export interface CouponFields {
  code?: string;
  name?: string;
  moneyOff?: bigint;
  /** Decimal string. */
  percentOff?: string;
  minimumSubtotal?: bigint | null;
  validFrom?: Date | null;
  validUntil?: Date | null;
  usageLimit?: number | null;
  productIds?: string[];
  active?: boolean;
}
