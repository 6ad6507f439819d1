/**
 * The limits the server's request schemas enforce on what the back office edits (lengths, counts,
 * ranges, the allowed values), written once. The routes' TypeBox schemas are built from them, and
 * the web app's forms check the same values through `@bodega/sdk` (which re-exports this file), so
 * a form never refuses what the server takes, or takes what it refuses.
 *
 * Plain data: this file imports nothing (dependency-cruiser checks it), so the SDK and the web app
 * can take it without any server code.
 */

/** `PATCH /_api/bodega/v1/commerce-settings`. */
export const COMMERCE_SETTINGS_LIMITS = {
  shippingRegions: 100,
  rulesPerRegion: 50,
  pickupOptions: 20,
  taxRates: 200,
  /** A region's id, a rule's and a pickup option's code. */
  code: 100,
  regionName: 100,
  /** A rule's and a pickup option's title. */
  title: 200,
  deliveryTime: 100,
  instructions: 1000,
  /** A region code such as US-CA. */
  subdivision: 10,
  taxRateName: 100,
  /** Any decimal field (rates, thresholds, costs), as text. */
  decimal: 40,
  paymentProvider: 50,
  /** Additional fees: one of each kind. */
  additionalFees: 2,
  /** Tip presets offered at checkout (the official tipSettings: 1 to 3). */
  tipPresets: 3,
  /** The highest percentage a percentage tip preset or choice may be. */
  tipPercentMax: 100,
} as const;

export const ADDITIONAL_FEE_KINDS = ['HANDLING_FEE', 'INSURANCE'] as const;
/** What a site's tip presets are (tipSettings.tipType). */
export const TIP_SETTINGS_TYPES = ['PERCENTAGE', 'AMOUNT'] as const;
/** What a shopper's tip choice is: a preset of the site's type, or an amount of their own. */
export const TIP_TYPES = ['PERCENTAGE', 'AMOUNT', 'CUSTOM'] as const;
/**
 * A shopper's tip (or the price a tip is previewed on) as a decimal: at most 999,999,999,999.99,
 * so a tip no order could store is refused at the call, not when the order is placed.
 */
export const TIP_AMOUNT_PATTERN = '^\\d{1,12}(\\.\\d{1,2})?$';
/** How a tip is split among staff (tipSettings.staffDistributionMethod). */
export const TIP_SPLITS = ['EQUAL', 'PROPORTIONAL'] as const;

export const INVENTORY_UPDATE_TRIGGERS = ['ON_ORDER_PLACED', 'ON_ORDER_PAID'] as const;
export const WEIGHT_UNITS = ['KG', 'LB'] as const;
export const SHIPPING_RULE_TYPES = ['BY_TOTAL_WEIGHT', 'BY_TOTAL_PRICE', 'BY_TOTAL_QUANTITY'] as const;
export const SHIPPING_RULE_OPERATORS = ['EQ', 'GT', 'GTE', 'LT', 'LTE'] as const;

/** `PUT /_api/bodega/v1/site-scripts` (the site scripts headless sites add to every page). */
export const SITE_SCRIPT_LIMITS = { scripts: 20, html: 15_000 } as const;
export const SITE_SCRIPT_POSITIONS = ['HEAD', 'BODY_START', 'BODY_END'] as const;

/** `PATCH /_api/bodega/v1/site-settings`. */
export const SITE_SETTINGS_LIMITS = { name: 200, domain: 253 } as const;

/** `GET /bodega/v1/dashboard`: the longest range of days, both ends counted. */
export const DASHBOARD_MAX_DAYS = 366;

/**
 * Products as the catalog's calls take them (`/stores/v1/products`, `/stores/v3/products` and
 * their variants), the back office's product form among them.
 */
export const PRODUCT_LIMITS = {
  name: 80,
  description: 16_000,
  sku: 40,
  ribbon: 30,
  /** Options a product may have (each choice of each one makes a variant). */
  options: 6,
  /** An option's name, and a choice's. */
  optionName: 50,
  choice: 50,
  choicesPerOption: 100,
  variants: 300,
  /** A tracked stock quantity. */
  quantity: 99_999_999,
  /** A picture's alt text. */
  altText: 500,
} as const;

/** Coupons (`/stores/v2/coupons`, `/_api/bodega/v1/coupons`). */
export const COUPON_LIMITS = {
  name: 100,
  /** A code's length; letters, digits, - and _ (COUPON_CODE_PATTERN). */
  code: 20,
  usageLimit: 1_000_000,
  /** The most a percent coupon takes off. */
  percent: 100,
} as const;
export const COUPON_CODE_PATTERN = '^[A-Za-z0-9_-]+$';

/** Product collections (`/stores/v1/collections`). */
export const COLLECTION_LIMITS = { name: 50, description: 1000 } as const;

/** Data collections' fields (`/wix-data/v2/collections`): the CMS's field table and item editor check these. */
export const DATA_FIELD_TYPES = [
  'TEXT', 'NUMBER', 'DATE', 'DATETIME', 'IMAGE', 'BOOLEAN', 'DOCUMENT', 'URL', 'RICH_TEXT', 'VIDEO', 'ANY',
  'ARRAY_STRING', 'ARRAY_DOCUMENT', 'AUDIO', 'TIME', 'LANGUAGE', 'RICH_CONTENT', 'MEDIA_GALLERY', 'ADDRESS',
  'PAGE_LINK', 'REFERENCE', 'MULTI_REFERENCE', 'OBJECT', 'ARRAY', 'SLUG', 'EMAIL',
] as const;
/** A field's key: letters, digits, `_`, `$` and `-`, at most 128, not starting with `$` or `-`. */
export const DATA_FIELD_KEY_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_$-]{0,127}$';
/** The system fields every collection has; no field of one's own may take their keys. */
export const DATA_SYSTEM_FIELD_KEYS = ['_id', '_createdDate', '_updatedDate', '_owner'] as const;
/**
 * Data collections (`/wix-data/v2/collections`, `…/indexes`): the most fields a collection's
 * `fields` may list (the system fields included), an id's length, a display name's and display field's (`text`),
 * and an index's name and fields.
 */
export const DATA_COLLECTION_LIMITS = { fields: 1000, id: 256, text: 1000, indexName: 128, indexFields: 3 } as const;
/** A collection id: letters, digits, `_` and `-`, at most 256, not starting with `-`; it appears in URL paths. */
export const DATA_COLLECTION_ID_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_-]{0,255}$';
/** An index's name: letters, digits, `_`, `-` and spaces, at most 128, starting with a letter, a digit or `_`. */
export const DATA_INDEX_NAME_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_ -]{0,127}$';

/** Orders (`/ecom/v1/orders/…`): a fulfilment's tracking number, a refund's reason. */
export const ORDER_LIMITS = { trackingNumber: 100, refundReason: 1000 } as const;

/** The audit log (`/bodega/v1/audit-log`): its filters' lengths, and how long entries may be kept. */
export const AUDIT_LIMITS = { action: 100, actor: 320, text: 200, retentionDays: 3650 } as const;

/** API keys (`POST /bodega/v1/api-keys`): what the key is for. */
export const API_KEY_LIMITS = { name: 100 } as const;

/** Digital products' download rules (`PUT /bodega/v1/digital-products/{id}/rules`). */
export const DIGITAL_RULE_LIMITS = { linkDays: 365, maxDownloads: 100 } as const;

/** Reviews (`/reviews/v1/reviews`): a review's title and text, its pictures, the store's reply. */
export const REVIEW_LIMITS = { title: 200, body: 5000, media: 10, reply: 5000 } as const;
