/**
 * `@wix/ecom` draftOrders: orders the merchant builds (a phone order) and edits of placed orders,
 * priced by the server's checkout pricing. Call shapes follow the official module.
 */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

const P = '/ecom/v1/draft-orders';

export interface DraftPrice { amount?: string; formattedAmount?: string }
export interface DraftCatalogReference { appId?: string; catalogItemId?: string; options?: Record<string, unknown> }
export interface DraftLineItem {
  _id?: string;
  productName?: { original?: string };
  catalogReference?: DraftCatalogReference;
  quantity?: number;
  price?: DraftPrice;
  descriptionLines?: { name?: { original?: string }; plainText?: { original?: string }; colorInfo?: { original?: string } }[];
  totalPriceBeforeTax?: DraftPrice;
  totalPriceAfterTax?: DraftPrice;
  itemType?: { preset?: string };
}
export interface DraftShippingOption { carrierId?: string; code?: string; title?: string; cost?: { price?: DraftPrice } }
export interface DraftOrder {
  _id?: string;
  orderId?: string;
  status?: 'DRAFT' | 'COMMITTED';
  lineItems?: { lineItem?: DraftLineItem; added?: boolean }[];
  buyerInfo?: { memberId?: string; visitorId?: string; contactId?: string; email?: string };
  shippingInfo?: { shippingInfo?: { code?: string; title?: string; cost?: { price?: DraftPrice }; logistics?: { shippingDestination?: Record<string, unknown> } } };
  discounts?: { discount?: { _id?: string; discountType?: string; merchantDiscount?: { amount?: DraftPrice; percentage?: string } } }[];
  priceSummary?: { subtotal?: DraftPrice; shipping?: DraftPrice; tax?: DraftPrice; discount?: DraftPrice; total?: DraftPrice };
  balanceSummary?: { balance?: DraftPrice };
  currency?: string;
}
export interface CalculatedDraftOrder {
  draftOrder?: DraftOrder;
  shippingOptions?: DraftShippingOption[];
  calculationErrors?: Record<string, unknown>;
}
export interface DraftOrderAnswer { calculatedDraftOrder?: CalculatedDraftOrder }
export interface CustomLineItemInput {
  productName: { original: string };
  price: { amount: string };
  quantity: number;
  itemType?: { preset: 'PHYSICAL' | 'DIGITAL' | 'SERVICE' | 'GIFT_CARD' };
}
export interface CatalogLineItemInput { catalogReference: DraftCatalogReference; quantity?: number }
export interface DraftDiscountInput { percentage?: string; amount?: { amount: string }; lineItemId?: string; description?: string }
export interface DraftOrderInput {
  catalogLineItems?: CatalogLineItemInput[];
  customLineItems?: CustomLineItemInput[];
  discounts?: DraftDiscountInput[];
  buyerInfo?: { memberId?: string; email?: string };
  shippingInfo?: { code?: string | null; logistics?: { shippingDestination?: Record<string, unknown> | null } };
}
interface Committed { committedDraftOrder?: DraftOrder; orderAfterCommit?: { _id?: string; number?: string } }

export function draftOrders(t: Transport) {
  const id = (draftOrderId: string) => `${P}/${enc(draftOrderId)}`;
  return {
    createDraftOrder: (options: { draftOrder?: DraftOrderInput; orderId?: string } = {}) =>
      call<DraftOrderAnswer>(t, 'POST', P, { ...options }, { args: { '*': 'options' } }),
    createEmptyDraftOrder: () => call<DraftOrderAnswer>(t, 'POST', `${P}/create-empty-draft-order`),
    getDraftOrder: (draftOrderId: string) => call<DraftOrderAnswer>(t, 'GET', id(draftOrderId)),
    addLineItemsToDraftOrder: (draftOrderId: string, options: { catalogLineItems?: CatalogLineItemInput[]; customLineItems?: CustomLineItemInput[] }) =>
      call<DraftOrderAnswer>(t, 'POST', `${id(draftOrderId)}/add-line-items`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    updateLineItems: (draftOrderId: string, options: { lineItemChanges: { lineItemId: string; newQuantity: number }[] }) =>
      call<DraftOrderAnswer>(t, 'POST', `${id(draftOrderId)}/line-items`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    createCustomDiscounts: (draftOrderId: string, options: { discounts: DraftDiscountInput[] }) =>
      call<DraftOrderAnswer>(t, 'POST', `${id(draftOrderId)}/create-custom-discounts`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    deleteCustomDiscounts: (draftOrderId: string, options: { discountIds: string[] }) =>
      call<DraftOrderAnswer>(t, 'POST', `${id(draftOrderId)}/delete-custom-discounts`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    setShippingInfo: (draftOrderId: string, options: { shippingInfo: NonNullable<DraftOrderInput['shippingInfo']> }) =>
      call<DraftOrderAnswer>(t, 'PUT', `${P}/set-shipping-info`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    setBuyerInfo: (draftOrderId: string, options: { buyerInfo: NonNullable<DraftOrderInput['buyerInfo']> }) =>
      call<DraftOrderAnswer>(t, 'PUT', `${P}/set-buyer-info`, { draftOrderId, ...options }, { args: { '*': 'options' } }),
    commitDraftOrder: (draftOrderId: string) => call<Committed>(t, 'POST', `${id(draftOrderId)}/commit`, { draftOrderId }),
    deleteDraftOrder: (draftOrderId: string) => call<Record<string, never>>(t, 'DELETE', id(draftOrderId)),
    getOrderDraftabilityStatus: (orderId: string) =>
      call<{ orderId?: string; orderDraftable?: boolean; nonDraftableReasons?: string[] }>(t, 'GET', `${P}/${enc(orderId)}/draftability`),
  };
}

export type DraftOrdersApi = ReturnType<typeof draftOrders>;
