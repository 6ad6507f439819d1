// The order-transactions and fulfilment answers as orders/wire.ts writes them (@wix/ecom's
// orderTransactions, payments collector and orderFulfillments calls): the schemas the answers are
// written through and documented by. Statuses are the provider's words, kept as text.
import { Type } from 'typebox';
import { Timestamp } from '../../platform/wire-schema.js';
import { Price } from './wire-schemas.js';

const Capture = Type.Object({
  id: Type.String(),
  status: Type.String(),
  amount: Price,
  createdDate: Timestamp,
  failureDetails: Type.Optional(Type.Object({ failureCode: Type.String(), failureReason: Type.String() })),
});

export const TransactionPayment = Type.Object({
  id: Type.String(),
  createdDate: Timestamp,
  updatedDate: Timestamp,
  amount: Price,
  refundDisabled: Type.Boolean(),
  status: Type.String(),
  regularPaymentDetails: Type.Object({
    offlinePayment: Type.Boolean(),
    providerTransactionId: Type.Optional(Type.String()),
    gatewayTransactionId: Type.Optional(Type.String()),
    paymentProvider: Type.Optional(Type.String()),
    status: Type.String(),
    paymentMethod: Type.Optional(Type.String()),
    authorizationDetails: Type.Optional(Type.Object({
      delayedCapture: Type.Boolean(),
      authorizedDate: Timestamp,
      authorizedAmount: Type.Optional(Price),
      captures: Type.Array(Capture),
      void: Type.Optional(Type.Object({ status: Type.String(), voidedDate: Timestamp, reason: Type.String() })),
    })),
    chargebacks: Type.Optional(Type.Array(Type.Object({
      id: Type.String(), createdDate: Timestamp, updatedDate: Timestamp, amount: Price, reversalAmount: Price, status: Type.String(),
    }))),
  }),
}, { title: 'TransactionPayment' });

export const TransactionRefund = Type.Object({
  id: Type.String(),
  createdDate: Timestamp,
  details: Type.Object({
    lineItems: Type.Array(Type.Object({ lineItemId: Type.String(), quantity: Type.Integer() })),
    shippingIncluded: Type.Boolean(),
    reason: Type.Optional(Type.String()),
  }),
  transactions: Type.Array(Type.Object({
    paymentId: Type.String(),
    amount: Price,
    refundStatus: Type.String(),
    externalRefund: Type.Boolean(),
    providerRefundId: Type.Optional(Type.String()),
    gatewayRefundId: Type.Optional(Type.String()),
  })),
  summary: Type.Object({ requestedRefund: Price, pending: Type.Boolean() }),
}, { title: 'TransactionRefund' });

export const OrderTransactions = Type.Object({
  orderId: Type.String(),
  payments: Type.Array(TransactionPayment),
  refunds: Type.Array(TransactionRefund),
}, { title: 'OrderTransactions' });

export const OrderTransactionsResponse = Type.Object({ orderTransactions: OrderTransactions });

export const TriggerRefundResponse = Type.Object({
  refundId: Type.String(),
  orderTransactions: OrderTransactions,
  failedPaymentIds: Type.Array(Type.String()),
});

export const CollectabilityResponse = Type.Object({ status: Type.String(), amount: Price });

export const RefundabilityResponse = Type.Object({
  refundabilities: Type.Array(Type.Object({
    paymentId: Type.String(),
    refundabilityStatus: Type.String(),
    nonRefundableReason: Type.Optional(Type.String()),
    manuallyRefundableReason: Type.Optional(Type.String()),
  })),
  refundablePerItem: Type.Boolean(),
});

export const Fulfillment = Type.Object({
  id: Type.String(),
  createdDate: Timestamp,
  lineItems: Type.Array(Type.Object({ id: Type.String(), quantity: Type.Integer() })),
  trackingInfo: Type.Optional(Type.Object({
    trackingNumber: Type.Optional(Type.String()),
    shippingProvider: Type.Optional(Type.String()),
    trackingLink: Type.Optional(Type.String()),
  })),
  completed: Type.Boolean(),
}, { title: 'Fulfillment' });

const OrderWithFulfillments = Type.Object({ orderId: Type.String(), fulfillments: Type.Array(Fulfillment) });
export const FulfillmentsResponse = Type.Object({ orderWithFulfillments: OrderWithFulfillments });
export const CreateFulfillmentResponse = Type.Object({ fulfillmentId: Type.String(), orderWithFulfillments: OrderWithFulfillments });

export const Empty = Type.Object({});
