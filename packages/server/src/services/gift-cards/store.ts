// SQL for gift cards, their ledger, the cards entered on checkouts and the gift-card settings.
import type { SiteContext } from '../../platform/context.js';

export interface GiftCard {
  id: string;
  code: string;
  currency: string;
  initialAmount: bigint;
  balance: bigint;
  status: 'ACTIVE' | 'DISABLED';
  expiresAt: Date | null;
  source: 'ORDER' | 'MANUAL';
  orderId: string | null;
  lineItemId: string | null;
  lineIndex: number | null;
  buyer: { kind: string; id: string } | null;
  buyerEmail: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  deliverAt: Date | null;
  note: string | null;
  createdDate: Date;
  updatedDate: Date;
}

export type LedgerKind = 'ISSUE' | 'REDEEM' | 'RELEASE' | 'REFUND' | 'ADJUST';

export interface LedgerEntry {
  id: string;
  giftCardId: string;
  kind: LedgerKind;
  /** Signed: what the balance moved by. */
  amount: bigint;
  balanceAfter: bigint;
  checkoutId: string | null;
  orderId: string | null;
  reason: string | null;
  actor: string | null;
  createdDate: Date;
}

export interface GiftCardSettings {
  productIds: string[];
  minCustomAmount: bigint | null;
  maxCustomAmount: bigint | null;
  validityMonths: number | null;
}

interface CardRow {
  gift_card_id: string; code: string; currency: string; initial_minor: string; balance_minor: string; status: GiftCard['status'];
  expires_at: Date | null; source: GiftCard['source']; order_id: string | null; line_item_id: string | null; line_index: number | null;
  buyer_kind: string | null; buyer_id: string | null; buyer_email: string | null; recipient_name: string | null; recipient_email: string | null;
  message: string | null; deliver_at: Date | null; note: string | null; created_at: Date; updated_at: Date;
  [key: string]: unknown;
}

const CARD_COLUMNS = `gift_card_id, code, currency, initial_minor, balance_minor, status, expires_at, source, order_id, line_item_id, line_index,
  buyer_kind, buyer_id, buyer_email, recipient_name, recipient_email, message, deliver_at, note, created_at, updated_at`;

const date = (d: Date | null) => (d ? new Date(d) : null);

function toCard(r: CardRow): GiftCard {
  return {
    id: r.gift_card_id,
    code: r.code,
    currency: r.currency,
    initialAmount: BigInt(r.initial_minor),
    balance: BigInt(r.balance_minor),
    status: r.status,
    expiresAt: date(r.expires_at),
    source: r.source,
    orderId: r.order_id,
    lineItemId: r.line_item_id,
    lineIndex: r.line_index,
    buyer: r.buyer_kind && r.buyer_id ? { kind: r.buyer_kind, id: r.buyer_id } : null,
    buyerEmail: r.buyer_email,
    recipientName: r.recipient_name,
    recipientEmail: r.recipient_email,
    message: r.message,
    deliverAt: date(r.deliver_at),
    note: r.note,
    createdDate: new Date(r.created_at),
    updatedDate: new Date(r.updated_at),
  };
}

/** Inserts a card; false when the order line already issued it (the paid hook ran twice). */
export async function insertCard(ctx: SiteContext, c: GiftCard): Promise<boolean> {
  const rows = await ctx.db.query(
    `INSERT INTO gift_cards (site_id, ${CARD_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
     ON CONFLICT (site_id, order_id, line_item_id, line_index) WHERE order_id IS NOT NULL DO NOTHING
     RETURNING gift_card_id`,
    [ctx.siteId, c.id, c.code, c.currency, c.initialAmount.toString(), c.balance.toString(), c.status, c.expiresAt, c.source, c.orderId,
      c.lineItemId, c.lineIndex, c.buyer?.kind ?? null, c.buyer?.id ?? null, c.buyerEmail, c.recipientName, c.recipientEmail, c.message,
      c.deliverAt, c.note, c.createdDate, c.updatedDate],
  );
  return rows.length > 0;
}

