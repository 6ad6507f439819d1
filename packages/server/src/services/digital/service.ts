// Digital goods (issue 30): the merchant attaches files to a DIGITAL product (or a variant); a paid
// order grants each of its lines the product's files, mailed as signed links (DOWNLOAD_LINKS);
// each download is counted in the database, never past the product's limit.
import type { Readable } from 'node:stream';
import type { RequestContext } from '../../platform/caller.js';
import { siteContext, withTransaction, type SiteContext } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail.js';
import type { Keyring } from '../../platform/secrets.js';
import { StorageError, type FileStorage } from '../../platform/storage.js';
import type { Order } from '../orders/service.js';
import type { Product } from '../catalog/service.js';
import { signLink, verifyLink } from './links.js';
import { downloadLinksMail, type MailedLink } from './mails.js';
import { checkUpload, MAX_FILE_BYTES, MAX_FILES_PER_PRODUCT } from './uploads.js';
import * as store from './store.js';
import type { DigitalFile, Grant, LinkRules } from './store.js';

export type { DigitalFile, Grant, LinkRules } from './store.js';
export { MAX_FILE_BYTES, ALLOWED_TYPES } from './uploads.js';

export const DEFAULT_RULES: LinkRules = { linkDays: 7, maxDownloads: 5 };
const DAY_MS = 24 * 60 * 60 * 1000;

export interface DigitalDeps {
  db: Db;
  now: () => Date;
  keyring: Keyring;
  storage: FileStorage;
  /** The product (any visibility), for the back office's uploads. */
  product(ctx: RequestContext, productId: string): Promise<Product>;
  /** An order of the site, whoever placed it. */
  order(ctx: SiteContext, orderId: string): Promise<Order | undefined>;
  /** Puts a mail in the outbox inside the caller's transaction. */
  enqueue(tx: SiteContext, mail: Mail): Promise<void>;
  shop(ctx: SiteContext): Promise<{ name: string; origin: string }>;
}

/** One file of one order line, with a fresh link while it can be downloaded. */
export interface Download {
  grant: Grant;
  file: DigitalFile;
  url: string | null;
  expiresAt: Date | null;
  /** Why it cannot be downloaded now, when it cannot. */
  blocked: ApiError | null;
}

export interface OpenedDownload {
  file: DigitalFile;
  storage: FileStorage;
}

/** Why an order's files may not be downloaded now; undefined when they may. */
export function orderBlock(order: Order | undefined, lineItemId: string): ApiError | undefined {
  if (!order) return new ApiError(403, 'DOWNLOAD_LINK_INVALID', 'This download link is not valid');
  if (order.status === 'CANCELED') return new ApiError(403, 'ORDER_CANCELED', `Order #${order.number} was canceled, so its files can no longer be downloaded`);
  const line = order.lines.find((l) => l.id === lineItemId);
  if (order.paymentStatus === 'FULLY_REFUNDED' || (line && line.refundedQuantity >= line.quantity)) {
    return new ApiError(403, 'ORDER_REFUNDED', `Order #${order.number} was refunded, so its files can no longer be downloaded`);
  }
  if (order.paymentStatus !== 'PAID' && order.paymentStatus !== 'PARTIALLY_REFUNDED') {
    return new ApiError(403, 'ORDER_NOT_PAID', `Order #${order.number} is not paid yet; its files can be downloaded once it is`);
  }
  if (!line) return new ApiError(403, 'DOWNLOAD_LINK_INVALID', 'This download link is not valid');
  return undefined;
}

function productNotFound(productId: string): ApiError {
  return ApiError.notFound('PRODUCT_NOT_FOUND', `Product ${productId} was not found`, { productId });
}

export class DigitalService {
  constructor(private readonly deps: DigitalDeps) {}

  // Back office ----------------------------------------------------------------------------------

  async productFiles(ctx: RequestContext, productId: string): Promise<{ files: DigitalFile[]; rules: LinkRules }> {
    await this.digitalProduct(ctx, productId);
    const [files, rules] = await Promise.all([store.filesOfProduct(ctx, productId), store.readRules(ctx, productId)]);
    return { files, rules: rules ?? DEFAULT_RULES };
  }

