// The eCommerce answers' shared pieces as the kernel writes them (commerce/wire.ts,
// commerce/pricing/wire.ts): money, addresses, buyers, line items and the pricing of carts and
// checkouts. Cart, checkout and order answers are built from these (their own wire-schemas.ts);
// they write those answers through fast-json-stringify, document them and are the SDK's types.
// Names follow @wix/ecom's.
import { Type } from 'typebox';
import { WEIGHT_UNITS } from '../../platform/field-limits.js';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

export const MultiCurrencyPrice = Type.Object({
  amount: Type.String({ description: 'A decimal string: "12.50".' }),
  convertedAmount: Type.String(),
  formattedAmount: Type.String(),
  formattedConvertedAmount: Type.String(),
}, { title: 'MultiCurrencyPrice' });

export const WeightUnit = oneOf(WEIGHT_UNITS, { title: 'WeightUnit' });

const Text = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const NumberOrNull = Type.Unsafe<number | null>({ type: ['number', 'null'] });

/** Addresses are echoed as given (input keys beyond these are kept), so they are open. */
export const Address = Type.Object({
  country: Type.Optional(Text),
  subdivision: Type.Optional(Text),
  city: Type.Optional(Text),
  postalCode: Type.Optional(Text),
  streetAddress: Type.Optional(Type.Object({ number: Type.Optional(Type.String()), name: Type.Optional(Type.String()), apt: Type.Optional(Type.String()) }, { additionalProperties: true })),
  addressLine: Type.Optional(Text),
  addressLine2: Type.Optional(Text),
  countryFullname: Type.Optional(Text),
  subdivisionFullname: Type.Optional(Text),
  formattedAddress: Type.Optional(Text),
  geocode: Type.Optional(Type.Object({ latitude: Type.Optional(NumberOrNull), longitude: Type.Optional(NumberOrNull) }, { additionalProperties: true })),
}, { title: 'Address', additionalProperties: true });

export const FullAddressContactDetails = Type.Object({
  firstName: Type.Optional(Text),
  lastName: Type.Optional(Text),
  phone: Type.Optional(Text),
  company: Type.Optional(Text),
  vatId: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), type: Type.Optional(Type.String()) }, { additionalProperties: true })),
}, { title: 'FullAddressContactDetails', additionalProperties: true });

export const AddressWithContact = Type.Object({
  address: Type.Optional(Address),
  contactDetails: Type.Optional(FullAddressContactDetails),
}, { title: 'AddressWithContact', additionalProperties: true });

export const BuyerInfo = Type.Object({
  visitorId: Type.Optional(Type.String()),
  memberId: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  contactId: Type.Optional(Type.String({ description: "On orders: a member's contact is the member." })),
}, { title: 'BuyerInfo' });

export const CatalogReference = Type.Object({
  catalogItemId: Type.String(),
  appId: Type.String(),
  options: Type.Optional(Type.Object({
    variantId: Type.Optional(Type.String()),
    options: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Option name → choice.' })),
    customTextFields: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Custom text field title → text.' })),
    customAmount: Type.Optional(Type.String({ description: 'A gift card\'s amount chosen by the shopper (decimal string, within the shop\'s limits).' })),
  }, { additionalProperties: true, description: 'The catalog\'s own keys for the item, echoed as given.' })),
}, { title: 'CatalogReference' });

const Translated = Type.Object({ original: Type.String(), translated: Type.String() });

export const DescriptionLine = Type.Object({
  name: Translated,
  plainText: Type.Optional(Translated),
  colorInfo: Type.Optional(Type.Object({ original: Type.String(), translated: Type.String(), code: Type.String() })),
  lineType: oneOf(['PLAIN_TEXT', 'COLOR'] as const),
}, { title: 'DescriptionLine' });

export const Image = Type.Object({
  url: Type.String(),
  width: Type.Number(),
  height: Type.Number(),
  altText: Type.Optional(Type.String()),
}, { title: 'Image' });

export const PageUrl = Type.Object({ relativePath: Type.String(), url: Type.String() }, { title: 'PageUrl' });

