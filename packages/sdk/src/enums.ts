/** Enumerations of the spec (§3–§9), as string unions: they cost nothing at run time. */

// §3 Entities
export type ChannelType =
  | 'UNSPECIFIED' | 'WEB' | 'POS' | 'EBAY' | 'AMAZON' | 'OTHER_PLATFORM' | 'WIX_APP_STORE' | 'WIX_INVOICES'
  | 'BACKOFFICE_MERCHANT' | 'WISH' | 'CLASS_PASS' | 'GLOBAL_E' | 'FACEBOOK' | 'ETSY' | 'TIKTOK' | 'FAIRE';
export type WeightUnit = 'UNSPECIFIED_WEIGHT_UNIT' | 'KG' | 'LB';
export type LengthUnit = 'UNKNOWN_LENGTH_UNIT' | 'KM' | 'MI';
export type ItemType = 'UNRECOGNISED' | 'PHYSICAL' | 'DIGITAL' | 'GIFT_CARD' | 'SERVICE';
export type LineItemType = ItemType | 'CUSTOM_AMOUNT_ITEM';
export type PaymentOptionType =
  | 'FULL_PAYMENT_ONLINE' | 'FULL_PAYMENT_OFFLINE' | 'MEMBERSHIP' | 'DEPOSIT_ONLINE' | 'MEMBERSHIP_OFFLINE';
export type ShippingRuleType = 'BY_TOTAL_WEIGHT' | 'BY_TOTAL_PRICE' | 'BY_TOTAL_QUANTITY';
export type ShippingRuleOperator = 'EQ' | 'GT' | 'GTE' | 'LT' | 'LTE';
export type TipType = 'PERCENTAGE' | 'AMOUNT' | 'CUSTOM';
export type TipSplit = 'EQUAL' | 'PROPORTIONAL';
export type TaxIdType = 'CPF' | 'CNPJ';
export type CustomFieldType = 'TEXT' | 'NUMBER' | 'DATE' | 'URL' | 'SOCIAL';
export type CustomFieldOrigin = 'CUSTOM' | 'CONTACT' | 'SYSTEM';
export type FieldVisibility = 'PUBLIC' | 'PRIVATE';
export type SocialNetwork =
  | 'FACEBOOK' | 'INSTAGRAM' | 'LINKEDIN' | 'TWITTER' | 'YOUTUBE' | 'PINTEREST' | 'TIKTOK' | 'DEVIANTART'
  | 'SOUNDCLOUD' | 'TUMBLR' | 'VIMEO' | 'VKONTAKTE' | 'ODNOKLASSNIKI' | 'OTHER';
export type MemberReportReason = 'SPAM' | 'IMPERSONATION' | 'HARASSMENT' | 'OTHER';
export type AddressTag = 'UNTAGGED' | 'HOME' | 'WORK' | 'BILLING' | 'SHIPPING';
export type EmailTag = 'UNTAGGED' | 'MAIN' | 'HOME' | 'WORK';
export type PhoneTag = 'UNTAGGED' | 'MAIN' | 'HOME' | 'MOBILE' | 'WORK' | 'FAX';
export type IdentityPrivacyStatus = 'UNDEFINED' | 'PUBLIC' | 'PRIVATE';
export type FactorType = 'PASSWORD' | 'SMS' | 'CALL' | 'EMAIL' | 'TOTP' | 'PUSH';
export type FactorStatus = 'ENABLED' | 'REQUIRE_ACTIVATION' | 'REQUIRE_REENROLL' | 'ENABLED_BY_RULE' | 'DISABLED_BY_RULE';
export type MfaReason = 'USER_SETTINGS' | 'HIGH_RISK_LOGIN';
export type TenantType = 'ACCOUNT' | 'SITE' | 'ROOT';
export type PendingReason = 'PENDING_ADMIN_APPROVAL_REQUIRED' | 'PENDING_EMAIL_VERIFICATION_REQUIRED';
export type VerificationTarget = 'EMAIL';
export type Prompt = 'login' | 'none' | 'consent' | 'select_account';
export type CallbackType = 'LOGOUT' | 'CHECKOUT' | 'AUTHORIZE';
export type LocationType = 'OWNER_BUSINESS' | 'OWNER_CUSTOM' | 'CUSTOM';
export type MembersAccountSection = 'ACCOUNT_INFO' | 'BOOKINGS' | 'ORDERS' | 'SUBSCRIPTIONS' | 'EVENTS';
export type Fieldset = 'PUBLIC' | 'EXTENDED' | 'FULL';
export type SortOrder = 'ASC' | 'DESC';

