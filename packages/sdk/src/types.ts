/**
 * Entities in the form the SDK returns them (system keys `_id/_createdDate/_updatedDate`,
 * timestamps as `Date`, money as decimal strings). Spec §3–§4.
 */
import type {
  ActivityStatus, AddressTag, ChannelType, DiscountType, EmailTag, FactorStatus,
  FactorType, Fieldset, FulfillmentStatus, IdentityPrivacyStatus, IdentityStatus, ItemAvailabilityStatus, ItemType,
  LineItemType, MemberStatus, OrderActivityType, OrderPaymentStatus, OrderStatus, PaymentOptionType, PhoneTag,
  PrivacyStatus, SortOrder, SubscriptionFrequency, SuggestedFix, ViolationSeverity, WeightUnit,
} from './enums.js';

export type * from './enums.js';

// ─── Tokens and sign-in (spec §3 Tokens, §4 token roles and login states) ─────────────────────────

export type TokenRole = 'none' | 'visitor' | 'member';
export const TokenRole = { NONE: 'none', VISITOR: 'visitor', MEMBER: 'member' } as const;

export interface AccessToken {
  value: string;
  /** Epoch seconds. */
  expiresAt: number;
}
export interface RefreshToken {
  value: string;
  role: TokenRole;
}
export interface Tokens {
  accessToken: AccessToken;
  refreshToken: RefreshToken;
}

export type LoginState =
  | 'INITIAL' | 'SUCCESS' | 'FAILURE' | 'EMAIL_VERIFICATION_REQUIRED' | 'OWNER_APPROVAL_REQUIRED'
  | 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED';
export const LoginState = {
  INITIAL: 'INITIAL',
  SUCCESS: 'SUCCESS',
  FAILURE: 'FAILURE',
  EMAIL_VERIFICATION_REQUIRED: 'EMAIL_VERIFICATION_REQUIRED',
  OWNER_APPROVAL_REQUIRED: 'OWNER_APPROVAL_REQUIRED',
  USER_CAPTCHA_REQUIRED: 'USER_CAPTCHA_REQUIRED',
  SILENT_CAPTCHA_REQUIRED: 'SILENT_CAPTCHA_REQUIRED',
} as const;

export type LoginErrorCode =
  | 'invalidEmail' | 'invalidPassword' | 'resetPassword' | 'missingCaptchaToken' | 'emailAlreadyExists'
  | 'invalidCaptchaToken';

