// Request and answer schemas of the order import: the official importOrder and
// setOrderNumberCounter calls, and the back office's file import (`/bodega/v1/order-imports`).
import { Type } from 'typebox';
import { Order } from './wire-schemas.js';

const Text = (maxLength: number) => Type.String({ maxLength });
/** A decimal string ("12.50"), or a JSON number that must convert exactly. */
const Amount = Type.Union([Type.String({ maxLength: 40 }), Type.Number()]);
const Money = Type.Object({ amount: Amount, formattedAmount: Type.Optional(Text(100)) });
const Opt = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(schema);

const ImportLine = Type.Object({
  id: Opt(Type.String({ minLength: 1, maxLength: 100 })),
  productName: Opt(Type.Object({ original: Opt(Text(400)), translated: Opt(Text(400)) })),
  catalogReference: Opt(Type.Object({ appId: Opt(Text(100)), catalogItemId: Opt(Text(100)), options: Opt(Type.Unknown()) })),
  quantity: Opt(Type.Integer({ minimum: 1, maximum: 100000 })),
  price: Opt(Money),
  itemType: Opt(Type.Object({ preset: Opt(Text(40)), custom: Opt(Text(100)) })),
  totalDiscount: Opt(Money),
  taxDetails: Opt(Type.Object({ totalTax: Opt(Money), taxRate: Opt(Text(40)) })),
  subscriptionInfo: Opt(Type.Unknown()),
  physicalProperties: Opt(Type.Object({ weight: Opt(Type.Number({ minimum: 0 })), sku: Opt(Text(100)), shippable: Opt(Type.Boolean()) })),
});

/** The parts of the official Order an import reads; any other field is accepted and ignored. */
export const ImportOrderInput = Type.Object({
  id: Opt(Type.String({ minLength: 1, maxLength: 100 })),
  number: Opt(Type.Union([Text(20), Type.Integer()])),
  createdDate: Opt(Text(40)),
  purchasedDate: Opt(Text(40)),
  status: Opt(Text(40)),
  paymentStatus: Opt(Text(40)),
  fulfillmentStatus: Opt(Text(40)),
  currency: Opt(Text(10)),
  weightUnit: Opt(Text(10)),
  taxIncludedInPrices: Opt(Type.Boolean()),
  channelInfo: Opt(Type.Object({
    type: Opt(Text(40)),
    externalOrderId: Opt(Type.Union([Text(100), Type.Null()])),
    externalOrderUrl: Opt(Type.Union([Text(2048), Type.Null()])),
  })),
  buyerInfo: Opt(Type.Object({ email: Opt(Type.Union([Text(254), Type.Null()])) })),
  billingInfo: Opt(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  buyerNote: Opt(Type.Union([Text(1000), Type.Null()])),
  lineItems: Opt(Type.Array(ImportLine, { maxItems: 300 })),
  shippingInfo: Opt(Type.Union([Type.Object({
    code: Opt(Text(100)),
    title: Opt(Text(200)),
    logistics: Opt(Type.Object({ shippingDestination: Opt(Type.Record(Type.String(), Type.Unknown())), pickupDetails: Opt(Type.Record(Type.String(), Type.Unknown())) })),
    cost: Opt(Type.Object({ price: Opt(Money), taxDetails: Opt(Type.Object({ totalTax: Opt(Money) })) })),
  }), Type.Null()])),
  priceSummary: Opt(Type.Object({ subtotal: Opt(Money), shipping: Opt(Money), tax: Opt(Money), discount: Opt(Money), total: Opt(Money), totalAdditionalFees: Opt(Money) })),
  balanceSummary: Opt(Type.Object({ paid: Opt(Money), refunded: Opt(Money) })),
  additionalFees: Opt(Type.Array(Type.Object({ code: Opt(Text(100)), name: Opt(Text(200)), price: Opt(Money), taxDetails: Opt(Type.Object({ totalTax: Opt(Money) })) }), { maxItems: 20 })),
});

export const ImportOrderBody = Type.Object({ order: ImportOrderInput });
export const ImportOrderAnswer = Type.Object({ order: Order }, { title: 'ImportOrderResponse' });

export const SetCounterBody = Type.Object({
  counter: Type.Union([Type.String({ pattern: '^[0-9]{1,9}$' }), Type.Integer({ minimum: 1, maximum: 999999999 })]),
  allowLowerCounter: Opt(Type.Boolean()),
});
export const SetCounterAnswer = Type.Object({ oldCounter: Type.String(), newCounter: Type.String() }, { title: 'SetOrderNumberCounterResponse' });

export const ImportFileBody = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('json')]),
  content: Type.String({ minLength: 1, maxLength: 7 * 1024 * 1024 }),
}, { additionalProperties: false });

export const OrderImportResult = Type.Object({
  rows: Type.Array(Type.Integer(), { description: 'The rows of the file the order was read from (1 = the first data row; a JSON file: the order\'s place in the array).' }),
  externalOrderId: Type.Optional(Type.String()),
  status: Type.Union([Type.Literal('IMPORTED'), Type.Literal('ALREADY_IMPORTED'), Type.Literal('REPLACED'), Type.Literal('FAILED')]),
  orderId: Type.Optional(Type.String()),
  number: Type.Optional(Type.String()),
  code: Type.Optional(Type.String({ description: 'Why it failed: one of the spec\'s order-import reasons, INVALID_ARGUMENT or ORDER_NUMBER_TAKEN.' })),
  message: Type.Optional(Type.String({ description: 'The reason in words.' })),
}, { title: 'OrderImportResult' });

export const OrderImportAnswer = Type.Object({
  importId: Type.String({ description: 'The import: GET /bodega/v1/order-imports/{importId}/failures.csv gives its refused rows.' }),
  results: Type.Array(OrderImportResult),
  imported: Type.Integer(),
  alreadyImported: Type.Integer(),
  failed: Type.Integer(),
}, { title: 'OrderImportAnswer' });

export const ImportIdParams = Type.Object({ importId: Type.String({ minLength: 1, maxLength: 100 }) });
