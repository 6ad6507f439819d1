// The back-in-stock answers (@wix/ecom backInStockNotifications): they write the wire and are the SDK's types.
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

const CatalogReference = Type.Object({
  catalogItemId: Type.String(),
  appId: Type.String(),
  options: Type.Optional(Type.Object({
    variantId: Type.Optional(Type.String()),
    options: Type.Optional(Type.Record(Type.String(), Type.String())),
    customTextFields: Type.Optional(Type.Record(Type.String(), Type.String())),
  }, { description: 'As the request gave them.' })),
});

export const BackInStockRequest = Type.Object({
  id: Type.String(),
  catalogReference: CatalogReference,
  email: Type.String(),
  contactId: Type.Optional(Type.String()),
  status: oneOf(['RECEIVED', 'NOTIFICATION_SENT'] as const, { title: 'BackInStockStatus' }),
  autoNotified: Type.Optional(Type.Boolean()),
  createdDate: Timestamp,
  itemUrl: Type.Optional(Type.String()),
}, { title: 'BackInStockRequest' });

export const BackInStockRequestResponse = Type.Object({ request: BackInStockRequest }, { title: 'BackInStockRequestResponse' });
export const BackInStockRequestsPage = Type.Object({
  requests: Type.Array(BackInStockRequest),
  pagingMetadata: Type.Object({ count: Type.Integer() }),
}, { title: 'BackInStockRequestsPage' });
export const Empty = Type.Object({});
