// The answers of the orderPaymentRequests calls (@wix/ecom) and of the shop's payment-link page:
// they write the wire, document it and are the SDK's types (npm run gen:sdk-types).
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

export const PaymentRequestStatus = oneOf(['UNPAID', 'PAID', 'EXPIRED', 'VOIDED'] as const, { title: 'OrderPaymentRequestStatus' });
const Price = Type.Object({ amount: Type.String(), formattedAmount: Type.String() }, { title: 'PaymentRequestPrice' });

export const OrderPaymentRequest = Type.Object({
  id: Type.String(),
  source: Type.Object({ appId: Type.Optional(Type.String()), externalId: Type.Optional(Type.String()) }),
  status: PaymentRequestStatus,
  orderId: Type.String(),
  orderNumber: Type.String(),
  amount: Price,
  currency: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  expirationDate: Type.Optional(Timestamp),
  createdDate: Timestamp,
  updatedDate: Timestamp,
}, { title: 'OrderPaymentRequest' });

export const CreatedAnswer = Type.Object({ orderPaymentRequest: OrderPaymentRequest, orderPaymentRequestUrl: Type.String() });
export const RequestAnswer = Type.Object({ orderPaymentRequest: OrderPaymentRequest });
export const UrlAnswer = Type.Object({ orderPaymentRequestUrl: Type.String() });
export const RequestsPage = Type.Object({
  orderPaymentRequests: Type.Array(OrderPaymentRequest),
  pagingMetadata: Type.Object({ count: Type.Integer(), cursors: Type.Object({ next: Type.Optional(Type.String()) }), hasNext: Type.Boolean() }),
});
export const Empty = Type.Object({});
export const SentAnswer = Type.Object({ orderPaymentRequest: OrderPaymentRequest, to: Type.String({ description: 'Where the link was sent.' }) }, { title: 'PaymentRequestSent' });

/** What the payment link's page shows of the order: its lines and totals, no addresses or e-mail. */
export const PaymentLinkOrder = Type.Object({
  id: Type.String(),
  number: Type.String(),
  paymentStatus: Type.String(),
  lineItems: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    options: Type.Array(Type.String()),
    quantity: Type.Integer(),
    price: Price,
    total: Price,
  })),
  priceSummary: Type.Object({ subtotal: Price, discount: Price, shipping: Price, tax: Price, total: Price }),
  paid: Price,
  balanceDue: Price,
}, { title: 'PaymentLinkOrder' });

export const PaymentLinkAnswer = Type.Object({
  orderPaymentRequest: OrderPaymentRequest,
  order: PaymentLinkOrder,
}, { title: 'PaymentLink' });
