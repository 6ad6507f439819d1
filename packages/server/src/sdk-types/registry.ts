/**
 * The response schemas the SDK's types are generated from (`npm run gen:sdk-types` writes
 * packages/sdk/src/generated/<file>). Each schema listed is declared under its `title`, with every
 * titled schema it reaches. `form`: `wire` for calls the SDK answers as sent (the back office),
 * `sdk` for generated-style modules, whose answers have `_id`-style keys and `Date`s.
 */
import * as backInStock from '../services/back-in-stock/wire-schemas.js';
import * as backOffice from '../services/backoffice/wire-schemas.js';
import * as catalog from '../services/catalog/wire-schemas.js';
import * as coupons from '../services/coupons/wire-schemas.js';
import * as data from '../services/data/wire-schemas.js';
import * as media from '../services/media/wire-schemas.js';
import * as members from '../services/members/wire-schemas.js';
import * as identity from '../services/identity/wire-schemas.js';
import * as invoices from '../services/invoices/wire-schemas.js';
import * as cart from '../services/cart/wire-schemas.js';
import * as checkout from '../services/checkout/wire-schemas.js';
import * as orders from '../services/orders/wire-schemas.js';
import * as orderImports from '../services/orders/import-wire-schemas.js';
import * as orderTransactions from '../services/orders/transactions-wire-schemas.js';
import * as payments from '../services/payments/wire-schemas.js';
import * as redirects from '../services/redirects/wire-schemas.js';
import * as reviews from '../services/reviews/wire-schemas.js';
import * as siteScripts from '../services/site-scripts/wire-schemas.js';
import * as sites from '../services/sites/wire-schemas.js';
import * as webhooks from '../services/webhooks/wire-schemas.js';
import type { TSchema } from 'typebox';

export interface SdkTypesFile {
  file: string;
  form: 'wire' | 'sdk';
  /** What the file is, for its header. */
  about: string;
  schemas: TSchema[];
}

export const SDK_TYPES: SdkTypesFile[] = [
  {
    file: 'invoices.ts',
    form: 'wire',
    about: 'the invoice calls of /bodega/v1 (back office and member account)',
    schemas: [invoices.Invoice, invoices.InvoiceSettings],
  },
  {
    file: 'back-office.ts',
    form: 'wire',
    about: "the back office's /bodega/v1 and /_api/bodega/v1 answers",
    schemas: [
      backOffice.BackOfficeMe, backOffice.Dashboard, backOffice.OrderPayments, backOffice.SearchResults, backOffice.ApiKeyInfo,
      backOffice.Mail, backOffice.MailSummary, backOffice.ImportJob,
      webhooks.WebhookSubscription, webhooks.WebhookDelivery, reviews.RatingSummary, sites.SiteSettings, siteScripts.SiteScript,
      payments.PaymentSettings, payments.PaymentOptions, payments.ConnectionTest, media.UploadedMedia, identity.SignedInSession,
      orderImports.OrderImportAnswer,
      coupons.CouponCreated, coupons.CouponResponse, coupons.CouponsPage,
    ],
  },
  {
    file: 'order-transactions.ts',
    form: 'wire',
    about: "an order's payments and refunds (@wix/ecom orderTransactions and the payments collector) as the SDK's payments module returns them",
    schemas: [orderTransactions.OrderTransactions],
  },
  {
    file: 'catalog.ts',
    form: 'sdk',
    about: 'the catalog answers (@wix/stores v1) the SDK returns in its own form (`_id`, `Date`)',
    schemas: [
      catalog.ProductResponse, catalog.ProductsPage, catalog.QueryProductsV1Response, catalog.VariantsResponse, catalog.QueryVariantsResponse,
      catalog.OptionsAvailabilityResponse, catalog.CollectionResponse, catalog.QueryCollectionsResponse, catalog.QueryCollectionsV1Response,
      backOffice.BulkProductsResponse,
    ],
  },
  {
    file: 'cart.ts',
    form: 'sdk',
    about: 'the cart and checkout answers (@wix/ecom) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [
      cart.CartResponse, cart.EstimateTotalsResponse,
      checkout.CheckoutResponse, checkout.CheckoutUrlResponse, checkout.CreateOrderResponse, checkout.CreateCheckoutResponse,
    ],
  },
  {
    file: 'orders.ts',
    form: 'sdk',
    about: 'the order answers (@wix/ecom) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [orders.OrderResponse, orders.SearchOrdersResponse, orders.BulkMarkAsPaidResponse],
  },
  {
    file: 'members.ts',
    form: 'sdk',
    about: 'the member answers (@wix/members) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [members.MemberResponse, members.ListMembersResponse],
  },
  {
    file: 'identity.ts',
    form: 'sdk',
    about: 'the sign-in answers (@wix/identity authentication, verification, recovery) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [identity.StateMachineResponse, identity.SignOnResponse, identity.IdentityResponse, identity.StartVerificationResponse],
  },
  {
    file: 'data.ts',
    form: 'sdk',
    about: 'the data collection answers (@wix/data collections) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [data.DataCollectionResponse, data.ListDataCollectionsResponse, data.DataCollectionFieldResponse],
  },
  {
    file: 'data-items.ts',
    form: 'wire',
    about: 'the data item and index answers (@wix/data items, indexes) as sent: the items module turns `$date` values into Dates itself',
    schemas: [
      data.DataItemResponse, data.DataItemsPage, data.CountResponse, data.DistinctValuesPage, data.AggregatePage, data.BulkDataItemsResponse,
      data.BulkReferencesResponse, data.ReferencedItemsPage, data.IsReferencedResponse, data.JobResponse, data.JobStatusResponse,
      data.DataIndexResponse, data.DataIndexesPage, data.AvailableIndexes,
    ],
  },
  {
    file: 'reviews.ts',
    form: 'sdk',
    about: 'the review answers (@wix/reviews) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [reviews.ReviewResponse, reviews.ReviewsPage, reviews.CountReviewsResponse],
  },
  {
    file: 'back-in-stock.ts',
    form: 'sdk',
    about: 'the back-in-stock answers (@wix/ecom backInStockNotifications) in the form the SDK returns them (`_id`, `Date`)',
    schemas: [backInStock.BackInStockRequestResponse, backInStock.BackInStockRequestsPage],
  },
  {
    file: 'redirects.ts',
    form: 'sdk',
    about: 'the redirect session answer (@wix/redirects) in the form the SDK returns it (`_id`)',
    schemas: [redirects.RedirectSessionResponse],
  },
];
