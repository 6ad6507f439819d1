/**
 * The back office's settings calls that already exist on the server: site settings, commerce
 * settings (shipping, pickup, tax, inventory trigger), coupons and webhooks with their deliveries.
 */
import { enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type {
  CouponCreated, CouponResponse, CouponsPage, DeliveryStatus, SiteScript, SiteSettings, WebhookDelivery, WebhookFormat, WebhookSubscription, DomainStatus,
} from '../generated/back-office.js';

export type {
  Coupon, CouponCreated, CouponResponse, CouponsPage, DeliveryStatus, DomainStatus, SignupPolicy, SiteScript, SiteSettings, WebhookDelivery, WebhookFormat, WebhookSubscription,
} from '../generated/back-office.js';

const SITE_SETTINGS = '/_api/bodega/v1/site-settings';
const COMMERCE_SETTINGS = '/_api/bodega/v1/commerce-settings';
const COUPONS = '/_api/bodega/v1/coupons';
const WEBHOOKS = '/bodega/v1/webhooks';
const SITE_SCRIPTS = '/_api/bodega/v1/site-scripts';

/** Every field optional; `domains` replaces the list (new names start PENDING). */
export type SiteSettingsPatch = Partial<Omit<SiteSettings, 'domainStatus'>>;

export type ShippingRuleType = 'BY_TOTAL_WEIGHT' | 'BY_TOTAL_PRICE' | 'BY_TOTAL_QUANTITY';
export type ShippingRuleOperator = 'EQ' | 'GT' | 'GTE' | 'LT' | 'LTE';

export interface ShippingRule {
  code: string;
  title: string;
  /** Decimal string. */
  rate: string;
  deliveryTime?: string;
  type: ShippingRuleType;
  operator: ShippingRuleOperator;
  /** Decimal string: an amount, a weight or a whole quantity, by `type`. */
  threshold: string;
}

export interface ShippingRegion {
  id: string;
  name: string;
  /** ISO country code, or `*` for everywhere else. */
  country: string;
  subdivision?: string;
  taxShipping?: boolean;
  rules: ShippingRule[];
}

export interface PickupOption {
  code: string;
  title: string;
  cost: string;
  instructions?: string;
  address?: Record<string, unknown>;
}

export interface TaxRate {
  country: string;
  subdivision?: string;
  /** Percent as a decimal string: `"7.25"` for 7.25 %. */
  rate: string;
  name?: string;
}

export interface CommerceSettings {
  inventoryUpdateTrigger?: 'ON_ORDER_PLACED' | 'ON_ORDER_PAID';
  weightUnit?: 'KG' | 'LB';
  shippingRegions?: ShippingRegion[];
  pickupOptions?: PickupOption[];
  tax?: { pricesIncludeTax?: boolean; taxShipping?: boolean; rates: TaxRate[] } | null;
  paymentProvider?: string;
  /** Handling and insurance on orders with physical goods: an `amount` or a `percent` of the goods after discounts each. */
  additionalFees?: AdditionalFeeSetting[];
  /** Tips at checkout (also the official tipSettings calls); replaced as a whole when sent. */
  tips?: TipSettingsSetting;
}

export interface AdditionalFeeSetting {
  kind: 'HANDLING_FEE' | 'INSURANCE';
  name: string;
  /** Decimal strings: exactly one of them. */
  amount?: string;
  percent?: string;
  taxable?: boolean;
}

export interface TipSettingsSetting {
  /** Whether the shop's checkout offers tips (off by default). */
  enabled?: boolean;
  /** What the presets are: percentages of the goods after discounts, or amounts. */
  tipType?: 'PERCENTAGE' | 'AMOUNT';
  /** 1 to 3 presets (decimal strings); at most one is the suggested one. */
  presets?: { value: string; default?: boolean }[];
  /** Whether a shopper may enter an amount of their own. */
  allowCustomAmount?: boolean;
  /** How the tip is split among staff, kept on each order as given. */
  split?: 'EQUAL' | 'PROPORTIONAL';
}

/**
 * The Wix coupons API's specification; give `moneyOffAmount` or `percentOffRate`. Amounts and the
 * percent may be sent as decimal strings ("7.50"); they are answered as numbers, as Wix does.
 */
export interface CouponSpecification {
  name: string;
  code: string;
  startTime?: string;
  expirationTime?: string;
  usageLimit?: number;
  minimumSubtotal?: number | string;
  moneyOffAmount?: number | string;
  percentOffRate?: number | string;
  productIds?: string[];
  active?: boolean;
}

/** What an update changes: absent fields stay, null clears one. A coupon's kind cannot change. */
export type CouponSpecificationPatch = Partial<Pick<CouponSpecification, 'name' | 'code' | 'moneyOffAmount' | 'percentOffRate' | 'active'>> & {
  [K in 'startTime' | 'expirationTime' | 'usageLimit' | 'minimumSubtotal' | 'productIds']?: CouponSpecification[K] | null;
};


export interface WebhookInput {
  url: string;
  eventTypes: string[];
  format?: WebhookFormat;
}

export function backOfficeSettings(t: Transport) {
  const send = <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: Record<string, unknown>, query?: string) =>
    t.send<T>({ method, path, ...(payload && { payload }), ...(query !== undefined && { query }) });
  const hook = (id: string) => `${WEBHOOKS}/${enc(id)}`;
  return {
    getSiteSettings: () => send<{ settings: SiteSettings }>('GET', SITE_SETTINGS),
    updateSiteSettings: (settings: SiteSettingsPatch) => send<{ settings: SiteSettings }>('PATCH', SITE_SETTINGS, { settings }),
    /** Checks a PENDING domain's TXT record or well-known file now. */
    verifyDomain: (domain: string) => send<{ domainStatus: DomainStatus }>('POST', `${SITE_SETTINGS}/domains/verify`, { domain }),
    listSiteScripts: () => send<{ siteScripts: SiteScript[] }>('GET', SITE_SCRIPTS),
    /** Replaces the list (the owner or an API key only). */
    replaceSiteScripts: (siteScripts: SiteScript[]) => send<{ siteScripts: SiteScript[] }>('PUT', SITE_SCRIPTS, { siteScripts: siteScripts.map((s) => ({ ...s })) }),

    getCommerceSettings: () => send<{ settings: CommerceSettings }>('GET', COMMERCE_SETTINGS),
    /** Top-level keys given replace the stored ones. */
    updateCommerceSettings: (settings: CommerceSettings) => send<{ settings: CommerceSettings }>('PATCH', COMMERCE_SETTINGS, { settings: { ...settings } }),

    createCoupon: (specification: CouponSpecification) => send<CouponCreated>('POST', COUPONS, { specification: { ...specification } }),
    queryCoupons: (paging: { limit?: number; offset?: number } = {}) =>
      send<CouponsPage>('POST', `${COUPONS}/query`, { query: { paging } }),
    getCoupon: (id: string) => send<CouponResponse>('GET', `${COUPONS}/${enc(id)}`),
    /** As the Wix API: answers `{}`; with `fieldMask`, only those fields change. */
    updateCoupon: (id: string, specification: CouponSpecificationPatch, fieldMask?: string[]) =>
      send<Record<string, never>>('PATCH', `${COUPONS}/${enc(id)}`, { specification: { ...specification }, ...(fieldMask && { fieldMask }) }),
    deleteCoupon: (id: string) => send<Record<string, never>>('DELETE', `${COUPONS}/${enc(id)}`),

    listWebhooks: () => send<{ subscriptions: WebhookSubscription[] }>('GET', WEBHOOKS),
    /** The answer's `secret` signs STANDARD deliveries; shown this once. */
    createWebhook: (subscription: WebhookInput) => send<{ subscription: WebhookSubscription; secret?: string }>('POST', WEBHOOKS, { subscription: { ...subscription } }),
    getWebhook: (id: string) => send<{ subscription: WebhookSubscription }>('GET', hook(id)),
    updateWebhook: (id: string, subscription: Partial<WebhookInput>) => send<{ subscription: WebhookSubscription }>('PATCH', hook(id), { subscription: { ...subscription } }),
    deleteWebhook: (id: string) => send<Record<string, never>>('DELETE', hook(id)),
    pauseWebhook: (id: string) => send<{ subscription: WebhookSubscription }>('POST', `${hook(id)}/pause`),
    resumeWebhook: (id: string) => send<{ subscription: WebhookSubscription }>('POST', `${hook(id)}/resume`),
    /** Sends a test event; answers the delivery's id. */
    testWebhook: (id: string) => send<{ deliveryId: string }>('POST', `${hook(id)}/test`),
    webhookPublicKey: () => send<{ publicKey: string; algorithm: string }>('GET', `${WEBHOOKS}/public-key`),
    listDeliveries: (id: string, options: { limit?: number; offset?: number; status?: DeliveryStatus } = {}) => {
      const q = new URLSearchParams(Object.entries(options).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();
      return send<{ deliveries: WebhookDelivery[] }>('GET', `${hook(id)}/deliveries`, undefined, q);
    },
    getDelivery: (id: string, deliveryId: string) => send<{ delivery: WebhookDelivery }>('GET', `${hook(id)}/deliveries/${enc(deliveryId)}`),
    replayDelivery: (id: string, deliveryId: string) => send<{ delivery: WebhookDelivery }>('POST', `${hook(id)}/deliveries/${enc(deliveryId)}/replay`),
  };
}

export type BackOfficeSettingsApi = ReturnType<typeof backOfficeSettings>;
