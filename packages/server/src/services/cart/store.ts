// SQL for carts and their line items; nothing else.
import type { SiteContext } from '../../platform/context.js';
import { prepared } from '../../platform/db.js';
import { newEventId } from '../../platform/events.js';
import type { Buyer, BuyerKind } from '../commerce/buyer.js';
import { customLineFromJson, customLineToJson, readDiscounts, storeDiscounts, type CatalogReference, type CustomLine, type LineRef, type StoredCustomLine } from '../commerce/lines.js';
import type { MerchantDiscount } from '../commerce/pricing/model.js';

export interface Cart {
  id: string;
  buyer: Buyer;
  currency: string;
  couponCode: string | null;
  merchantDiscounts: MerchantDiscount[];
  buyerNote: string | null;
  contactInfo: Record<string, unknown> | null;
  selectedShippingOption: { code: string; carrierId?: string } | null;
  businessLocationId: string | null;
  checkoutId: string | null;
  createdDate: Date;
  updatedDate: Date;
  lines: LineRef[];
  /** The cart row's version (its xmin): every change of the cart or its lines gives a new one. Plain reads only. */
  version?: string;
  /** The row versions (xmin) of the products its lines point at, by product id (plain reads only): the catalog's cache checks its products against them. */
  productVersions?: Record<string, string>;
}

// JSON forms (bigint as decimal strings) ------------------------------------------------------

export function storeCustom(custom: CustomLine | undefined): string | null {
  return custom ? JSON.stringify(customLineToJson(custom)) : null;
}

export function readCustom(json: unknown): CustomLine | undefined {
  return json ? customLineFromJson(json as StoredCustomLine) : undefined;
}

interface CartRow {
  cart_id: string;
  buyer_kind: BuyerKind;
  buyer_id: string;
  currency: string;
  coupon_code: string | null;
  merchant_discounts: unknown;
  buyer_note: string | null;
  contact_info: Record<string, unknown> | null;
  selected_shipping_option: Cart['selectedShippingOption'];
  business_location_id: string | null;
  checkout_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  [key: string]: unknown;
}

export interface LineRow {
  line_item_id: string;
  catalog_reference: CatalogReference | null;
  quantity: number;
  custom: unknown;
  [key: string]: unknown;
}

// The one list of a cart's columns: every read and the add statement's RETURNING use it.
const CART_COLUMNS = `c.cart_id, c.buyer_kind, c.buyer_id, c.currency, c.coupon_code, c.merchant_discounts, c.buyer_note, c.contact_info,
  c.selected_shipping_option, c.business_location_id, c.checkout_id, c.created_at, c.updated_at`;

export function toLine(row: LineRow): LineRef {
  const custom = readCustom(row.custom);
  return {
    id: row.line_item_id,
    quantity: Number(row.quantity),
    ...(row.catalog_reference ? { catalogReference: row.catalog_reference } : {}),
    ...(custom ? { custom } : {}),
  };
}

function toCart(row: CartRow, lines: LineRef[]): Cart {
  return {
    id: row.cart_id,
    buyer: { kind: row.buyer_kind, id: row.buyer_id },
    currency: row.currency,
    couponCode: row.coupon_code,
    merchantDiscounts: readDiscounts(row.merchant_discounts),
    buyerNote: row.buyer_note,
    contactInfo: row.contact_info,
    selectedShippingOption: row.selected_shipping_option,
    businessLocationId: row.business_location_id,
    checkoutId: row.checkout_id,
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
    lines,
  };
}

const LINE_COLUMNS = 'l.line_item_id, l.catalog_reference, l.quantity, l.custom';
/** A cart's lines as one JSON array in the order they were added (for statements that answer one row). */
const LINES_JSON = `json_agg(json_build_object('line_item_id', l.line_item_id, 'catalog_reference', l.catalog_reference,
  'quantity', l.quantity, 'custom', l.custom) ORDER BY l.position)`;