// §4 States
export type MemberStatus =
  | 'UNKNOWN' | 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE'
  | 'APPLICANT' | 'ACTIVE' | 'INACTIVE' | 'OFFLINE_ONLY';
export type ActivityStatus = 'UNKNOWN' | 'ACTIVE' | 'MUTED';
export type PrivacyStatus = 'UNKNOWN' | 'PRIVATE' | 'PUBLIC';
export type MemberAction = 'approve' | 'block' | 'disconnect' | 'mute' | 'unmute' | 'joinCommunity' | 'leaveCommunity';
export type IdentityStatus = 'PENDING' | 'ACTIVE' | 'DELETED' | 'BLOCKED' | 'OFFLINE';
export type OrderPaymentStatus =
  | 'UNSPECIFIED' | 'NOT_PAID' | 'PAID' | 'PARTIALLY_REFUNDED' | 'FULLY_REFUNDED' | 'PENDING' | 'PARTIALLY_PAID'
  | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED';
export type FulfillmentStatus = 'NOT_FULFILLED' | 'FULFILLED' | 'PARTIALLY_FULFILLED' | 'CANCELED';
export type OrderStatus = 'INITIALIZED' | 'APPROVED' | 'CANCELED' | 'PENDING' | 'REJECTED';
export type PaymentStatus =
  | 'APPROVED' | 'PENDING' | 'PENDING_MERCHANT' | 'CANCELED' | 'DECLINED' | 'REFUNDED' | 'PARTIALLY_REFUNDED'
  | 'AUTHORIZED' | 'VOIDED';
export type TransactionStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'SCHEDULED' | 'STARTED';
export type InvoiceStatus =
  | 'Draft' | 'Sent' | 'Processing' | 'Paid' | 'Overdue' | 'Void' | 'Deleted' | 'PartiallyPaid' | 'PartialAndOverdue';
export type DraftOrderChangeStatus = 'DRAFT' | 'COMMITTED';
export type ItemAvailabilityStatus = 'AVAILABLE' | 'NOT_FOUND' | 'NOT_AVAILABLE' | 'PARTIALLY_AVAILABLE';
export type TaxCalculation = 'NO_TAX_COLLECTED' | 'MANUAL_RATE' | 'AUTO_RATE' | 'FALLBACK_RATE';
export type SiteStatus = 'ENABLED' | 'DISABLED' | 'PENDING' | 'DEMO';
export type DeleteStatus = 'TRASH' | 'DELETED' | 'PENDING_PURGE' | 'PURGED_EXTERNALLY';
export type OrderActivityType =
  | 'ORDER_PLACED' | 'ORDER_PAID' | 'ORDER_FULFILLED' | 'ORDER_NOT_FULFILLED' | 'ORDER_CANCELED' | 'ORDER_REFUNDED'
  | 'MERCHANT_COMMENT' | 'DOWNLOAD_LINK_SENT' | 'TRACKING_NUMBER_ADDED' | 'TRACKING_NUMBER_EDITED'
  | 'TRACKING_LINK_ADDED' | 'SHIPPING_CONFIRMATION_EMAIL_SENT' | 'INVOICE_ADDED' | 'INVOICE_REMOVED'
  | 'INVOICE_SENT' | 'FULFILLER_EMAIL_SENT' | 'SHIPPING_ADDRESS_EDITED' | 'EMAIL_EDITED' | 'PICKUP_READY_EMAIL_SENT'
  | 'CUSTOM_ACTIVITY' | 'ORDER_PARTIALLY_PAID' | 'ORDER_PENDING' | 'ORDER_REJECTED';
/** Server auth states (`state` of register/login/verify answers). */
export type ServerAuthState =
  | 'SUCCESS' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_EMAIL_VERIFICATION' | 'STATUS_CHECK' | 'REQUIRE_MFA'
  | 'MFA_CHALLENGE' | 'REQUIRE_FIRST_FACTOR' | 'REQUIRE_MISSING_FIELDS' | 'UNKNOWN_STATE';

