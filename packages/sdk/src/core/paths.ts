/** Path prefixes at a custom host (wire-surface §1.2, "Prefix @ custom host"). */
export const DATA_ITEMS = '/_api/cloud-data/v2';
export const DATA_COLLECTIONS = '/_api/cloud-data/v2/collections';
export const CURRENT_CART = '/_api/ecom-cart/v1/carts/current';
export const CHECKOUTS = '/ecom/v1/checkouts';
export const ORDERS = '/_api/ecom-orders/v1';
export const PAYMENTS_COLLECTOR = '/v1/payments-collector';
export const MEMBERS = '/_api/members/v1/members';
export const REDIRECT_SESSION = '/headless/v1/redirect-session';
export const AUTHENTICATION = '/_api/iam/authentication';
export const RECOVERY = '/_iam/recovery/v1';
export const VERIFICATION = '/_api/iam/verification/v1';
export const CATALOG_READER = '/_api/catalog-reader-server/v1';
export const CATALOG_WRITER = '/_api/catalog-server/v1';
/** The stores `collections` module is sent verbatim (no host mapping). */
export const STORES_COLLECTIONS = '/v2/collections';
export const OAUTH_TOKEN = '/_api/oauth2/token';
export const GRAPHQL = '/graphql';
