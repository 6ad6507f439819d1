/**
 * @bodega/sdk — a client for Bodega servers, call-compatible with the official `@wix/sdk` family.
 * Every export is its own module: import only what you use.
 */
export { createClient } from './client.js';
export type { BodegaClient, ClientOptions, GraphQLError, GraphQLResult, Module } from './client.js';

export { BodegaError } from './core/errors.js';
export type { ApplicationError, ErrorDetails, FieldViolation } from './core/errors.js';
export type { Transport, WireRequest, HttpMethod, UploadRequest } from './core/transport.js';
export type { PlatformPage, PlatformQueryBuilder } from './core/platform-query.js';

export { OAuthStrategy } from './auth/oauth.js';
export type {
  AuthUrl, AuthUrlOptions, LoginParams, OAuthStrategyOptions, ParsedRedirect, RegisterParams, ResponseMode,
} from './auth/oauth.js';
export type { OAuthStrategy as OAuthAuth } from './auth/oauth.js';
export { ApiKeyStrategy } from './auth/api-key.js';
export type { ApiKeyAuth, ApiKeyStrategyOptions } from './auth/api-key.js';
export type { AuthStrategy } from './auth/strategy.js';
export { cookieTokenStorage, emptyTokens, localStorageTokenStorage, memoryTokenStorage } from './auth/storage.js';
export type { CookieTokenStorageOptions, LocalStorageTokenStorageOptions, TokenStorage } from './auth/storage.js';
export { codeChallengeS256, createCodeVerifier } from './auth/pkce.js';
export type { FrameHost } from './auth/silent-frame.js';

export { items } from './modules/items/index.js';
export type {
  AsyncJob, AsyncJobStatus, BulkInsertOptions, DataItem, DataOptions, DataPage, BulkResult, FieldModification,
  Filter, FindOptions, PatchOptions, QueryReferencedOptions, QueryRequest, WriteOptions,
} from './modules/items/index.js';
export { BulkError, DataAggregate, DataFilter, DataPatch, DataQuery, DataSearch } from './modules/items/index.js';
export { dataCollections } from './modules/data-collections.js';
export { dataIndexes } from './modules/data-indexes.js';
export type { DataIndex, DataIndexField, DataIndexStatus } from './modules/data-indexes.js';
export { products } from './modules/products.js';
export { storesCollections } from './modules/stores-collections.js';
export { catalogSearch } from './modules/catalog-search.js';
export type {
  CatalogSearchApi, CatalogSearchFacets, CatalogSearchFilters, CatalogSearchHit, CatalogSearchRequest, CatalogSearchResponse,
  CatalogSearchSort, CatalogSuggestions, NameHighlight,
} from './modules/catalog-search.js';
export { currentCart } from './modules/current-cart.js';
export { checkout } from './modules/checkout.js';
export { orders } from './modules/orders.js';
export { tips, TIPS_APP_ID, type Tip, type TipChoice, type TipSettings, type TipType } from './modules/tips.js';
export { orderFulfillments } from './modules/order-fulfillments.js';
export { draftOrders } from './modules/draft-orders.js';
export type {
  CalculatedDraftOrder, CatalogLineItemInput, CustomLineItemInput, DraftDiscountInput, DraftLineItem, DraftOrder, DraftOrderAnswer, DraftOrderInput,
  DraftOrdersApi, DraftPrice, DraftShippingOption,
} from './modules/draft-orders.js';
export { orderPaymentRequests } from './modules/order-payment-requests.js';
export type { NewOrderPaymentRequest, OrderPaymentRequest, OrderPaymentRequestsApi, OrderPaymentRequestStatus } from './modules/order-payment-requests.js';
export type { Fulfillment, FulfillmentTrackingInfo, OrderWithFulfillments } from './modules/order-fulfillments.js';
export { inventory } from './modules/inventory.js';
export type { InventoryItemUpdate, InventoryVariantUpdate } from './modules/inventory.js';
export { members } from './modules/members.js';
export { redirects, type CheckoutHandover } from './modules/redirects.js';
export { authentication } from './modules/authentication.js';
export { security } from './modules/security.js';
export { passkeys } from './modules/passkeys.js';
export type { Passkey, PasskeyCeremony, PasskeyCredentialJson } from './modules/passkeys.js';
export type { RememberedDevice, SecurityFactor, SecurityOverview, SignedInSession, TotpEnrolment } from './modules/security.js';
export { recovery } from './modules/recovery.js';
export { verification } from './modules/verification.js';
export { reviews, STORES_REVIEWS_NAMESPACE } from './modules/reviews.js';
export type { NewReview, RatingSummary, Review, ReviewContent, ReviewModerationStatus, ReviewsPage, ReviewsQuery } from './modules/reviews.js';
export { backInStock, STORES_CATALOG_APP_ID } from './modules/back-in-stock.js';
export type { BackInStockCatalogReference, BackInStockItemDetails, BackInStockRequest, BackInStockStatus } from './modules/back-in-stock.js';