/** The card; `forUpdate` locks its row (every spender and adjuster takes this lock first). */
export async function findCard(ctx: SiteContext, id: string, forUpdate = false): Promise<GiftCard | undefined> {
  const rows = await ctx.db.query<CardRow>(`SELECT ${CARD_COLUMNS} FROM gift_cards WHERE site_id = $1 AND gift_card_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [ctx.siteId, id]);
  return rows[0] && toCard(rows[0]);
}

export async function findCardByCode(ctx: SiteContext, code: string): Promise<GiftCard | undefined> {
  const rows = await ctx.db.query<CardRow>(`SELECT ${CARD_COLUMNS} FROM gift_cards WHERE site_id = $1 AND code = $2`, [ctx.siteId, code]);
  return rows[0] && toCard(rows[0]);
}

/** Locks several cards in one order (by id), so two spenders never wait on each other in a cycle. */
export async function lockCards(ctx: SiteContext, ids: readonly string[]): Promise<Map<string, GiftCard>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.query<CardRow>(
    `SELECT ${CARD_COLUMNS} FROM gift_cards WHERE site_id = $1 AND gift_card_id = ANY($2::text[]) ORDER BY gift_card_id FOR UPDATE`,
    [ctx.siteId, [...ids]],
  );
  return new Map(rows.map((r) => [r.gift_card_id, toCard(r)]));
}

export async function updateCard(ctx: SiteContext, c: GiftCard): Promise<void> {
  await ctx.db.query(
    'UPDATE gift_cards SET balance_minor = $3, status = $4, expires_at = $5, updated_at = $6 WHERE site_id = $1 AND gift_card_id = $2',
    [ctx.siteId, c.id, c.balance.toString(), c.status, c.expiresAt, c.updatedDate],
  );
}

export async function insertLedger(ctx: SiteContext, e: LedgerEntry): Promise<void> {
  await ctx.db.query(
    `INSERT INTO gift_card_ledger (site_id, entry_id, gift_card_id, kind, amount_minor, balance_after, checkout_id, order_id, reason, actor, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [ctx.siteId, e.id, e.giftCardId, e.kind, e.amount.toString(), e.balanceAfter.toString(), e.checkoutId, e.orderId, e.reason, e.actor, e.createdDate],
  );
}

interface LedgerRow {
  entry_id: string; gift_card_id: string; kind: LedgerKind; amount_minor: string; balance_after: string; checkout_id: string | null;
  order_id: string | null; reason: string | null; actor: string | null; created_at: Date;
  [key: string]: unknown;
}

export async function ledgerOf(ctx: SiteContext, giftCardId: string): Promise<LedgerEntry[]> {
  const rows = await ctx.db.query<LedgerRow>(
    `SELECT entry_id, gift_card_id, kind, amount_minor, balance_after, checkout_id, order_id, reason, actor, created_at
       FROM gift_card_ledger WHERE site_id = $1 AND gift_card_id = $2 ORDER BY seq`,
    [ctx.siteId, giftCardId],
  );
  return rows.map((r) => ({
    id: r.entry_id, giftCardId: r.gift_card_id, kind: r.kind, amount: BigInt(r.amount_minor), balanceAfter: BigInt(r.balance_after),
    checkoutId: r.checkout_id, orderId: r.order_id, reason: r.reason, actor: r.actor, createdDate: new Date(r.created_at),
  }));
}

/** Back office: newest first; `search` matches the code (any part), an e-mail or a recipient's name. */
export async function listCards(ctx: SiteContext, options: { search?: string; limit: number; offset: number }): Promise<{ cards: GiftCard[]; total: number }> {
  const params: unknown[] = [ctx.siteId];
  let where = 'site_id = $1';
  if (options.search) {
    params.push(`%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, `%${options.search.toUpperCase().replace(/[\s-]/g, '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ' AND (code LIKE $3 OR buyer_email ILIKE $2 OR recipient_email ILIKE $2 OR recipient_name ILIKE $2)';
  }
  const count = await ctx.db.query<{ n: string; [key: string]: unknown }>(`SELECT count(*)::text AS n FROM gift_cards WHERE ${where}`, params);
  const rows = await ctx.db.query<CardRow>(
    `SELECT ${CARD_COLUMNS} FROM gift_cards WHERE ${where} ORDER BY created_at DESC, gift_card_id LIMIT ${options.limit} OFFSET ${options.offset}`,
    params,
  );
  return { cards: rows.map(toCard), total: Number(count[0]?.n ?? 0) };
}

export async function cardsOfBuyer(ctx: SiteContext, buyer: { kind: string; id: string }): Promise<GiftCard[]> {
  const rows = await ctx.db.query<CardRow>(
    `SELECT ${CARD_COLUMNS} FROM gift_cards WHERE site_id = $1 AND buyer_kind = $2 AND buyer_id = $3 ORDER BY created_at DESC LIMIT 200`,
    [ctx.siteId, buyer.kind, buyer.id],
  );
  return rows.map(toCard);
}

/** The cards on a checkout, first entered first, each with what the checkout holds of it. */
export async function checkoutCards(ctx: SiteContext, checkoutId: string): Promise<{ card: GiftCard; held: bigint }[]> {
  const rows = await ctx.db.query<CardRow & { held: string }>(
    `SELECT ${CARD_COLUMNS.split(', ').map((c) => `g.${c.trim()}`).join(', ')},
       COALESCE((SELECT -sum(l.amount_minor) FROM gift_card_ledger l
                  WHERE l.site_id = $1 AND l.gift_card_id = g.gift_card_id AND l.checkout_id = c.checkout_id AND l.kind IN ('REDEEM', 'RELEASE')), 0)::text AS held
       FROM checkout_gift_cards c JOIN gift_cards g ON g.site_id = c.site_id AND g.gift_card_id = c.gift_card_id
      WHERE c.site_id = $1 AND c.checkout_id = $2 ORDER BY c.position`,
    [ctx.siteId, checkoutId],
  );
  return rows.map((r) => ({ card: toCard(r), held: BigInt(r.held) }));
}

export async function addCheckoutCard(ctx: SiteContext, checkoutId: string, giftCardId: string): Promise<void> {
  await ctx.db.query(
    `INSERT INTO checkout_gift_cards (site_id, checkout_id, gift_card_id, position)
     SELECT $1, $2, $3, COALESCE(max(position), 0) + 1 FROM checkout_gift_cards WHERE site_id = $1 AND checkout_id = $2
     ON CONFLICT DO NOTHING`,
    [ctx.siteId, checkoutId, giftCardId],
  );
}

export async function removeCheckoutCards(ctx: SiteContext, checkoutId: string, giftCardIds?: readonly string[]): Promise<void> {
  if (giftCardIds) {
    await ctx.db.query('DELETE FROM checkout_gift_cards WHERE site_id = $1 AND checkout_id = $2 AND gift_card_id = ANY($3::text[])', [ctx.siteId, checkoutId, [...giftCardIds]]);
  } else {
    await ctx.db.query('DELETE FROM checkout_gift_cards WHERE site_id = $1 AND checkout_id = $2', [ctx.siteId, checkoutId]);
  }
}

/** The checkout's holds become its order's redemptions. */
export async function attachOrder(ctx: SiteContext, checkoutId: string, orderId: string): Promise<void> {
  await ctx.db.query('UPDATE gift_card_ledger SET order_id = $3 WHERE site_id = $1 AND checkout_id = $2 AND order_id IS NULL', [ctx.siteId, checkoutId, orderId]);
}

interface SettingsRow {
  product_ids: string[]; min_custom_minor: string | null; max_custom_minor: string | null; validity_months: number | null;
  [key: string]: unknown;
}

export async function readSettings(ctx: SiteContext): Promise<GiftCardSettings> {
  const rows = await ctx.db.query<SettingsRow>('SELECT product_ids, min_custom_minor, max_custom_minor, validity_months FROM gift_card_settings WHERE site_id = $1', [ctx.siteId]);
  const r = rows[0];
  return {
    productIds: r?.product_ids ?? [],
    minCustomAmount: r?.min_custom_minor ? BigInt(r.min_custom_minor) : null,
    maxCustomAmount: r?.max_custom_minor ? BigInt(r.max_custom_minor) : null,
    validityMonths: r?.validity_months ?? null,
  };
}

export async function writeSettings(ctx: SiteContext, s: GiftCardSettings): Promise<void> {
  await ctx.db.query(
    `INSERT INTO gift_card_settings (site_id, product_ids, min_custom_minor, max_custom_minor, validity_months, updated_at)
     VALUES ($1, $2::text[], $3, $4, $5, $6)
     ON CONFLICT (site_id) DO UPDATE SET product_ids = $2::text[], min_custom_minor = $3, max_custom_minor = $4, validity_months = $5, updated_at = $6`,
    [ctx.siteId, s.productIds, s.minCustomAmount?.toString() ?? null, s.maxCustomAmount?.toString() ?? null, s.validityMonths, ctx.now()],
  );
}