const LINES_OF = prepared(`SELECT ${LINE_COLUMNS} FROM cart_line_items l WHERE l.site_id = $1 AND l.cart_id = $2 ORDER BY l.position`);

async function linesOf(ctx: SiteContext, cartId: string): Promise<LineRef[]> {
  const { db, siteId } = ctx;
  const rows = await db.query<LineRow>(LINES_OF, [siteId, cartId]);
  return rows.map(toLine);
}

/**
 * The buyer's cart with its lines, one row: statements run prepared, so this is planned once per
 * connection. Each line also answers its product's row version (xmin) for the product cache: one
 * pass over the lines with a probe of products' primary key, 6–9 µs a read over the read without
 * versions, where a second subquery over the lines cost 16 (pgbench, a cart of three lines).
 */
const READ_CART = prepared(`SELECT ${CART_COLUMNS}, c.xmin::text AS version,
    (SELECT json_agg(json_build_object('line_item_id', l.line_item_id, 'catalog_reference', l.catalog_reference,
        'quantity', l.quantity, 'custom', l.custom, 'product_version', p.xmin::text) ORDER BY l.position)
       FROM cart_line_items l LEFT JOIN products p ON p.site_id = $1 AND p.product_id = l.catalog_reference->>'catalogItemId'
      WHERE l.site_id = $1 AND l.cart_id = c.cart_id) AS lines
  FROM carts c WHERE c.site_id = $1 AND c.buyer_kind = $2 AND c.buyer_id = $3`);
const LOCK_CART = prepared(`SELECT ${CART_COLUMNS} FROM carts c WHERE c.site_id = $1 AND c.buyer_kind = $2 AND c.buyer_id = $3 FOR UPDATE`);
const CART_BY_ID = prepared(`SELECT ${CART_COLUMNS},
    (SELECT ${LINES_JSON} FROM cart_line_items l WHERE l.site_id = $1 AND l.cart_id = c.cart_id) AS lines
  FROM carts c WHERE c.site_id = $1 AND c.cart_id = $2`);

function withLines(row: CartRow & { lines: LineRow[] | null }): Cart {
  return toCart(row, (row.lines ?? []).map(toLine));
}

/** A read cart with its version and its products' versions (READ_CART's lines carry them). */
function withVersions(row: CartRow & { lines: (LineRow & { product_version: string | null })[] | null; version: string }): Cart {
  const productVersions: Record<string, string> = {};
  for (const line of row.lines ?? []) {
    const id = line.catalog_reference?.catalogItemId;
    if (line.product_version !== null && id) productVersions[id] = line.product_version;
  }
  return { ...withLines(row), version: row.version, productVersions };
}

/**
 * The buyer's cart with its lines in the order they were added: one statement; a locking read
 * takes the cart row FOR UPDATE, then its lines.
 */
export async function findCart(ctx: SiteContext, buyer: Buyer, forUpdate = false): Promise<Cart | undefined> {
  const { db, siteId } = ctx;
  if (forUpdate) {
    const rows = await db.query<CartRow>(LOCK_CART, [siteId, buyer.kind, buyer.id]);
    return rows[0] && toCart(rows[0], await linesOf(ctx, rows[0].cart_id));
  }
  const rows = await db.query<CartRow & { lines: (LineRow & { product_version: string | null })[] | null; version: string }>(READ_CART, [siteId, buyer.kind, buyer.id]);
  return rows[0] && withVersions(rows[0]);
}

export async function findCartById(ctx: SiteContext, cartId: string): Promise<Cart | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<CartRow & { lines: LineRow[] | null }>(CART_BY_ID, [siteId, cartId]);
  return rows[0] && withLines(rows[0]);
}

export interface NewLine {
  id: string;
  /** Null for custom lines, which never merge. */
  key: string | null;
  catalogReference: CatalogReference | null;
  quantity: number;
  custom: CustomLine | undefined;
}

export interface AddResult {
  cart: Cart;
  inserted: boolean;
  /** Every line of the cart after the add, in the order they were added. */
  lines: LineRef[];
  /** The ids of the lines this call wrote. */
  written: string[];
}

