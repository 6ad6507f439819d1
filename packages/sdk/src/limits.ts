/**
 * The limits the server's schemas put on what the back office edits (lengths, counts, the allowed
 * values), as the server itself declares them: forms check these, never a copy. The one file of
 * the server the SDK may import (dependency-cruiser: it is plain data and imports nothing).
 */
export {
  ADDITIONAL_FEE_KINDS, TIP_SETTINGS_TYPES, TIP_SPLITS, TIP_TYPES,
  API_KEY_LIMITS, AUDIT_LIMITS, DATA_COLLECTION_ID_PATTERN, DATA_INDEX_NAME_PATTERN, DIGITAL_RULE_LIMITS, ORDER_LIMITS,
  COLLECTION_LIMITS, COMMERCE_SETTINGS_LIMITS, COUPON_CODE_PATTERN, COUPON_LIMITS, DASHBOARD_MAX_DAYS, DATA_COLLECTION_LIMITS, DATA_FIELD_KEY_PATTERN,
  DATA_FIELD_TYPES, DATA_SYSTEM_FIELD_KEYS, INVENTORY_UPDATE_TRIGGERS, SHIPPING_RULE_OPERATORS, SHIPPING_RULE_TYPES,
  PRODUCT_LIMITS, REVIEW_LIMITS, SITE_SCRIPT_LIMITS, SITE_SCRIPT_POSITIONS, SITE_SETTINGS_LIMITS, TIP_AMOUNT_PATTERN, WEIGHT_UNITS,
} from '../../server/src/platform/field-limits.js';
