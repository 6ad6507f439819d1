/**
 * Entities in the form the SDK returns them (system keys `_id/_createdDate/_updatedDate`,
 * timestamps as `Date`, money as decimal strings). Spec §3–§4.
 */
import type {
  ActivityStatus, AddressTag, EmailTag, FactorStatus, FactorType, Fieldset, IdentityPrivacyStatus, IdentityStatus,
  LineItemType, MemberStatus, PhoneTag, PrivacyStatus, SortOrder, SubscriptionFrequency,
} from './enums.js';

export type * from './enums.js';

// The cart, checkout and order answers: generated from the server's response schemas.
import type { Address, Cart, CatalogReference, Checkout, LineItem } from './generated/cart.js';
export type {
  Address, AddressWithContact, AppliedDiscount, BuyerInfo, CalculatedLineItem, CalculationErrors, Cart, CartResponse,
  CatalogReference, Checkout, CheckoutGiftCard, CheckoutLineItem, CheckoutResponse, DeliveryLogistics, DescriptionLine,
  EstimateTotalsResponse, FullAddressContactDetails, Image, ItemAvailability, LineItem, MultiCurrencyPrice, PageUrl,
  PhysicalProperties, PriceSummary, SelectedCarrierServiceOption, SelectedShippingOption, ShippingOption, TaxDetails,
  TaxSummary, Violation,
} from './generated/cart.js';
export type {
  Order, OrderActivity, OrderAppliedDiscount, OrderLineItem, OrderResponse, Price, SearchOrdersResponse, ShippingInformation,
} from './generated/orders.js';

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

export interface SubscriptionSettings {
  frequency?: SubscriptionFrequency;
  interval?: number;
  autoRenewal?: boolean;
  billingCycles?: number;
}

// ─── Cart and checkout ───────────────────────────────────────────────────────────────────────────

/** A line item to add (`catalogReference` and `quantity`; the rest is the answer's). */
export type LineItemInput = Partial<LineItem>;

/** An update of an answer's shape: any field, at any depth, may be left out. */
export type DeepPartial<T> = T extends Date ? T : T extends (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type CheckoutUpdate = DeepPartial<Checkout>;
export type CartUpdate = DeepPartial<Cart>;

export interface CustomLineItem {
  quantity: number;
  price: string;
  productName?: { original?: string };
  itemType?: { preset?: LineItemType; custom?: string };
  catalogReference?: CatalogReference;
  _id?: string;
}

// ─── Orders ──────────────────────────────────────────────────────────────────────────────────────

export interface CursorPagingMetadata {
  count?: number;
  cursors?: { next?: string; prev?: string };
  hasNext?: boolean;
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
export interface ProfileImage {
  id?: string;
  url?: string;
  width?: number;
  height?: number;
  altText?: string;
  filename?: string;
}
export interface MemberProfile {
  nickname?: string;
  slug?: string;
  photo?: ProfileImage;
  cover?: ProfileImage;
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