export type StateMachine =
  | { loginState: 'INITIAL' }
  | { loginState: 'SUCCESS'; data: { sessionToken: string } }
  | { loginState: 'EMAIL_VERIFICATION_REQUIRED'; data: { stateToken: string } }
  | { loginState: 'OWNER_APPROVAL_REQUIRED' }
  | { loginState: 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED' }
  | { loginState: 'FAILURE'; error: string; errorCode?: LoginErrorCode };

export interface OAuthData {
  codeVerifier: string;
  codeChallenge: string;
  state: string;
  redirectUri?: string;
  originalUri?: string;
}

export interface CaptchaTokens {
  recaptchaToken?: string;
  invisibleRecaptchaToken?: string;
}

// ─── Shared commerce pieces ──────────────────────────────────────────────────────────────────────

export interface MultiCurrencyPrice {
  amount?: string;
  convertedAmount?: string;
  formattedAmount?: string;
  formattedConvertedAmount?: string;
}
export interface Address {
  country?: string;
  subdivision?: string;
  city?: string;
  postalCode?: string;
  addressLine?: string;
  addressLine2?: string;
  streetAddress?: { number?: string; name?: string; apt?: string };
  countryFullname?: string;
  subdivisionFullname?: string;
  formattedAddress?: string;
  geocode?: { latitude?: number; longitude?: number };
}
export interface FullAddressContactDetails {
  firstName?: string;
  lastName?: string;
  phone?: string;
  company?: string;
  vatId?: { id?: string; type?: 'CPF' | 'CNPJ' };
}
export interface AddressWithContact {
  address?: Address;
  contactDetails?: FullAddressContactDetails;
}
export interface CatalogReference {
  catalogItemId: string;
  appId: string;
  options?: Record<string, unknown>;
}
export interface Image {
  id?: string;
  url?: string;
  width?: number;
  height?: number;
  altText?: string;
  filename?: string;
}
export interface PageUrl {
  relativePath?: string;
  url?: string;
}
export interface PhysicalProperties {
  weight?: number;
  sku?: string;
  shippable?: boolean;
}
export interface SubscriptionSettings {
  frequency?: SubscriptionFrequency;
  interval?: number;
  autoRenewal?: boolean;
  billingCycles?: number;
}
export interface AppliedDiscount {
  discountType?: DiscountType;
  coupon?: { _id?: string; code?: string; amount?: MultiCurrencyPrice; name?: string };
  merchantDiscount?: { amount?: MultiCurrencyPrice; percentage?: number };
  lineItemIds?: string[];
}
export interface Violation {
  severity?: ViolationSeverity;
  target?: { lineItem?: { _id?: string; name?: string } };
  description?: string;
  suggestedFix?: SuggestedFix;
}
export interface SelectedShippingOption {
  carrierId?: string;
  code: string;
}
export interface PriceSummary {
  subtotal?: MultiCurrencyPrice;
  shipping?: MultiCurrencyPrice;
  tax?: MultiCurrencyPrice;
  discount?: MultiCurrencyPrice;
  total?: MultiCurrencyPrice;
  additionalFees?: MultiCurrencyPrice;
}

// ─── Cart and checkout ───────────────────────────────────────────────────────────────────────────

export interface LineItem {
  _id?: string;
  quantity?: number;
  catalogReference?: CatalogReference;
  productName?: { original?: string; translated?: string };
  url?: PageUrl;
  price?: MultiCurrencyPrice;
  fullPrice?: MultiCurrencyPrice;
  priceBeforeDiscounts?: MultiCurrencyPrice;
  lineItemPrice?: MultiCurrencyPrice;
  descriptionLines?: Record<string, unknown>[];
  image?: Image;
  availability?: { status?: ItemAvailabilityStatus; quantityAvailable?: number };
  physicalProperties?: PhysicalProperties;
  itemType?: { preset?: ItemType; custom?: string };
  paymentOption?: PaymentOptionType;
  serviceProperties?: { scheduledDate?: Date; numberOfParticipants?: number };
  subscriptionOptionInfo?: { subscriptionSettings?: SubscriptionSettings; title?: Record<string, string> };
  catalogOverrideFields?: Record<string, unknown>;
  taxDetails?: { taxableAmount?: MultiCurrencyPrice; taxRate?: string; totalTax?: MultiCurrencyPrice };
}
export interface CustomLineItem {
  quantity: number;
  price: string;
  productName?: { original?: string };
  itemType?: { preset?: LineItemType; custom?: string };
  catalogReference?: CatalogReference;
  _id?: string;
}
export interface BuyerInfo {
  visitorId?: string;
  memberId?: string;
  userId?: string;
  contactId?: string;
  email?: string;
}
export interface Cart {
  _id?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  lineItems: LineItem[];
  buyerNote?: string;
  buyerInfo?: BuyerInfo;
  currency?: string;
  conversionCurrency?: string;
  buyerLanguage?: string;
  siteLanguage?: string;
  taxIncludedInPrices?: boolean;
  weightUnit?: WeightUnit;
  subtotal?: MultiCurrencyPrice;
  appliedDiscounts?: AppliedDiscount[];
  contactInfo?: AddressWithContact;
  selectedShippingOption?: SelectedShippingOption;
  checkoutId?: string;
  purchaseFlowId?: string;
  businessLocationId?: string;
  overrideCheckoutUrl?: string;
}
export interface CartResponse {
  cart?: Cart;
}
export interface EstimateTotalsResponse {
  cart?: Cart;
  calculatedLineItems?: Record<string, unknown>[];
  priceSummary?: PriceSummary;
  shippingInfo?: Record<string, unknown>;
  appliedDiscounts?: AppliedDiscount[];
  membershipOptions?: Record<string, unknown>;
  calculationErrors?: Record<string, unknown>;
  violations?: Violation[];
  taxSummary?: Record<string, unknown>;
  currency?: string;
  weightUnit?: WeightUnit;
}
export interface Checkout {
  _id?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  lineItems: LineItem[];
  customLineItems?: CustomLineItem[];
  billingInfo?: AddressWithContact;
  shippingInfo?: Record<string, unknown>;
  buyerNote?: string;
  buyerInfo?: BuyerInfo;
  conversionCurrency?: string;
  priceSummary?: PriceSummary;
  calculationErrors?: Record<string, unknown>;
  /** The first gift card entered (Wix holds one); `giftCards`: all of them (Bodega). */
  giftCard?: CheckoutGiftCard;
  giftCards?: CheckoutGiftCard[];
  appliedDiscounts?: AppliedDiscount[];
  customFields?: Record<string, unknown>[];
  weightUnit?: WeightUnit;
  taxSummary?: Record<string, unknown>;
  currency?: string;
  channelType?: ChannelType;
  siteLanguage?: string;
  buyerLanguage?: string;
  completed?: boolean;
  taxIncludedInPrice?: boolean;
  cartId?: string;
  payNow?: PriceSummary;
  payLater?: PriceSummary;
  membershipOptions?: Record<string, unknown>;
  subscriptionCharges?: Record<string, unknown>;
  carrierServiceOptions?: Record<string, unknown>[];
  violations?: Violation[];
  purchaseFlowId?: string;
}

// ─── Orders ──────────────────────────────────────────────────────────────────────────────────────

export interface OrderLineItem {
  _id?: string;
  productName?: { original?: string; translated?: string };
  catalogReference?: CatalogReference;
  quantity?: number;
  totalDiscount?: MultiCurrencyPrice;
  descriptionLines?: Record<string, unknown>[];
  image?: Image;
  physicalProperties?: PhysicalProperties;
  itemType?: { preset?: ItemType; custom?: string };
  fulfillerId?: string;
  refundQuantity?: number;
  restockQuantity?: number;
  price?: MultiCurrencyPrice;
  priceBeforeDiscounts?: MultiCurrencyPrice;
  /** price × quantity, before the order's discounts and tax: the lines add up to the subtotal. */
  lineItemPrice?: MultiCurrencyPrice;
  totalPriceBeforeTax?: MultiCurrencyPrice;
  totalPriceAfterTax?: MultiCurrencyPrice;
  paymentOption?: PaymentOptionType;
  taxDetails?: Record<string, unknown>;
  url?: PageUrl;
  serviceProperties?: { scheduledDate?: Date; numberOfParticipants?: number };
  subscriptionInfo?: Record<string, unknown>;
}
export interface OrderActivity {
  _id?: string;
  _createdDate?: Date;
  type?: OrderActivityType;
  author?: string;
  customActivity?: Record<string, unknown>;
  merchantComment?: { message?: string };
  /** On ORDER_REFUNDED: how much was refunded, and why. */
  orderRefunded?: { manual?: boolean; amount?: MultiCurrencyPrice; reason?: string };
}
export interface ShippingInformation {
  carrierId?: string;
  code?: string;
  title?: string;
  logistics?: {
    deliveryTime?: string;
    instructions?: string;
    pickupDetails?: Record<string, unknown>;
    shippingDestination?: AddressWithContact;
    deliveryTimeSlot?: { from?: Date; to?: Date };
    deliverByDate?: Date;
  };
  cost?: Record<string, unknown>;
  region?: { name?: string };
}
export interface Order {
  _id?: string;
  number?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  purchasedDate?: Date;
  lineItems: OrderLineItem[];
  buyerInfo?: BuyerInfo;
  paymentStatus?: OrderPaymentStatus;
  fulfillmentStatus?: FulfillmentStatus;
  status?: OrderStatus;
  buyerLanguage?: string;
  weightUnit?: WeightUnit;
  currency?: string;
  taxIncludedInPrices?: boolean;
  siteLanguage?: string;
  priceSummary?: PriceSummary;
  billingInfo?: AddressWithContact;
  shippingInfo?: ShippingInformation;
  recipientInfo?: AddressWithContact;
  buyerNote?: string;
  archived?: boolean;
  taxSummary?: Record<string, unknown>;
  appliedDiscounts?: AppliedDiscount[];
  activities?: OrderActivity[];
  attributionSource?: string;
  channelInfo?: { type?: ChannelType; externalOrderId?: string; externalOrderUrl?: string };
  checkoutId?: string;
  customFields?: Record<string, unknown>[];
  /** What is left to pay, what was paid and refunded. */
  balanceSummary?: { balance?: MultiCurrencyPrice; paid?: MultiCurrencyPrice; refunded?: MultiCurrencyPrice; authorized?: MultiCurrencyPrice; pending?: MultiCurrencyPrice };
  additionalFees?: Record<string, unknown>[];
  purchaseFlowId?: string;
}
export interface CursorPagingMetadata {
  count?: number;
  cursors?: { next?: string; prev?: string };
  hasNext?: boolean;
}
export interface SearchOrdersResponse {
  orders: Order[];
  metadata?: CursorPagingMetadata;
}

// ─── Members and identity ────────────────────────────────────────────────────────────────────────

export interface MemberAddress {
  _id?: string;
  tag?: AddressTag;
  addressLine?: string;
  addressLine2?: string;
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
}
export interface CustomField {
  name?: string;
  value?: { text?: string; number?: number; date?: Date | string; url?: string };
}
export interface MemberContact {
  contactId?: string;
  firstName?: string;
  lastName?: string;
  phones?: string[];
  emails?: string[];
  addresses?: MemberAddress[];
  birthdate?: string;
  company?: string;
  jobTitle?: string;
  customFields?: Record<string, CustomField>;
}
export interface MemberProfile {
  nickname?: string;
  slug?: string;
  photo?: Image;
  cover?: Image;
  title?: string;
}
export interface Member {
  _id?: string;
  loginEmail?: string;
  loginEmailVerified?: boolean;
  status?: MemberStatus;
  contactId?: string;
  contact?: MemberContact;
  profile?: MemberProfile;
  privacyStatus?: PrivacyStatus;
  activityStatus?: ActivityStatus;
  _createdDate?: Date;
  _updatedDate?: Date;
  lastLoginDate?: Date;
  /** Bodega addition: the member's role, shown to the site's admins and to the member. */
  role?: 'MEMBER' | 'CONTRIBUTOR' | 'OWNER';
}
export interface MemberResponse {
  member?: Member;
}
export interface OffsetPagingMetadata {
  count?: number;
  offset?: number;
  total?: number;
  tooManyToCount?: boolean;
}
export interface ListMembersResponse {
  members: Member[];
  metadata?: OffsetPagingMetadata;
}
export interface MembersOptions {
  fieldsets?: Fieldset[];
}

export interface IdentityCustomField {
  name?: string;
  value?: { strValue?: string; numValue?: number; dateValue?: Date | string; listValue?: unknown };
}
export interface IdentityProfile {
  firstName?: string;
  lastName?: string;
  nickname?: string;
  picture?: string;
  emails?: { email?: string; tag?: EmailTag }[];
  phones?: { phone?: string; countryCode?: string; tag?: PhoneTag }[];
  addresses?: { address?: Address; tag?: AddressTag }[];
  customFields?: IdentityCustomField[];
  privacyStatus?: IdentityPrivacyStatus;
  language?: string;
  birthdate?: string;
  position?: string;
  company?: string;
  labels?: string[];
}
export interface Factor {
  factorId?: string;
  type?: FactorType;
  status?: FactorStatus;
}
export interface Identity {
  _id?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  revision?: string;
  connections?: Record<string, unknown>[];
  identityProfile?: IdentityProfile;
  metadata?: { tags?: string[] };
  email?: { address?: string; isVerified?: boolean };
  status?: { name?: IdentityStatus; reasons?: string[] };
  factors?: Factor[];
}
export interface MfaFactor {
  factorType?: string;
  factorStatus?: string;
}

export interface StateMachineResponse {
  state?: string;
  sessionToken?: string;
  stateToken?: string;
  identity?: Identity;
  additionalData?: Record<string, unknown>;
  /** REQUIRE_MFA: the factors the member may finish with, and why one is asked. */
  requireMfaData?: { availableFactors?: MfaFactor[]; reason?: string };
  /** MFA_CHALLENGE: a code was sent (EMAIL); `hint` names where. */
  mfaChallengeData?: {
    factorType?: string;
    /** WEBAUTHN: `webauthnData` is the passkey challenge (request options as JSON). */
    verificationChallengeData?: { hint?: string; webauthnData?: { challengeId?: string; publicKeyCredentialRequestOptionsJson?: string } };
    availableFactors?: MfaFactor[];
    reason?: string;
  };
}

// ─── Redirects ───────────────────────────────────────────────────────────────────────────────────

export interface RedirectSession {
  _id?: string;
  fullUrl?: string;
  shortUrl?: string;
  sessionToken?: string;
  urlDetails?: { endpoint?: string; searchParams?: Record<string, string> };
}

// ─── Catalog (stores v1) ─────────────────────────────────────────────────────────────────────────

export interface ProductPriceData {
  currency?: string;
  price?: number;
  discountedPrice?: number;
  formatted?: { price?: string; discountedPrice?: string };
}
export interface Product {
  _id?: string;
  name?: string;
  slug?: string;
  visible?: boolean;
  productType?: 'physical' | 'digital' | 'unspecified_product_type';
  description?: string;
  sku?: string;
  weight?: number;
  stock?: { trackInventory?: boolean; quantity?: number; inStock?: boolean; inventoryStatus?: string };
  price?: ProductPriceData;
  priceData?: ProductPriceData;
  convertedPriceData?: ProductPriceData;
  /** The lowest and highest price a shopper pays over the variants (after the product's discount). */
  priceRange?: { minValue?: number; maxValue?: number };
  media?: { mainMedia?: Record<string, unknown>; items?: Record<string, unknown>[] };
  customTextFields?: Record<string, unknown>[];
  manageVariants?: boolean;
  productOptions?: Record<string, unknown>[];
  productPageUrl?: { base?: string; path?: string };
  numericId?: string;
  inventoryItemId?: string;
  discount?: { type?: string; value?: number };
  collectionIds?: string[];
  variants?: Record<string, unknown>[];
  lastUpdated?: Date;
  _createdDate?: Date;
  ribbon?: string;
  brand?: string;
}
export interface StoresCollection {
  _id?: string;
  name?: string;
  media?: Record<string, unknown>;
  numberOfProducts?: number;
  description?: string;
  slug?: string;
  visible?: boolean;
}

// ─── Data collections ────────────────────────────────────────────────────────────────────────────

export interface DataCollection {
  _id?: string;
  displayName?: string;
  displayField?: string;
  fields?: Record<string, unknown>[];
  permissions?: Record<string, unknown>;
  collectionType?: string;
  plugins?: Record<string, unknown>[];
  revision?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
}

// ─── Misc ────────────────────────────────────────────────────────────────────────────────────────

export interface SortingEntry {
  fieldName: string;
  order?: SortOrder;
}

/** A gift card on a checkout: what it pays of the total (`priceSummary.total` is what is left). */
export interface CheckoutGiftCard {
  _id?: string;
  obfuscatedCode?: string;
  amount?: { amount?: string; formattedAmount?: string };
  appId?: string;
  error?: { applicationError?: { code?: string; description?: string } };
}