// §5 Server validation error kinds
export type ValidationRule =
  | 'VALIDATION' | 'OTHER' | 'MAX' | 'MIN' | 'MAX_LENGTH' | 'MIN_LENGTH' | 'MAX_SIZE' | 'MIN_SIZE' | 'FORMAT'
  | 'DECIMAL_LTE' | 'DECIMAL_GTE' | 'DECIMAL_LT' | 'DECIMAL_GT' | 'DECIMAL_MAX_SCALE' | 'INVALID_ENUM_VALUE'
  | 'REQUIRED_FIELD' | 'FIELD_NOT_ALLOWED' | 'ONE_OF_ALIGNMENT' | 'EXACT_LENGTH' | 'EXACT_SIZE'
  | 'REQUIRED_ONE_OF_FIELD';

// §6 Roles
export type MemberRole = 'MEMBER' | 'OWNER' | 'CONTRIBUTOR';
export type IdentityType = 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP';
export type OrderActorType = 'USER' | 'MEMBER' | 'CONTACT' | 'APP';
export type SignInActorKind = 'USER' | 'VISITOR' | 'MEMBER' | 'APP';

// §8 Reason lists
export type RefundUnavailableReason =
  | 'ALREADY_REFUNDED' | 'PROVIDER_IS_DOWN' | 'NOT_PAID' | 'ZERO_PRICE' | 'DISABLED_BY_PROVIDER' | 'PENDING_REFUND'
  | 'FORBIDDEN' | 'TRANSACTION_NOT_FOUND' | 'ORDER_IS_PENDING' | 'ORDER_IS_REJECTED' | 'ACCESS_DENIED'
  | 'INTERNAL_ERROR' | 'PARTIALLY_PAID' | 'DEPOSIT_ONLINE_ITEM';
export type PaymentActionUnavailableReason = 'EXPIRED' | 'NOT_SUPPORTED' | 'NOT_FOUND' | 'OFFLINE' | 'REQUIRES_CARD_READER';
export type OrderNotCollectableReason =
  | 'ORDER_CANCELLED' | 'ORDER_PAID' | 'ORDER_PENDING' | 'ORDER_REJECTED' | 'NO_PAYMENT_METHOD' | 'HAS_SUBSCRIPTIONS';
export type OrderImportFailure =
  | 'PARTIALLY_OR_FULLY_REFUNDED' | 'UNSUPPORTED_CHANNEL_TYPE' | 'ORDER_STATUS_IS_NOT_SUPPORTED'
  | 'CURRENCY_INCONSISTENCY' | 'WEIGHT_UNIT_INCONSISTENCY' | 'AMOUNTS_DO_NOT_ADD_UP' | 'ORDER_NOT_FOUND'
  | 'SUBSCRIPTION_LINE_ITEM_EXISTS' | 'UNSUPPORTED_CATALOG_ITEM' | 'TAXABLE_EXISTING_ADDITIONAL_FEE';
export type MemberCodeError = 'BAD_CODE' | 'NOT_FOUND' | 'SEND_CODE_ERROR';
export type ViolationSeverity = 'WARNING' | 'ERROR';
export type SuggestedFix = 'UNKNOWN_SUGGESTED_FIX' | 'REMOVE_LINE_ITEM';

// §9 Constants
export type SubscriptionFrequency = 'UNDEFINED' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
export type PickupDurationUnit = 'MINUTES' | 'HOURS' | 'DAYS';
export type Weekday = 'MON' | 'TUE' | 'WED' | 'THU' | 'FRI' | 'SAT' | 'SUN';
export type DiscountType = 'AMOUNT' | 'PERCENT' | 'FLAT' | 'PERCENTAGE' | 'GLOBAL' | 'SPECIFIC_ITEMS' | 'SHIPPING';
export type AdditionalFeeKind = 'HANDLING_FEE' | 'INSURANCE';
export type InventoryUpdateTrigger = 'ON_ORDER_PAID' | 'ON_ORDER_PLACED';
export type OrderEmailType = 'ORDER_PLACED' | 'DOWNLOAD_LINKS' | 'ORDER_SHIPPED' | 'ORDER_READY_FOR_PICKUP';
export type AsyncJobStatus = 'INITIALIZED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';