  /** Streams an upload into storage (never more than MAX_FILE_BYTES), then records it; audited. */
  async attachFile(
    ctx: RequestContext, productId: string,
    input: { fileName: string; contentType: string; variantId: string | null; declaredSize: number | undefined; body: Readable },
  ): Promise<DigitalFile> {
    const product = await this.digitalProduct(ctx, productId);
    if (input.variantId !== null && !product.variants.some((v) => v.id === input.variantId)) {
      throw ApiError.validation([{ field: 'variantId', rule: 'VALIDATION', description: `product ${productId} has no variant ${input.variantId}` }]);
    }
    const fileName = checkUpload(input.fileName, input.contentType, input.declaredSize);
    if ((await store.filesOfProduct(ctx, productId)).length >= MAX_FILES_PER_PRODUCT) {
      throw new ApiError(400, 'TOO_MANY_FILES', `A product holds at most ${MAX_FILES_PER_PRODUCT} files`);
    }
    const id = newId();
    const storageKey = `${ctx.siteId}/digital/${id}`;
    let size: number;
    try {
      size = (await this.deps.storage.put(storageKey, input.body, { contentType: input.contentType, maxBytes: MAX_FILE_BYTES })).size;
    } catch (error) {
      if (error instanceof StorageError && error.reason === 'TOO_LARGE') throw new ApiError(413, 'FILE_TOO_LARGE', `A file may be at most ${MAX_FILE_BYTES / (1024 * 1024)} MB`, { maxBytes: MAX_FILE_BYTES });
      throw error;
    }
    const file: DigitalFile = { id, productId, variantId: input.variantId, fileName, contentType: input.contentType, size, storageKey, createdDate: ctx.now() };
    try {
      await withTransaction(ctx, async (tx) => {
        await store.insertFile(tx, file);
        await recordAudit(tx, { action: 'digital_file.attached', objectType: 'product', objectId: productId, after: { fileId: id, fileName, size, ...(file.variantId && { variantId: file.variantId }) } });
      });
    } catch (error) {
      await this.deps.storage.delete(storageKey);
      throw error;
    }
    return file;
  }

  async removeFile(ctx: RequestContext, productId: string, fileId: string): Promise<void> {
    const file = await withTransaction(ctx, async (tx) => {
      const found = await store.findFile(tx, fileId);
      if (!found || found.productId !== productId || !(await store.deleteFile(tx, fileId))) {
        throw ApiError.notFound('FILE_NOT_FOUND', `File ${fileId} is not attached to product ${productId}`, { fileId });
      }
      await recordAudit(tx, { action: 'digital_file.removed', objectType: 'product', objectId: productId, before: { fileId, fileName: found.fileName } });
      return found;
    });
    // After the commit: a rolled-back removal keeps its bytes.
    await this.deps.storage.delete(file.storageKey);
  }

  async setRules(ctx: RequestContext, productId: string, rules: LinkRules): Promise<LinkRules> {
    await this.digitalProduct(ctx, productId);
    return withTransaction(ctx, async (tx) => {
      const before = (await store.readRules(tx, productId)) ?? DEFAULT_RULES;
      await store.writeRules(tx, productId, rules);
      await recordAudit(tx, { action: 'digital_product.rules_changed', objectType: 'product', objectId: productId, before: { ...before }, after: { ...rules } });
      return rules;
    });
  }

  // Orders ---------------------------------------------------------------------------------------

  /** In the paid order's transaction: grants each line its product's files once, and mails the links. */
  async grantForPaidOrder(tx: SiteContext, order: Order): Promise<Grant[]> {
    const granted: Grant[] = [];
    const now = tx.now();
    for (const line of order.lines) {
      if (!line.productId) continue;
      const files = (await store.filesOfProduct(tx, line.productId)).filter((f) => f.variantId === null || f.variantId === line.variantId);
      if (files.length === 0) continue;
      const rules = (await store.readRules(tx, line.productId)) ?? DEFAULT_RULES;
      for (const file of files) {
        const grant: Grant = {
          id: newId(), orderId: order.id, orderNumber: order.number, lineItemId: line.id, fileId: file.id, buyer: order.buyer, buyerEmail: order.email,
          productName: line.name, linkDays: rules.linkDays, maxDownloads: rules.maxDownloads, downloads: 0, lastDownloadAt: null, createdDate: now,
        };
        if (await store.insertGrant(tx, grant)) granted.push(grant);
      }
    }
    if (granted.length > 0 && order.email) await this.mailLinks(tx, order.number, order.email, granted);
    return granted;
  }

  // Shoppers -------------------------------------------------------------------------------------

  /** The buyer's files with fresh links (the Downloads page). */
  async myDownloads(ctx: SiteContext, buyer: { kind: string; id: string }): Promise<Download[]> {
    const grants = await store.grantsOfBuyer(ctx, buyer, 200);
    return this.withLinks(ctx, grants);
  }

  /**
   * A guest asks for the links again: mailed only to the order's own address, and only when the
   * address given is that one; the caller answers the same whatever happened.
   */
  async resendLinks(ctx: SiteContext, orderNumber: number, email: string): Promise<void> {
    const grants = await store.grantsOfOrderNumber(ctx, orderNumber);
    const to = grants[0]?.buyerEmail;
    if (!to || to.trim().toLowerCase() !== email.trim().toLowerCase()) return;
    const order = await this.deps.order(ctx, grants[0].orderId);
    if (orderBlock(order, grants[0].lineItemId)) return;
    await withTransaction(ctx, (tx) => this.mailLinks(tx, orderNumber, to, grants));
  }

