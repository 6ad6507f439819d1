import {
  auditLog, backInStock, backOffice, backOfficeSettings, createClient, dataCollections, dataIndexes, draftOrders, giftCards, inventory, invoices, items, media, members,
  OAuthStrategy, orderFulfillments, orderPaymentRequests, orders, payments, products, reviews, storesCollections, digital,
} from '@bodega/sdk';
import { shopTokenStorage } from '../shop/client.js';

const modules = {
  backOffice, settings: backOfficeSettings, auditLog, products, storesCollections, inventory, orders, orderFulfillments, members,
  dataCollections, dataIndexes, items, payments, reviews, backInStock, giftCards, media, digital, draftOrders, orderPaymentRequests, invoices,
};

/**
 * The back office's SDK client: the same signed-in session as the shop (one cookie), with the
 * modules only the back office uses, so they stay out of the shop's bundle.
 */
export function adminClient(clientId: string) {
  return createClient({ baseUrl: window.location.origin, auth: OAuthStrategy({ clientId, tokenStorage: shopTokenStorage() }), modules });
}

export type AdminClient = ReturnType<typeof adminClient>;
