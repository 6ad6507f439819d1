/** The order import's refusals (the spec's reasons and the server's own codes) in words, in one place. */
const REASONS: Record<string, string> = {
  PARTIALLY_OR_FULLY_REFUNDED: 'Refunded',
  UNSUPPORTED_CHANNEL_TYPE: 'Channel not supported',
  ORDER_STATUS_IS_NOT_SUPPORTED: 'Status not supported',
  ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT: 'Another currency',
  ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT: 'Another weight unit',
  AMOUNTS_DO_NOT_ADD_UP: "Amounts don't add up",
  ORDER_NOT_FOUND: 'No order row',
  SUBSCRIPTION_LINE_ITEM_EXISTS: 'Has a subscription',
  UNSUPPORTED_CATALOG_ITEM: 'Unknown product',
  TAXABLE_EXISTING_ADDITIONAL_FEE: 'Taxed fee',
  ORDER_NUMBER_TAKEN: 'Number taken',
  INVALID_ARGUMENT: 'Not readable',
};

export const reasonLabel = (code: string | undefined) => (code ? REASONS[code] ?? code : '');