  /**
   * Checks a link and counts the download (a HEAD is not counted). The link's site gives the
   * context: the route is public, since a mailed link is opened without a token.
   */
  async open(token: string, count: boolean): Promise<OpenedDownload> {
    const claims = verifyLink(this.deps.keyring, token);
    if (!claims) throw new ApiError(403, 'DOWNLOAD_LINK_INVALID', 'This download link is not valid');
    const ctx = siteContext(this.deps.db, claims.siteId, this.deps.now);
    const grant = await store.findGrant(ctx, claims.grantId);
    if (!grant) throw new ApiError(403, 'DOWNLOAD_LINK_INVALID', 'This download link is not valid');
    const block = orderBlock(await this.deps.order(ctx, grant.orderId), grant.lineItemId);
    if (block) throw block;
    if (claims.expiresAt <= ctx.now()) {
      throw new ApiError(410, 'DOWNLOAD_LINK_EXPIRED', 'This download link has expired; ask for a new one from your account or with your order number', { expirationDate: claims.expiresAt.toISOString() });
    }
    const file = await store.findFile(ctx, grant.fileId);
    if (!file) throw new ApiError(410, 'FILE_GONE', 'The shop no longer offers this file');
    if (count && (await store.countDownload(ctx, grant.id, ctx.now())) === undefined) {
      throw new ApiError(410, 'DOWNLOAD_LIMIT_REACHED', `This file was downloaded ${grant.maxDownloads} times, the most this order allows`, { maxDownloads: grant.maxDownloads });
    }
    if (!count && grant.downloads >= grant.maxDownloads) {
      throw new ApiError(410, 'DOWNLOAD_LIMIT_REACHED', `This file was downloaded ${grant.maxDownloads} times, the most this order allows`, { maxDownloads: grant.maxDownloads });
    }
    return { file, storage: this.deps.storage };
  }

  // ----------------------------------------------------------------------------------------------

  private async digitalProduct(ctx: RequestContext, productId: string): Promise<Product> {
    const product = await this.deps.product(ctx, productId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) throw productNotFound(productId);
      throw error;
    });
    if (product.productType !== 'digital') throw new ApiError(400, 'NOT_A_DIGITAL_PRODUCT', `Files can be attached only to a digital product; ${product.name} is physical`);
    return product;
  }

  private async withLinks(ctx: SiteContext, grants: Grant[]): Promise<Download[]> {
    const files = await store.filesByIds(ctx, grants.map((g) => g.fileId));
    const orders = new Map<string, Order | undefined>();
    for (const id of new Set(grants.map((g) => g.orderId))) orders.set(id, await this.deps.order(ctx, id));
    const { origin } = await this.deps.shop(ctx);
    const out: Download[] = [];
    for (const grant of grants) {
      const file = files.get(grant.fileId);
      if (!file) continue;
      const blocked = orderBlock(orders.get(grant.orderId), grant.lineItemId)
        ?? (grant.downloads >= grant.maxDownloads ? new ApiError(410, 'DOWNLOAD_LIMIT_REACHED', `Downloaded ${grant.maxDownloads} times, the most this order allows`) : undefined);
      const link = blocked ? null : this.link(ctx, origin, grant);
      out.push({ grant, file, url: link?.url ?? null, expiresAt: link?.expiresAt ?? null, blocked: blocked ?? null });
    }
    return out;
  }

  private link(ctx: SiteContext, origin: string, grant: Grant): { url: string; expiresAt: Date } {
    const expiresAt = new Date(ctx.now().getTime() + grant.linkDays * DAY_MS);
    const token = signLink(this.deps.keyring, { siteId: ctx.siteId, grantId: grant.id, expiresAt });
    return { url: `${origin}/bodega/v1/downloads/${token}`, expiresAt };
  }

  private async mailLinks(tx: SiteContext, orderNumber: number, to: string, grants: Grant[]): Promise<void> {
    const files = await store.filesByIds(tx, grants.map((g) => g.fileId));
    const shop = await this.deps.shop(tx);
    const links: MailedLink[] = [];
    for (const grant of grants) {
      const file = files.get(grant.fileId);
      if (file) links.push({ grant, file, ...this.link(tx, shop.origin, grant) });
    }
    if (links.length > 0) await this.deps.enqueue(tx, downloadLinksMail(tx.siteId, { orderNumber, to, shop, links }));
  }
}
