// SQL for checkouts; nothing else.
import type { SiteContext } from '../../platform/context.js';
import { lineFromJson, lineToJson, readDiscounts, storeDiscounts, type LineRef, type StoredLine } from '../commerce/lines.js';
import type { MerchantDiscount, TipChoice } from '../commerce/pricing/model.js';
import type { Buyer, BuyerKind } from '../commerce/buyer.js';

export type KeyedLine = LineRef & { key: string | null };

export interface Checkout {
  id: string;
  cartId: string | null;
  buyer: Buyer;
  channelType: string;
  currency: string;
  lines: KeyedLine[];
  couponCode: string | null;
  merchantDiscounts: MerchantDiscount[];
  buyerNote: string | null;
  email: string | null;
  billingInfo: Record<string, unknown> | null;
  shippingDestination: Record<string, unknown> | null;
  selectedShippingOption: { code: string; carrierId?: string } | null;
  deliveryTimeSlot: { from: string; to: string } | null;
  /** The shopper's tip (the official tips' tipChoice for this purchase flow); null: none. */
  tipChoice: TipChoice | null;
  completed: boolean;
  orderId: string | null;
  createdDate: Date;
  updatedDate: Date;
}

interface CheckoutRow {
  checkout_id: string;
  cart_id: string | null;
  buyer_kind: BuyerKind;
  buyer_id: string;
  channel_type: string;
  currency: string;
  line_items: StoredLine[];
  coupon_code: string | null;
  merchant_discounts: unknown;
  buyer_note: string | null;
  email: string | null;
  billing_info: Record<string, unknown> | null;
  shipping_destination: Record<string, unknown> | null;
  selected_shipping_option: Checkout['selectedShippingOption'];
  delivery_time_slot: Checkout['deliveryTimeSlot'];
  tip_choice: TipChoice | null;
  completed: boolean;
  order_id: string | null;
  created_at: Date;
  updated_at: Date;
  [key: string]: unknown;
}

const COLUMNS = `checkout_id, cart_id, buyer_kind, buyer_id, channel_type, currency, line_items, coupon_code, merchant_discounts, buyer_note,
  email, billing_info, shipping_destination, selected_shipping_option, delivery_time_slot, tip_choice, completed, order_id, created_at, updated_at`;

function toCheckout(row: CheckoutRow): Checkout {
  return {
    id: row.checkout_id,
    cartId: row.cart_id,
    buyer: { kind: row.buyer_kind, id: row.buyer_id },
    channelType: row.channel_type,
    currency: row.currency,
    lines: row.line_items.map((l) => ({ ...lineFromJson(l), key: l.key })),
    couponCode: row.coupon_code,
    merchantDiscounts: readDiscounts(row.merchant_discounts),
    buyerNote: row.buyer_note,
    email: row.email,
    billingInfo: row.billing_info,
    shippingDestination: row.shipping_destination,
    selectedShippingOption: row.selected_shipping_option,
    deliveryTimeSlot: row.delivery_time_slot,
    tipChoice: row.tip_choice ?? null,
    completed: row.completed,
    orderId: row.order_id,
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export async function insertCheckout(ctx: SiteContext, c: Checkout): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `INSERT INTO checkouts (site_id, checkout_id, cart_id, buyer_kind, buyer_id, channel_type, currency, line_items, coupon_code,
       merchant_discounts, buyer_note, email, billing_info, shipping_destination, selected_shipping_option, delivery_time_slot,
       completed, order_id, created_at, updated_at, tip_choice)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11, $12, $13::jsonb, $14::jsonb, $15::jsonb, $16::jsonb, false, NULL, $17, $17, $18::jsonb)`,
    [siteId, c.id, c.cartId, c.buyer.kind, c.buyer.id, c.channelType, c.currency, JSON.stringify(c.lines.map((l) => lineToJson(l, l.key))),
      c.couponCode, storeDiscounts(c.merchantDiscounts), c.buyerNote, c.email, json(c.billingInfo), json(c.shippingDestination),
      json(c.selectedShippingOption), json(c.deliveryTimeSlot), c.createdDate, json(c.tipChoice)],
  );
}

/** Writes everything a buyer may change (the caller holds the row lock). */
export async function updateCheckout(ctx: SiteContext, c: Checkout): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE checkouts SET line_items = $3::jsonb, coupon_code = $4, merchant_discounts = $5::jsonb, buyer_note = $6, email = $7,
       billing_info = $8::jsonb, shipping_destination = $9::jsonb, selected_shipping_option = $10::jsonb, delivery_time_slot = $11::jsonb,
       updated_at = $12, buyer_kind = $13, buyer_id = $14, tip_choice = $15::jsonb
     WHERE site_id = $1 AND checkout_id = $2`,
    [siteId, c.id, JSON.stringify(c.lines.map((l) => lineToJson(l, l.key))), c.couponCode, storeDiscounts(c.merchantDiscounts), c.buyerNote,
      c.email, json(c.billingInfo), json(c.shippingDestination), json(c.selectedShippingOption), json(c.deliveryTimeSlot), c.updatedDate,
      c.buyer.kind, c.buyer.id, json(c.tipChoice)],
  );
}

export async function markCompleted(ctx: SiteContext, checkoutId: string, orderId: string, at: Date): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query('UPDATE checkouts SET completed = true, order_id = $3, updated_at = $4 WHERE site_id = $1 AND checkout_id = $2', [siteId, checkoutId, orderId, at]);
}

/** The checkout; `forUpdate` locks its row (create-order serialises on it). */
export async function findCheckout(ctx: SiteContext, checkoutId: string, forUpdate = false): Promise<Checkout | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<CheckoutRow>(`SELECT ${COLUMNS} FROM checkouts WHERE site_id = $1 AND checkout_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, checkoutId]);
  return rows[0] && toCheckout(rows[0]);
}

export async function findCheckoutByCart(ctx: SiteContext, cartId: string): Promise<Checkout | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<CheckoutRow>(`SELECT ${COLUMNS} FROM checkouts WHERE site_id = $1 AND cart_id = $2 ORDER BY created_at DESC LIMIT 1`, [siteId, cartId]);
  return rows[0] && toCheckout(rows[0]);
}
