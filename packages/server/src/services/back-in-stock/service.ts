// Back-in-stock requests (@wix/ecom backInStockNotifications): a shopper leaves an e-mail for a
// sold-out variant; the transaction that brings the variant back in stock claims the waiting
// requests (a conditional UPDATE: each is claimed once) and puts their mails in the mail outbox.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { escapeHtml, type Mail } from '../../platform/mail.js';
import { compileFilter, FilterError, readInteger, type FieldMap } from '../../platform/query-filter.js';
import { isStoresAppId, resolveVariant, stockOf, type CatalogOptions, type CatalogService, type Product } from '../catalog/service.js';
import * as store from './store.js';
import type { StockRequest } from './store.js';

export type { StockRequest } from './store.js';

export interface BackInStockDeps {
  catalog: CatalogService;
  /** Puts a mail in the stored outbox inside the caller's transaction. */
  enqueueMail(tx: SiteContext, mail: Mail): Promise<void>;
  /** The shop's name and the origin its pages are at. */
  shop(ctx: SiteContext): Promise<{ name: string; origin: string }>;
}

export interface NewRequest {
  catalogReference: { catalogItemId: string; appId: string; options?: CatalogOptions };
  email: string;
  itemDetails: { name?: string; price?: string; image?: string };
  itemUrl?: string;
}

const FIELDS: FieldMap = {
  id: { kind: 'column', sql: 'r.request_id', type: 'text' },
  'catalogReference.catalogItemId': { kind: 'column', sql: 'r.product_id', type: 'text' },
  'catalogReference.appId': { kind: 'column', sql: `'215238eb-22a5-4c36-9e7b-e7c08025e04e'::text`, type: 'text' },
  status: { kind: 'column', sql: 'r.status', type: 'text' },
  email: { kind: 'column', sql: 'r.email', type: 'text' },
  contactId: { kind: 'column', sql: 'r.contact_id', type: 'text' },
  createdDate: { kind: 'column', sql: 'r.created_at', type: 'timestamp' },
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function notFound(requestId: string): ApiError {
  return ApiError.notFound('BACK_IN_STOCK_NOTIFICATION_REQUEST_NOT_FOUND', `Request ${requestId} was not found`, { requestId });
}

export class BackInStockService {
  constructor(private readonly deps: BackInStockDeps) {
    deps.catalog.onProductsSaved((tx, products) => this.productsSaved(tx, products));
  }

  async createRequest(ctx: RequestContext, input: NewRequest): Promise<StockRequest> {
    if (!isStoresAppId(input.catalogReference.appId)) {
      throw new ApiError(400, 'ITEM_APP_ID_NOT_SUPPORTED', 'Back-in-stock requests are for catalog items of Wix Stores', { appId: input.catalogReference.appId });
    }
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw ApiError.validation([{ field: 'request.email', rule: 'FORMAT', description: 'must be an e-mail address' }]);
    const product = await this.deps.catalog.getProduct(ctx, input.catalogReference.catalogItemId);
    const resolved = resolveVariant(product, input.catalogReference.options);
    if (!resolved.ok) throw new ApiError(400, resolved.code, resolved.description, { catalogItemId: product.id });
    const now = ctx.now();
    return withTransaction(ctx, (tx) => store.insertRequest(tx, {
      id: newId(),
      productId: product.id,
      variantId: resolved.variant.id,
      catalogOptions: input.catalogReference.options ?? null,
      email,
      contactId: ctx.caller.kind === 'MEMBER' ? ctx.caller.subjectId : null,
      status: 'RECEIVED',
      autoNotified: null,
      itemName: input.itemDetails.name || product.name,
      itemPrice: input.itemDetails.price ?? null,
      itemImage: input.itemDetails.image ?? null,
      itemUrl: input.itemUrl ?? null,
      createdDate: now,
      notifiedDate: null,
    }));
  }

  async getRequest(ctx: RequestContext, requestId: string): Promise<StockRequest> {
    const found = await store.findRequest(ctx, requestId);
    if (!found) throw notFound(requestId);
    return found;
  }

  async deleteRequest(ctx: RequestContext, requestId: string): Promise<void> {
    if (!(await store.deleteRequest(ctx, requestId))) throw notFound(requestId);
  }

  /** The back office marks a request sent (it notified the shopper itself): no mail. */
  async markAsSent(ctx: RequestContext, requestId: string): Promise<StockRequest> {
    const [claimed] = await store.claimWaiting(ctx, { requestId }, false, ctx.now());
    return claimed ?? this.getRequest(ctx, requestId);
  }

  /** The back office says an item is back: its waiting requests are mailed now. */
  async reportBackInStock(ctx: RequestContext, productId: string): Promise<number> {
    const product = await this.deps.catalog.getProduct(ctx, productId);
    return withTransaction(ctx, async (tx) => this.notify(tx, product, null, false));
  }

  async queryRequests(ctx: RequestContext, query: { filter?: unknown; paging?: { limit?: unknown; offset?: unknown } }): Promise<StockRequest[]> {
    try {
      const limit = readInteger(query.paging?.limit, 'paging.limit', { min: 1, max: 100 }) ?? 50;
      const offset = readInteger(query.paging?.offset, 'paging.offset', { min: 0 }) ?? 0;
      const params: unknown[] = [ctx.siteId];
      const where = compileFilter(query.filter ?? {}, FIELDS, params);
      return await store.queryRequests(ctx, { where, params, limit, offset });
    } catch (error) {
      if (error instanceof FilterError) throw new ApiError(400, 'INVALID_QUERY', error.message);
      throw error;
    }
  }

  /** In the saving transaction: waiting requests of variants now in stock are claimed and mailed. */
  private async productsSaved(tx: SiteContext, products: readonly Product[]): Promise<void> {
    for (const product of products) {
      const inStock = product.variants.filter((v) => stockOf(product, v).inStock).map((v) => v.id);
      if (inStock.length) await this.notify(tx, product, inStock, true);
    }
  }

  private async notify(tx: SiteContext, product: Product, variantIds: readonly string[] | null, auto: boolean): Promise<number> {
    const claimed = await store.claimWaiting(tx, { productId: product.id, variantIds }, auto, tx.now());
    if (!claimed.length) return 0;
    const shop = await this.deps.shop(tx);
    for (const request of claimed) {
      const link = request.itemUrl ?? `${shop.origin}/products/${product.slug}`;
      const subject = `${shop.name}: ${request.itemName} is back in stock`;
      const text = [`${request.itemName} is back in stock.`, '', `Get it here: ${link}`, '', shop.name].join('\n');
      const html = `<h1>${escapeHtml(shop.name)}</h1><p>${escapeHtml(request.itemName)} is back in stock.</p><p><a href="${escapeHtml(link)}">Get it here</a></p>`;
      await this.deps.enqueueMail(tx, { siteId: tx.siteId, kind: 'BACK_IN_STOCK', to: request.email, subject, text, html });
    }
    return claimed.length;
  }
}
