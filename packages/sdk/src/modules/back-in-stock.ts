/**
 * `@wix/ecom` backInStockNotifications: a shopper asks to be mailed when a sold-out variant returns;
 * the back office lists the requests (e.g. per product).
 */
import { call } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { BackInStockRequest, BackInStockRequestsPage } from '../generated/back-in-stock.js';

const P = '/back-in-stock-service/v1/back-in-stock-notification-requests';
/** The Wix Stores app id that catalog references of products carry. */
export const STORES_CATALOG_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

export type { BackInStockRequest, BackInStockRequestResponse, BackInStockRequestsPage, BackInStockStatus } from '../generated/back-in-stock.js';

export interface BackInStockCatalogReference {
  catalogItemId: string;
  appId?: string;
  options?: { variantId?: string; options?: Record<string, string> };
}

export interface BackInStockItemDetails {
  name?: string;
  price?: string;
  image?: string;
}

export function backInStock(t: Transport) {
  return {
    /** Asking twice for the same variant and address answers the same request. */
    createRequest: (request: { catalogReference: BackInStockCatalogReference; email: string; itemUrl?: string }, itemDetails: BackInStockItemDetails = {}) =>
      call<BackInStockRequest>(
        t,
        'POST',
        P,
        { request: { ...request, catalogReference: { appId: STORES_CATALOG_APP_ID, ...request.catalogReference } }, itemDetails },
        { args: { request: 'request', itemDetails: 'itemDetails' }, pick: 'request' },
      ),
    /** Back office: requests matching a filter, e.g. `{ 'catalogReference.catalogItemId': productId }`. */
    queryRequests: (query: { filter?: Record<string, unknown>; paging?: { limit?: number; offset?: number } } = {}) =>
      call<BackInStockRequestsPage>(t, 'POST', `${P}/query`, { query }, { args: { query: 'query' } }),
  };
}
