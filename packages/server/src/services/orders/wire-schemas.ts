// The order answers as orders/wire.ts writes them (@wix/ecom's orders calls): the schemas the
// answers are written through, documented by and the SDK's Order types. An order's prices are
// {amount, formattedAmount} (no converted amounts, unlike carts and checkouts).
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';
import * as C from '../commerce/wire-schemas.js';

export const Price = Type.Object({
  amount: Type.String({ description: 'A decimal string: "12.50".' }),
  formattedAmount: Type.String(),
}, { title: 'Price' });

export const OrderTaxDetails = Type.Object({ taxRate: Type.String(), totalTax: Price }, { title: 'OrderTaxDetails' });

export const AdditionalFee = Type.Object({
  code: Type.String({ description: 'HANDLING_FEE or INSURANCE for the shop\'s own fees; the tip\'s id for a tip.' }),
  name: Type.String(),
  price: Price,
  taxDetails: OrderTaxDetails,
  priceBeforeTax: Price,
  priceAfterTax: Price,
  id: Type.String(),
  lineItemIds: Type.Array(Type.String()),
  providerAppId: Type.Optional(Type.String({ description: 'The Wix Tips app on a tip.' })),
}, { title: 'OrderAdditionalFee' });

export const OrderLineItem = Type.Object({
  id: Type.String(),
  productName: Type.Object({ original: Type.String(), translated: Type.String() }),
  catalogReference: Type.Optional(C.CatalogReference),
  quantity: Type.Integer(),
  totalDiscount: Price,
  descriptionLines: Type.Array(C.DescriptionLine),
  image: Type.Optional(C.Image),
  physicalProperties: C.PhysicalProperties,
  itemType: C.ItemType,
  refundQuantity: Type.Optional(Type.Integer()),
  restockQuantity: Type.Optional(Type.Integer()),
  price: Price,
  priceBeforeDiscounts: Price,
  lineItemPrice: { ...Price, description: "price × quantity, before the order's discounts and tax: the lines add up to the subtotal." },
  totalPriceBeforeTax: Price,
  totalPriceAfterTax: Price,
  paymentOption: oneOf(['FULL_PAYMENT_ONLINE', 'FULL_PAYMENT_OFFLINE'] as const),
  taxDetails: OrderTaxDetails,
  rootCatalogItemId: Type.Optional(Type.String()),
  url: Type.Optional(C.PageUrl),
  locations: Type.Array(Type.Unknown()),
  priceUndetermined: Type.Boolean(),
  fixedQuantity: Type.Boolean(),
}, { title: 'OrderLineItem' });

export const OrderActivity = Type.Object({
  id: Type.String(),
  type: oneOf(['ORDER_PLACED', 'ORDER_PAID', 'ORDER_PARTIALLY_PAID', 'ORDER_FULFILLED', 'ORDER_CANCELED', 'ORDER_REFUNDED', 'TRACKING_NUMBER_ADDED', 'MERCHANT_COMMENT',
    'CUSTOM_ACTIVITY', 'DRAFT_ORDER_CHANGES_APPLIED', 'INVOICE_ADDED', 'INVOICE_SENT', 'INVOICE_REMOVED', 'SHIPPING_CONFIRMATION_EMAIL_SENT', 'PICKUP_READY_EMAIL_SENT'] as const),
  createdDate: Timestamp,
  merchantComment: Type.Optional(Type.Object({ message: Type.String() })),
  orderRefunded: Type.Optional(Type.Object({ manual: Type.Boolean(), amount: Price, reason: Type.String() }, { description: 'On ORDER_REFUNDED: how much was refunded, and why.' })),
  customActivity: Type.Optional(Type.Object({
    type: Type.String(), appId: Type.Optional(Type.String()), additionalData: Type.Record(Type.String(), Type.String()),
  }, { description: "On CUSTOM_ACTIVITY: the activity's own kind, the app that wrote it and its data." })),
  draftOrderChangesApplied: Type.Optional(Type.Object({
    draftOrderId: Type.String(),
    changes: Type.Array(Type.Object({ lineItemId: Type.String(), name: Type.String(), quantityBefore: Type.Integer(), quantityAfter: Type.Integer() })),
    shippingChanged: Type.Boolean(),
    totalBefore: Price,
    totalAfter: Price,
  }, { description: 'On DRAFT_ORDER_CHANGES_APPLIED: what an edit of the order changed.' })),
}, { title: 'OrderActivity' });