// The back office: Bodega's /bodega/v1 calls and the settings calls it uses.
export { media } from './modules/media.js';
export type { MediaApi, UploadedMedia, UploadOptions } from './modules/media.js';
export { giftCards } from './modules/gift-cards.js';
export { digital } from './modules/digital.js';
export { invoices } from './modules/invoices.js';
export type { Invoice, InvoicePage, InvoiceSettings, InvoiceStatus, InvoicesApi, ListInvoicesOptions } from './modules/invoices.js';
export type { DigitalApi, DigitalFile, DigitalProduct, Download, DownloadRules } from './modules/digital.js';
export type { GiftCard, GiftCardCustomAmounts, GiftCardLedgerEntry, GiftCardMoney, GiftCardSettings, GiftCardsApi, IssueGiftCardInput } from './modules/gift-cards.js';
export { backOffice, BACK_OFFICE_PATH } from './modules/back-office.js';
export type {
  ApiKeyInfo, BackOfficeApi, BackOfficeMe, BackOfficeRole, BulkProductAdjust, BulkProductSet, BulkProductsResponse,
  CreateImportJobInput, Dashboard, DashboardOptions, DayFigures, ExportKind, ImportFormat, ImportJob, ImportJobStatus,
  ImportTarget, ListMailsOptions, LowStockItem, Mail, MailStatus, MailSummary, OrdersExportFilters, PropertyAdjustment,
  RecentOrder, SalesFigures, SearchResults,
} from './modules/back-office.js';
export type { BackOfficeProductsOptions, StockFilter } from './modules/back-office.js';
export type { OrderPayment, OrderPayments } from './modules/back-office.js';
export type { OrderImportAnswer, OrderImportResult } from './modules/back-office.js';
export { auditLog } from './modules/audit-log.js';
export type { AuditActorKind, AuditEntry, AuditFilters, AuditLogApi, AuditLogSettings } from './modules/audit-log.js';
export { backOfficeSettings } from './modules/back-office-settings.js';
export type {
  AdditionalFeeSetting, BackOfficeSettingsApi, CommerceSettings, TipSettingsSetting, Coupon, CouponSpecification, CouponSpecificationPatch, DeliveryStatus, PickupOption, ShippingRegion,
  ShippingRule, ShippingRuleOperator, ShippingRuleType, SignupPolicy, SiteScript, SiteSettings, SiteSettingsPatch, DomainStatus, TaxRate,
  WebhookDelivery, WebhookFormat, WebhookInput, WebhookSubscription,
} from './modules/back-office-settings.js';

export { payments } from './modules/payments.js';
export type {
  CapturePolicy, OfflineMethod, OrderTransactions, PaymentLink, PaymentOptions, PaymentProviderName, PaymentSettings, PaymentSettingsPatch, PaymentsApi,
  TransactionPayment, TransactionRefund,
} from './modules/payments.js';

export * from './types.js';

export * from './limits.js';