export const ItemAvailabilityStatus = oneOf(['AVAILABLE', 'NOT_FOUND', 'NOT_AVAILABLE', 'PARTIALLY_AVAILABLE'] as const, { title: 'ItemAvailabilityStatus' });
export const ItemAvailability = Type.Object({ status: ItemAvailabilityStatus, quantityAvailable: Type.Optional(Type.Integer()) }, { title: 'ItemAvailability' });

export const ItemType = Type.Object({
  preset: Type.Optional(oneOf(['PHYSICAL', 'DIGITAL', 'GIFT_CARD', 'SERVICE'] as const)),
  custom: Type.Optional(Type.String()),
}, { title: 'ItemType' });

export const PhysicalProperties = Type.Object({
  weight: Type.Optional(Type.Number()),
  sku: Type.Optional(Type.String()),
  shippable: Type.Boolean(),
}, { title: 'PhysicalProperties' });

/** A cart's or checkout's line item, without the image (the cart calls it `image`, the checkout `media`). */
export const lineItemProperties = {
  id: Type.String(),
  quantity: Type.Integer(),
  catalogReference: Type.Optional(CatalogReference),
  productName: Translated,
  url: Type.Optional(PageUrl),
  price: MultiCurrencyPrice,
  fullPrice: MultiCurrencyPrice,
  priceBeforeDiscounts: MultiCurrencyPrice,
  lineItemPrice: { ...MultiCurrencyPrice, description: 'price × quantity, before discounts and tax.' },
  descriptionLines: Type.Array(DescriptionLine),
  availability: ItemAvailability,
  physicalProperties: PhysicalProperties,
  itemType: ItemType,
  paymentOption: oneOf(['FULL_PAYMENT_ONLINE'] as const),
  rootCatalogItemId: Type.Optional(Type.String({ description: 'The product of a catalog line.' })),
  customLineItem: Type.Boolean(),
  priceUndetermined: Type.Boolean(),
  fixedQuantity: Type.Boolean(),
  savePaymentMethod: Type.Boolean(),
  membersOnly: Type.Boolean(),
};

export const PriceSummary = Type.Object({
  subtotal: MultiCurrencyPrice,
  discount: MultiCurrencyPrice,
  shipping: MultiCurrencyPrice,
  tax: MultiCurrencyPrice,
  total: MultiCurrencyPrice,
  additionalFees: Type.Optional(MultiCurrencyPrice),
}, { title: 'PriceSummary' });

export const TaxDetails = Type.Object({
  taxableAmount: MultiCurrencyPrice,
  taxRate: Type.String({ description: 'A fraction, not a percent: "0.0725" for 7.25%.' }),
  totalTax: MultiCurrencyPrice,
}, { title: 'TaxDetails' });

export const AdditionalFee = Type.Object({
  code: Type.String({ description: 'HANDLING_FEE or INSURANCE; a tip\'s id for a tip.' }),
  name: Type.String(),
  price: MultiCurrencyPrice,
  taxDetails: TaxDetails,
  priceBeforeTax: MultiCurrencyPrice,
  priceAfterTax: MultiCurrencyPrice,
  lineItemIds: Type.Array(Type.String()),
  providerAppId: Type.Optional(Type.String({ description: 'The Wix Tips app on a tip.' })),
  source: Type.Union([Type.Literal('PLATFORM'), Type.Literal('SERVICE_PLUGIN')], { description: 'SERVICE_PLUGIN: a tip.' }),
}, { title: 'AdditionalFee' });

export const CalculatedLineItem = Type.Object({
  lineItemId: Type.String(),
  pricesBreakdown: Type.Object({
    price: MultiCurrencyPrice,
    fullPrice: MultiCurrencyPrice,
    priceBeforeDiscounts: MultiCurrencyPrice,
    lineItemPrice: MultiCurrencyPrice,
    totalDiscount: MultiCurrencyPrice,
    totalPriceBeforeTax: MultiCurrencyPrice,
    totalPriceAfterTax: MultiCurrencyPrice,
    taxDetails: TaxDetails,
  }),
  availability: ItemAvailability,
}, { title: 'CalculatedLineItem' });

export const DeliveryLogistics = Type.Object({
  deliveryTime: Type.Optional(Type.String()),
  instructions: Type.Optional(Type.String()),
  pickupDetails: Type.Optional(Type.Object({ address: Type.Optional(Address), pickupMethod: oneOf(['STORE_PICKUP'] as const) })),
  deliveryTimeSlot: Type.Optional(Type.Object({ from: Timestamp, to: Timestamp }, { additionalProperties: true })),
}, { title: 'DeliveryLogistics' });