/** Raised when adding would take a line past its maximum quantity (the CHECK on quantity). */
export class LineQuantityExceeded extends Error {}

/**
 * Add-to-cart as ONE call of cart_add_lines (migration 1130), so it is atomic without a transaction
 * (one round trip, one commit): find or create the buyer's cart, add the lines, record the cart
 * event when a subscription wants it. A line with the same key gains the quantity under its row
 * lock, so concurrent adds all count; a line pushed past the maximum fails the CHECK on quantity
 * (SQLSTATE 23514), which undoes everything. Answers the cart, its lines read after the add under a
 * snapshot taken once the cart row's lock was granted ("existing"), and the lines it wrote
 * ("added"), which the caller lays over "existing". On Citus the function is distributed by its site
 * argument, so the coordinator sends the whole call to the one worker holding the site.
 */
const ADD_TO_CART = prepared('SELECT cart_add_lines($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb) AS added');

interface AddedRow {
  cart: CartRow;
  inserted: boolean;
  existing: LineRow[] | null;
  added: LineRow[] | null;
}

export async function addLines(
  ctx: SiteContext,
  cart: { id: string; buyer: Buyer; currency: string; businessLocationId: string | null },
  lines: readonly NewLine[],
  payload: Record<string, unknown>,
  at: Date,
): Promise<AddResult> {
  const { db, siteId } = ctx;
  let rows: { added: AddedRow }[];
  try {
    rows = await db.query(ADD_TO_CART, [siteId, cart.id, cart.buyer.kind, cart.buyer.id, cart.currency, cart.businessLocationId, at,
      JSON.stringify(lines.map((l) => ({ id: l.id, key: l.key, ref: l.catalogReference, quantity: l.quantity, custom: l.custom ? customLineToJson(l.custom) : null }))),
      newEventId(), JSON.stringify(payload)]);
  } catch (error) {
    if ((error as { code?: string }).code === '23514') throw new LineQuantityExceeded();
    throw error;
  }
  const row = rows[0].added;
  const added = (row.added ?? []).map(toLine);
  const written = added.map((l) => l.id);
  const byId = new Map(added.map((l) => [l.id, l]));
  const merged = (row.existing ?? []).map(toLine).map((l) => byId.get(l.id) ?? l);
  for (const l of added) if (!merged.some((m) => m.id === l.id)) merged.push(l);
  return { cart: toCart(row.cart, merged), inserted: row.inserted, lines: merged, written };
}

/** Locks the buyer's cart row (or nothing): writes that read-modify-write a cart take it first. */
export async function lockCart(ctx: SiteContext, buyer: Buyer): Promise<Cart | undefined> {
  return findCart(ctx, buyer, true);
}

export async function updateCartFields(
  ctx: SiteContext,
  cartId: string,
  fields: Partial<Pick<Cart, 'couponCode' | 'merchantDiscounts' | 'buyerNote' | 'contactInfo' | 'selectedShippingOption' | 'businessLocationId' | 'checkoutId'>>,
  at: Date,
): Promise<void> {
  const { db: tx, siteId } = ctx;
  const sets: string[] = ['updated_at = $3', 'revision = revision + 1'];
  const params: unknown[] = [siteId, cartId, at];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (fields.couponCode !== undefined) set('coupon_code', fields.couponCode);
  if (fields.merchantDiscounts !== undefined) set('merchant_discounts', storeDiscounts(fields.merchantDiscounts), '::jsonb');
  if (fields.buyerNote !== undefined) set('buyer_note', fields.buyerNote);
  if (fields.contactInfo !== undefined) set('contact_info', fields.contactInfo === null ? null : JSON.stringify(fields.contactInfo), '::jsonb');
  if (fields.selectedShippingOption !== undefined) set('selected_shipping_option', fields.selectedShippingOption === null ? null : JSON.stringify(fields.selectedShippingOption), '::jsonb');
  if (fields.businessLocationId !== undefined) set('business_location_id', fields.businessLocationId);
  if (fields.checkoutId !== undefined) set('checkout_id', fields.checkoutId);
  await tx.query(`UPDATE carts SET ${sets.join(', ')} WHERE site_id = $1 AND cart_id = $2`, params);
}

