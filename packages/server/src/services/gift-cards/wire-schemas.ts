// The answers of /bodega/v1/gift-cards (wire.ts, routes.ts): they write the wire and document it (openapi.json).
import { Type } from 'typebox';
import { Decimal, IntegerOrNull, Timestamp, oneOf } from '../../platform/wire-schema.js';

/** An amount as `toWireMoney` writes it. */
const Money = Type.Object({
  amount: Decimal,
  convertedAmount: Decimal,
  formattedAmount: Type.String(),
  formattedConvertedAmount: Type.String(),
});

const DecimalOrNull = Type.Unsafe<string | null>({ type: ['string', 'null'] });

export const GiftCard = Type.Object({
  id: Type.String(),
  code: Type.Optional(Type.String({ description: 'The full code, grouped; absent from a balance check.' })),
  obfuscatedCode: Type.String(),
  initialValue: Money,
  balance: Money,
  currency: Type.String(),
  status: oneOf(['ACTIVE', 'DISABLED'] as const),
  expired: Type.Boolean(),
  expirationDate: Type.Optional(Timestamp),
  source: oneOf(['ORDER', 'MANUAL'] as const),
  orderId: Type.Optional(Type.String()),
  recipientName: Type.Optional(Type.String()),
  recipientEmail: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  deliveryDate: Type.Optional(Timestamp),
  buyerEmail: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  createdDate: Timestamp,
  updatedDate: Timestamp,
}, { title: 'GiftCard' });

export const GiftCardLedgerEntry = Type.Object({
  id: Type.String(),
  type: oneOf(['ISSUE', 'REDEEM', 'RELEASE', 'REFUND', 'ADJUST'] as const),
  amount: Decimal,
  direction: oneOf(['DEBIT', 'CREDIT'] as const),
  balanceAfter: Decimal,
  orderId: Type.Optional(Type.String()),
  checkoutId: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  actorId: Type.Optional(Type.String()),
  createdDate: Timestamp,
}, { title: 'GiftCardLedgerEntry' });

export const GiftCardSettings = Type.Object({
  productIds: Type.Array(Type.String()),
  minCustomAmount: DecimalOrNull,
  maxCustomAmount: DecimalOrNull,
  validityMonths: IntegerOrNull,
}, { title: 'GiftCardSettings' });

export const GiftCardAnswer = Type.Object({ giftCard: GiftCard });
export const GiftCardList = Type.Object({ giftCards: Type.Array(GiftCard) });
export const GiftCardPage = Type.Object({
  giftCards: Type.Array(GiftCard),
  pagingMetadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer() }),
});
export const GiftCardWithLedger = Type.Object({ giftCard: GiftCard, ledger: Type.Array(GiftCardLedgerEntry) });
export const GiftCardSettingsAnswer = Type.Object({ settings: GiftCardSettings });

/** What the shop's product page needs: the gift-card products and the custom amounts allowed (null: off). */
export const GiftCardCustomAmounts = Type.Object({
  productIds: Type.Array(Type.String()),
  currency: Type.String(),
  minCustomAmount: DecimalOrNull,
  maxCustomAmount: DecimalOrNull,
}, { title: 'GiftCardCustomAmounts' });