export const ShippingOption = Type.Object({
  code: Type.String(),
  title: Type.String(),
  logistics: DeliveryLogistics,
  cost: Type.Object({ price: MultiCurrencyPrice }),
}, { title: 'ShippingOption' });

export const SelectedCarrierServiceOption = Type.Object({
  code: Type.String(),
  title: Type.String(),
  logistics: DeliveryLogistics,
  cost: Type.Object({
    price: MultiCurrencyPrice,
    totalPriceBeforeTax: MultiCurrencyPrice,
    totalPriceAfterTax: MultiCurrencyPrice,
    totalDiscount: MultiCurrencyPrice,
    taxDetails: TaxDetails,
  }),
  requestedShippingOption: Type.Boolean(),
  carrierId: Type.String(),
}, { title: 'SelectedCarrierServiceOption' });

export const CarrierServiceOption = Type.Object({ carrierId: Type.String(), shippingOptions: Type.Array(ShippingOption) }, { title: 'CarrierServiceOption' });

export const ShippingRegion = Type.Object({ id: Type.String(), name: Type.String() }, { title: 'ShippingRegion' });

/** A cart estimate's shipping (a checkout adds the destination). */
export const shippingInfoProperties = {
  region: Type.Optional(ShippingRegion),
  selectedCarrierServiceOption: Type.Optional(SelectedCarrierServiceOption),
  carrierServiceOptions: Type.Array(CarrierServiceOption),
};

/** A coupon or a merchant discount; on a cart only the coupon's code (and id) and the merchant discount's amount. */
export const AppliedDiscount = Type.Object({
  discountType: Type.Optional(oneOf(['GLOBAL', 'SPECIFIC_ITEMS'] as const)),
  lineItemIds: Type.Optional(Type.Array(Type.String())),
  coupon: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), code: Type.String(), name: Type.Optional(Type.String()), amount: Type.Optional(MultiCurrencyPrice) })),
  merchantDiscount: Type.Optional(Type.Object({ amount: MultiCurrencyPrice })),
}, { title: 'AppliedDiscount' });

export const Violation = Type.Object({
  severity: oneOf(['WARNING', 'ERROR'] as const),
  target: Type.Object({
    lineItem: Type.Optional(Type.Object({ name: oneOf(['LINE_ITEM_DEFAULT'] as const), id: Type.String(), suggestedFix: Type.Optional(oneOf(['REMOVE_LINE_ITEM'] as const)) })),
    other: Type.Optional(Type.Object({ name: oneOf(['OTHER_DEFAULT', 'DELIVERY'] as const) })),
  }),
  description: Type.String(),
}, { title: 'Violation' });

export const TaxSummary = Type.Object({
  taxableAmount: MultiCurrencyPrice,
  totalTax: MultiCurrencyPrice,
  manualTaxRate: Type.Optional(Type.String()),
  calculationDetails: Type.Object({
    rateType: oneOf(['NO_TAX_COLLECTED', 'MANUAL_RATE'] as const),
    manualRateReason: Type.Optional(oneOf(['GLOBAL_SETTING_TO_MANUAL'] as const)),
  }),
}, { title: 'TaxSummary' });

export const ApplicationError = Type.Object({ applicationError: Type.Object({ code: Type.String(), description: Type.String() }) }, { title: 'ApplicationError' });

export const CalculationErrors = Type.Object({
  couponCalculationError: Type.Optional(ApplicationError),
  giftCardCalculationError: Type.Optional(ApplicationError),
}, { title: 'CalculationErrors' });

/** What an estimate and a checkout share: the pricing (commerce/pricing/wire.ts). */
export const pricingProperties = {
  currency: Type.String(),
  calculatedLineItems: Type.Array(CalculatedLineItem),
  priceSummary: PriceSummary,
  appliedDiscounts: Type.Array(AppliedDiscount),
  taxSummary: TaxSummary,
  calculationErrors: Type.Optional(CalculationErrors),
  violations: Type.Array(Violation),
};

export const Timestamps = { createdDate: Timestamp, updatedDate: Timestamp };