export async function removeLines(ctx: SiteContext, cartId: string, lineIds: readonly string[]): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query('DELETE FROM cart_line_items WHERE site_id = $1 AND cart_id = $2 AND line_item_id = ANY($3::text[])', [siteId, cartId, lineIds]);
}

export async function setLineQuantities(ctx: SiteContext, cartId: string, changes: readonly { id: string; quantity: number }[]): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE cart_line_items l SET quantity = c.quantity
     FROM jsonb_to_recordset($3::jsonb) AS c(id text, quantity int)
     WHERE l.site_id = $1 AND l.cart_id = $2 AND l.line_item_id = c.id`,
    [siteId, cartId, JSON.stringify(changes)],
  );
}

export async function deleteCart(ctx: SiteContext, cartId: string): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  await tx.query('DELETE FROM cart_line_items WHERE site_id = $1 AND cart_id = $2', [siteId, cartId]);
  const rows = await tx.query('DELETE FROM carts WHERE site_id = $1 AND cart_id = $2 RETURNING cart_id', [siteId, cartId]);
  return rows.length === 1;
}

/** The buyer's cart, created when missing; either way its row is locked until the transaction ends. */
export async function ensureCart(
  ctx: SiteContext,
  cart: { id: string; buyer: Buyer; currency: string },
  at: Date,
): Promise<{ id: string; inserted: boolean; couponCode: string | null; contactInfo: Record<string, unknown> | null }> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ cart_id: string; inserted: boolean; coupon_code: string | null; contact_info: Record<string, unknown> | null }>(
    `INSERT INTO carts (site_id, cart_id, buyer_kind, buyer_id, currency, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (site_id, buyer_kind, buyer_id) DO UPDATE SET updated_at = EXCLUDED.updated_at, revision = carts.revision + 1
     RETURNING cart_id, (xmax = 0) AS inserted, coupon_code, contact_info`,
    [siteId, cart.id, cart.buyer.kind, cart.buyer.id, cart.currency, at],
  );
  const row = rows[0];
  return { id: row.cart_id, inserted: row.inserted, couponCode: row.coupon_code, contactInfo: row.contact_info };
}

/** Moves every line of one cart into another; the same item adds up, capped at the maximum. */
export async function moveLines(ctx: SiteContext, fromCartId: string, toCartId: string, maxQuantity: number): Promise<void> {
  const { db: tx, siteId } = ctx;
  // The cap is written into the text: Citus runs this INSERT … SELECT through an intermediate result
  // and does not pass a parameter of its ON CONFLICT clause on to the worker.
  if (!Number.isSafeInteger(maxQuantity)) throw new Error(`moveLines: ${maxQuantity} is no quantity`);
  // Positions continue the target cart's (as cart_add_lines numbers them, migration 1130), so the
  // order stays the order of adding on Citus too, where an identity value depends on the node.
  await tx.query(
    `INSERT INTO cart_line_items AS l (site_id, cart_id, line_item_id, line_key, position, catalog_reference, quantity, custom, created_at)
     OVERRIDING SYSTEM VALUE
     SELECT f.site_id, $3::text, f.line_item_id, f.line_key,
       (SELECT COALESCE(max(t.position), 0) FROM cart_line_items t WHERE t.site_id = $1::text AND t.cart_id = $3::text) + row_number() OVER (ORDER BY f.position),
       f.catalog_reference, f.quantity, f.custom, f.created_at
     FROM cart_line_items f WHERE f.site_id = $1::text AND f.cart_id = $2::text ORDER BY f.position
     ON CONFLICT (site_id, cart_id, line_key) DO UPDATE SET quantity = LEAST(l.quantity + EXCLUDED.quantity, ${maxQuantity})`,
    [siteId, fromCartId, toCartId],
  );
}
