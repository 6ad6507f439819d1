/**
 * Entities in the form the SDK returns them (system keys `_id/_createdDate/_updatedDate`,
 * timestamps as `Date`, money as decimal strings). Spec §3–§4.
 */
import type {
  Fieldset, LineItemType, SortOrder, SubscriptionFrequency,
} from './enums.js';

export type * from './enums.js';

// The cart, checkout and order answers: generated from the server's response schemas.
import type { Cart, CatalogReference, Checkout, LineItem } from './generated/cart.js';
import type { Product, StoresCollection } from './generated/catalog.js';
import type { DataCollection } from './generated/data.js';
import type { IdentityProfile } from './generated/identity.js';
import type { Member, MemberAddress } from './generated/members.js';
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

// The member answers: generated from the server's response schemas.
export type {
  CustomField, ListMembersResponse, Member, MemberAddress, MemberContact, MemberProfile, MemberResponse, ProfileImage,
} from './generated/members.js';
/** A member to create, or the fields of one to change. */
export type MemberInput = DeepPartial<Member>;
/** An address to save on a member (the server gives new ones their id). */
export type MemberAddressInput = Partial<MemberAddress>;

export interface OffsetPagingMetadata {
  count?: number;
  offset?: number;
  total?: number;
  tooManyToCount?: boolean;
}
export interface MembersOptions {
  fieldsets?: Fieldset[];
}

// The sign-in calls' answers: generated from the server's response schemas.
export type {
  Factor, Identity, IdentityProfile, IdentityResponse, MfaFactor, SignOnResponse, StartVerificationResponse, StateMachineResponse,
} from './generated/identity.js';
/** A profile to register with: any of the answer's fields. */
export type IdentityProfileInput = Partial<IdentityProfile>;

// ─── Redirects ───────────────────────────────────────────────────────────────────────────────────

export type { RedirectSession, RedirectSessionResponse } from './generated/redirects.js';

// ─── Catalog (stores v1): generated from the server's response schemas ───────────────────────────

export type {
  CollectionResponse, Product, ProductChoice, ProductMediaItem, ProductOption, ProductOptionsAvailabilityResponse, ProductPriceData,
  ProductResponse, ProductVariant, QueryCollectionsResponse, QueryCollectionsV1Response, QueryProductVariantsResponse, QueryProductsResponse,
  QueryProductsV1Response, SelectedVariant, StoresCollection, UpdateVariantsResponse,
} from './generated/catalog.js';
/** A product to create or the fields of one to change. */
export type ProductInput = DeepPartial<Product>;
/** A collection to create or the fields of one to change. */
export type StoresCollectionInput = DeepPartial<StoresCollection>;

// ─── Data collections ────────────────────────────────────────────────────────────────────────────

export type { DataCollection, DataCollectionFieldResponse, DataCollectionResponse, DataField, ListDataCollectionsResponse } from './generated/data.js';
/** A collection to create or update: any of the answer's fields. */
export type DataCollectionInput = DeepPartial<DataCollection>;

// ─── Misc ────────────────────────────────────────────────────────────────────────────────────────

export interface SortingEntry {
  fieldName: string;
  order?: SortOrder;
}