export const ShippingInformation = Type.Object({
  carrierId: Type.String(),
  code: Type.String(),
  title: Type.String(),
  logistics: Type.Object({
    shippingDestination: Type.Optional(C.AddressWithContact),
    pickupDetails: Type.Optional(Type.Object({ address: Type.Optional(C.Address), pickupMethod: oneOf(['STORE_PICKUP'] as const) })),
    deliveryTime: Type.Optional(Type.String()),
    instructions: Type.Optional(Type.String()),
    deliveryTimeSlot: Type.Optional(Type.Object({ from: Timestamp, to: Timestamp }, { additionalProperties: true })),
  }),
  cost: Type.Object({ price: Price, totalPriceBeforeTax: Price, totalPriceAfterTax: Price, taxDetails: OrderTaxDetails, discount: Price }),
  region: Type.Optional(Type.Object({ name: Type.String() })),
}, { title: 'ShippingInformation' });

export const OrderAppliedDiscount = Type.Object({
  discountType: oneOf(['GLOBAL', 'SPECIFIC_ITEMS'] as const),
  lineItemIds: Type.Array(Type.String()),
  coupon: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), code: Type.String(), name: Type.String(), amount: Price })),
  merchantDiscount: Type.Optional(Type.Object({ amount: Price })),
}, { title: 'OrderAppliedDiscount' });

export const OrderPaymentStatus = oneOf(['NOT_PAID', 'PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED'] as const, { title: 'OrderPaymentStatus' });
export const FulfillmentStatus = oneOf(['NOT_FULFILLED', 'FULFILLED', 'PARTIALLY_FULFILLED', 'CANCELED'] as const, { title: 'FulfillmentStatus' });
export const OrderStatus = oneOf(['INITIALIZED', 'APPROVED', 'CANCELED', 'PENDING', 'REJECTED'] as const, { title: 'OrderStatus' });

export const Order = Type.Object({
  id: Type.String(),
  number: Type.String(),
  ...C.Timestamps,
  lineItems: Type.Array(OrderLineItem),
  buyerInfo: C.BuyerInfo,
  paymentStatus: OrderPaymentStatus,
  fulfillmentStatus: FulfillmentStatus,
  buyerLanguage: Type.String(),
  weightUnit: Type.String({ description: 'KG or LB, as the shop weighed when the order was placed.' }),
  currency: Type.String(),
  taxIncludedInPrices: Type.Boolean(),
  siteLanguage: Type.String(),
  priceSummary: Type.Object({ subtotal: Price, shipping: Price, tax: Price, discount: Price, total: Price, totalAdditionalFees: Price }),
  billingInfo: Type.Optional(C.AddressWithContact),
  shippingInfo: Type.Optional(ShippingInformation),
  recipientInfo: Type.Optional(C.AddressWithContact),
  buyerNote: Type.Optional(Type.String()),
  status: OrderStatus,
  archived: Type.Boolean(),
  taxSummary: Type.Object({ totalTax: Price }),
  taxInfo: Type.Object({ totalTax: Price, taxBreakdown: Type.Array(Type.Unknown()) }),
  appliedDiscounts: Type.Array(OrderAppliedDiscount),
  activities: Type.Array(OrderActivity),
  attributionSource: Type.String(),
  createdBy: Type.Object({ visitorId: Type.Optional(Type.String()), memberId: Type.Optional(Type.String()), appId: Type.Optional(Type.String()) }),
  channelInfo: Type.Object({
    type: Type.String({ description: 'WEB, POS, EBAY, AMAZON, OTHER_PLATFORM (imported orders) or BACKOFFICE_MERCHANT (draft orders).' }),
    externalOrderId: Type.Optional(Type.String({ description: "An imported order's id on the platform it came from." })),
    externalOrderUrl: Type.Optional(Type.String()),
  }),
  seenByAHuman: Type.Boolean(),
  checkoutId: Type.Optional(Type.String()),
  customFields: Type.Array(Type.Unknown()),
  balanceSummary: Type.Object({ balance: Price, paid: Price, refunded: Price, authorized: Price, pending: Price }, { description: 'What is left to pay, what was paid and refunded.' }),
  additionalFees: Type.Array(AdditionalFee),
  purchasedDate: Type.Optional(Timestamp),
}, { title: 'Order' });

export const OrderResponse = Type.Object({ order: Order }, { title: 'OrderResponse' });

export const SearchOrdersResponse = Type.Object({
  orders: Type.Array(Order),
  metadata: Type.Object({ count: Type.Integer(), cursors: Type.Object({ next: Type.Optional(Type.String()) }), hasNext: Type.Boolean() }),
}, { title: 'SearchOrdersResponse' });

export const BulkMarkAsPaidResponse = Type.Object({
  results: Type.Array(Type.Object({
    itemMetadata: Type.Object({
      id: Type.String(),
      originalIndex: Type.Integer(),
      success: Type.Boolean(),
      error: Type.Optional(Type.Object({ code: Type.String(), description: Type.String(), data: Type.Optional(Type.Unknown()) })),
    }),
    item: Type.Optional(Order),
  })),
  bulkActionMetadata: Type.Object({ totalSuccesses: Type.Integer(), totalFailures: Type.Integer(), undetailedFailures: Type.Integer() }),
}, { title: 'BulkMarkAsPaidResponse' });
