// The answers of the back office's /bodega/v1 calls: they write the wire (fast-json-stringify),
// document it (openapi.json) and are the SDK's types (npm run gen:sdk-types).
import { Type } from 'typebox';
import { Decimal, oneOf, Timestamp } from '../../platform/wire-schema.js';

export const BackOfficeRole = oneOf(['OWNER', 'CONTRIBUTOR', 'APP'] as const, { title: 'BackOfficeRole' });

export const BackOfficeMe = Type.Object({
  memberId: Type.Optional(Type.String({ description: 'The signed-in owner or contributor; absent for an API key.' })),
  email: Type.Optional(Type.String()),
  role: BackOfficeRole,
  site: Type.Object({ siteId: Type.String(), name: Type.String(), currency: Type.String() }),
}, { title: 'BackOfficeMe' });

const salesFields = {
  orders: Type.Integer(),
  revenue: Decimal,
  refunds: Decimal,
  net: Decimal,
};
export const SalesFigures = Type.Object(salesFields, {
  title: 'SalesFigures',
  description: "Sales as a merchant reads them, decimal strings in the site's currency: `revenue` is gross sales (totals of the orders placed in the period), `refunds` the refunds made in the period (on the refund's day, whenever the order was placed), `net` gross minus refunds (below zero on a day with refunds and few sales).",
});
export const DayFigures = Type.Object({ date: Type.String({ description: '`YYYY-MM-DD`' }), ...salesFields }, { title: 'DayFigures' });

export const RecentOrder = Type.Object({
  id: Type.String(),
  number: Type.String(),
  createdDate: Timestamp,
  buyerEmail: Type.Optional(Type.String()),
  total: Decimal,
  paymentStatus: Type.String(),
  fulfillmentStatus: Type.String(),
}, { title: 'RecentOrder' });

export const LowStockItem = Type.Object({
  productId: Type.String(),
  variantId: Type.Optional(Type.String()),
  name: Type.String(),
  quantity: Type.Integer(),
}, { title: 'LowStockItem' });

export const Dashboard = Type.Object({
  currency: Type.String(),
  range: Type.Object({ from: Type.String(), to: Type.String(), timeZone: Type.String(), ...salesFields }, { description: 'The range the figures are for, with its totals.' }),
  days: Type.Array(DayFigures),
  today: SalesFigures,
  thisMonth: SalesFigures,
  averageOrderValue: Type.String({ description: 'Gross sales over the chosen range ÷ its orders; "0" when there were no orders.' }),
  unpaidCount: Type.Integer(),
  unfulfilledCount: Type.Integer(),
  recentOrders: Type.Array(RecentOrder),
  lowStock: Type.Array(LowStockItem),
}, { title: 'Dashboard' });

export const SearchResults = Type.Object({
  products: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  orders: Type.Array(Type.Object({ id: Type.String(), number: Type.String(), buyerEmail: Type.Optional(Type.String()) })),
  members: Type.Array(Type.Object({ id: Type.String(), name: Type.Optional(Type.String()), email: Type.Optional(Type.String()) })),
}, { title: 'SearchResults' });

export const OrderPayment = Type.Object({
  id: Type.String(),
  method: Type.String({ description: "`offline` (marked as paid), `manual` (a recorded payment) or a provider's id." }),
  methodName: Type.Optional(Type.String()),
  amount: { ...Decimal, description: "Decimal strings in the order's currency." },
  refunded: Decimal,
  refundable: { ...Decimal, description: 'What is left to refund of this payment: "0.00" where the server would refuse a refund.' },
  reason: Type.Optional(oneOf([
    'NOT_PAID', 'ALREADY_REFUNDED', 'ZERO_PRICE', 'PENDING_REFUND', 'ORDER_IS_PENDING', 'ORDER_IS_REJECTED', 'PARTIALLY_PAID', 'PROVIDER_IS_DOWN',
    'DISABLED_BY_PROVIDER', 'FORBIDDEN', 'TRANSACTION_NOT_FOUND', 'ACCESS_DENIED', 'INTERNAL_ERROR', 'DEPOSIT_ONLINE_ITEM',
  ] as const, { description: "Why this payment cannot be refunded, when it cannot (as trigger-refund's error code)." })),
  createdDate: Timestamp,
}, { title: 'OrderPayment' });

export const OrderPayments = Type.Object({
  currency: Type.String(),
  refundable: { ...Decimal, description: "The sum of every payment's `refundable`." },
  payments: Type.Array(OrderPayment),
}, { title: 'OrderPayments' });

export const ApiKeyInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.Optional(Type.String({ description: "The key's first characters, to tell keys apart (the rest is never stored)." })),
  createdDate: Timestamp,
  lastUsedDate: Type.Optional(Timestamp),
}, { title: 'ApiKeyInfo' });
export const ApiKeyList = Type.Object({ apiKeys: Type.Array(ApiKeyInfo) });
export const CreatedApiKey = Type.Object({ apiKey: ApiKeyInfo, key: Type.String({ description: 'The secret, shown this once.' }) });

export const MailStatus = oneOf(['STORED', 'QUEUED', 'SENDING', 'SENT', 'FAILED'] as const, {
  title: 'MailStatus', description: 'STORED: kept, not sent (no SMTP_URL); QUEUED → SENDING → SENT, or FAILED.',
});
const mailSummaryFields = {
  id: Type.String(),
  kind: Type.Optional(Type.String({ description: 'What the mail is, e.g. `identity.recovery`.' })),
  to: Type.String(),
  subject: Type.String(),
  status: MailStatus,
  ownerOnly: Type.Optional(Type.Boolean({ description: 'Sign-in mail with a one-time link or code: only the owner (or an API key) may open it.' })),
  createdDate: Timestamp,
  sentDate: Type.Optional(Timestamp),
  error: Type.Optional(Type.String()),
};
export const MailSummary = Type.Object(mailSummaryFields, { title: 'MailSummary' });
export const Mail = Type.Object({ ...mailSummaryFields, text: Type.String(), html: Type.Optional(Type.String()) }, { title: 'Mail' });
export const MailPage = Type.Object({ mails: Type.Array(MailSummary), nextCursor: Type.Optional(Type.String()) });
export const OneMail = Type.Object({ mail: Mail });

export const ImportTarget = oneOf(['products', 'data-items'] as const, { title: 'ImportTarget' });
export const ImportJobStatus = oneOf(['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const, { title: 'ImportJobStatus' });
export const ImportJob = Type.Object({
  id: Type.String(),
  target: ImportTarget,
  dataCollectionId: Type.Optional(Type.String()),
  status: ImportJobStatus,
  total: Type.Integer(),
  processed: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  createdDate: Timestamp,
  finishedDate: Type.Optional(Timestamp),
  error: Type.Optional(Type.String({ description: 'Why the whole job failed (a file that cannot be read at all).' })),
}, { title: 'ImportJob' });
export const OneImportJob = Type.Object({ job: ImportJob });

export const BulkProductResult = Type.Object({
  itemMetadata: Type.Object({
    id: Type.String(),
    originalIndex: Type.Integer(),
    success: Type.Boolean(),
    error: Type.Optional(Type.Object({ code: Type.String(), description: Type.String() })),
  }),
}, { title: 'BulkProductResult' });
export const BulkProductsResponse = Type.Object({
  results: Type.Array(BulkProductResult),
  bulkActionMetadata: Type.Object({ totalSuccesses: Type.Integer(), totalFailures: Type.Integer(), undetailedFailures: Type.Integer() }),
}, { title: 'BulkProductsResponse' });

export const Empty = Type.Object({}, { description: 'Nothing: the call succeeded.' });
