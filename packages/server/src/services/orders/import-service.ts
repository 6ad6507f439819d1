// Importing orders from another platform (issue 31): the official importOrder and
// setOrderNumberCounter calls, and the back office's file import. An imported order is history:
// it takes no stock, sends no mail and fires no "order placed" event — only `order.imported`
// (wix.ecom.v1.order_imported) — and importing the same order again finds the first one.
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvents } from '../../platform/events.js';
import { recordAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import { catalogBackOffice } from '../catalog/service.js';
import { commerceSettingsOf } from '../commerce-settings/service.js';
import type { SitesService } from '../sites/service.js';
import { checkImport, type CheckedImport, type ImportOrderInput, type ImportSite } from './import-model.js';
import { MAX_IMPORT_ROWS, readOrderFile } from './import-file.js';
import { failuresCsv } from '../../platform/csv-cells.js';
import * as importStore from './import-store.js';
import type { Order } from './model.js';
import { FIRST_ORDER_NUMBER } from './service.js';
import * as store from './store.js';

/** What became of one order of a file (or one importOrder call). */
export type ImportStatus = 'IMPORTED' | 'ALREADY_IMPORTED' | 'REPLACED' | 'FAILED';

export interface ImportOutcome {
  status: Exclude<ImportStatus, 'FAILED'>;
  order: Order;
}

export interface FileResult {
  rows: number[];
  externalOrderId?: string;
  status: ImportStatus;
  orderId?: string;
  number?: number;
  /** For FAILED: the spec's reason (or INVALID_ARGUMENT, ORDER_NUMBER_TAKEN) and the words for it. */
  code?: string;
  message?: string;
}

export class OrderImports {
  constructor(private readonly sites: SitesService) {}

  private async site(ctx: SiteContext): Promise<ImportSite> {
    const site = await this.sites.activeSite(ctx);
    return { currency: site.settings.currency, weightUnit: commerceSettingsOf(site).weightUnit };
  }

  /** importOrder: one order; `input.id` names an imported order to replace. */
  async importOrder(ctx: RequestContext, input: ImportOrderInput): Promise<ImportOutcome> {
    const checked = checkImport(input, await this.site(ctx), ctx.now(), newId);
    return this.save(ctx, checked, input.id);
  }

  /**
   * The back office's file: each order checked and saved on its own; a refused one does not stop the
   * rest. The file's counts and its refused rows are kept under `importId` for the failures file.
   */
  async importFile(ctx: RequestContext, format: 'csv' | 'json', content: string): Promise<{ importId: string; results: FileResult[]; imported: number; alreadyImported: number; failed: number }> {
    const site = await this.site(ctx);
    const results: FileResult[] = [];
    const failures: importStore.ImportFailureRow[] = [];
    for (const item of readOrderFile(format, content)) {
      const base = { rows: item.rows, ...(item.externalOrderId !== undefined && { externalOrderId: item.externalOrderId }) };
      try {
        if ('error' in item) throw item.error;
        const outcome = await this.save(ctx, checkImport(item.input, site, ctx.now(), newId), item.input.id);
        results.push({ ...base, status: outcome.status, orderId: outcome.order.id, number: outcome.order.number });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ ...base, status: 'FAILED', code: error.code, message: error.message });
        // Every row of a refused order is in the failures file, with the order's reason.
        item.rows.forEach((row, i) => failures.push({ row, ...base, code: error.code, error: error.message, data: item.data[i] ?? {} }));
      }
    }
    const importId = newId();
    const count = (status: ImportStatus) => results.filter((r) => r.status === status).length;
    const file = { importId, format, orders: results.length, imported: count('IMPORTED') + count('REPLACED'), alreadyImported: count('ALREADY_IMPORTED'), failed: count('FAILED'), createdAt: ctx.now() };
    await withTransaction(ctx, async (tx) => {
      await importStore.insertImportFile(tx, file, failures);
      await recordAudit(tx, {
        action: 'order.import_file', objectType: 'order_import', objectId: importId,
        after: { format, orders: file.orders, imported: file.imported, alreadyImported: file.alreadyImported, failed: file.failed },
      });
    });
    return { importId, results, imported: file.imported, alreadyImported: file.alreadyImported, failed: file.failed };
  }

  /**
   * A file import's failures file: `row`, `error` (the reason in words), `reason` (the spec's code),
   * then the row as it came (a JSON file: the order's fields). 404 for another site's import.
   */
  async importFailuresCsv(ctx: RequestContext, importId: string): Promise<AsyncGenerator<string>> {
    if (!(await importStore.importFileExists(ctx, importId))) throw ApiError.notFound('ORDER_IMPORT_NOT_FOUND', `Order import ${importId} was not found`, { importId });
    await recordAudit(ctx, { action: 'export.order_import_failures', objectType: 'order_import', objectId: importId });
    return failuresCsv(withReason(importStore.importFailures(ctx, importId, MAX_IMPORT_ROWS)));
  }

  /**
   * setOrderNumberCounter: the next web order gets `counter`. Lower than now only with
   * `allowLowerCounter`, and never at or below a number an order already has (numbers stay unique).
   */
  async setOrderNumberCounter(ctx: RequestContext, counter: number, allowLower: boolean): Promise<{ oldCounter: number; newCounter: number }> {
    return withTransaction(ctx, async (tx) => {
      const current = await importStore.lockOrderCounter(tx, FIRST_ORDER_NUMBER);
      const oldCounter = current + 1;
      if (counter < oldCounter && !allowLower) {
        throw new ApiError(400, 'CANNOT_SET_LOWER_ORDER_NUMBER_COUNTER', `The next order number is ${oldCounter}: a lower one needs allowLowerCounter`, { oldCounter: String(oldCounter) });
      }
      const highest = await importStore.highestOrderNumber(tx);
      if (counter <= highest) {
        throw new ApiError(400, 'CANNOT_SET_LOWER_ORDER_NUMBER_COUNTER', `Order ${highest} exists: the next order number must be higher`, { highestOrderNumber: String(highest) });
      }
      await importStore.setOrderCounter(tx, counter - 1);
      await recordAudit(tx, { action: 'order.number_counter_set', objectType: 'order_number_counter', objectId: tx.siteId, before: { next: oldCounter }, after: { next: counter } });
      return { oldCounter, newCounter: counter };
    });
  }

  private async save(ctx: RequestContext, checked: CheckedImport, replaceId?: string): Promise<ImportOutcome> {
    const known = await catalogBackOffice.existingProductIds(ctx, [...new Set(checked.productIds)]);
    const unknown = checked.productIds.find((id) => !known.has(id));
    if (unknown !== undefined) {
      throw new ApiError(400, 'UNSUPPORTED_CATALOG_ITEM', `A line names product ${unknown}, which this shop does not have: leave out lineProductId to import it as a custom line`, { catalogItemId: unknown });
    }
    try {
      return await withTransaction(ctx, (tx) => (replaceId ? this.replace(tx, checked, replaceId) : this.insert(tx, checked)));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another import of the same order committed first: answer that one (no duplicate).
      const first = checked.externalOrderId ? await importStore.findImported(ctx, checked.order.channelType, checked.externalOrderId) : undefined;
      if (first) return { status: 'ALREADY_IMPORTED', order: first };
      throw numberTaken(checked.number ?? 0);
    }
  }

  private async insert(tx: RequestContext, checked: CheckedImport): Promise<ImportOutcome> {
    if (checked.externalOrderId) {
      const first = await importStore.findImported(tx, checked.order.channelType, checked.externalOrderId);
      if (first) return { status: 'ALREADY_IMPORTED', order: first };
    }
    let number: number;
    if (checked.number === undefined) {
      number = await store.nextOrderNumber(tx, FIRST_ORDER_NUMBER);
    } else {
      await importStore.raiseOrderCounter(tx, checked.number, FIRST_ORDER_NUMBER);
      if (await importStore.numberTaken(tx, checked.number)) throw numberTaken(checked.number);
      number = checked.number;
    }
    const order: Order = { ...checked.order, id: newId(), number };
    await store.insertOrder(tx, order);
    await this.record(tx, order, 'order.imported');
    return { status: 'IMPORTED', order };
  }

  private async replace(tx: RequestContext, checked: CheckedImport, orderId: string): Promise<ImportOutcome> {
    const current = await store.findOrder(tx, orderId, true);
    if (!current) throw ApiError.notFound('ORDER_NOT_FOUND', `Order ${orderId} was not found`, { orderId });
    if (!current.imported) throw new ApiError(400, 'CANNOT_OVERWRITE_NON_IMPORTED_ORDER', `Order ${current.number} was placed in this shop: only imported orders can be replaced`, { orderId });
    const number = checked.number ?? current.number;
    if (number !== current.number) {
      await importStore.raiseOrderCounter(tx, number, FIRST_ORDER_NUMBER);
      if (await importStore.numberTaken(tx, number, orderId)) throw numberTaken(number);
    }
    const order: Order = { ...checked.order, id: current.id, number };
    await importStore.replaceOrder(tx, order);
    await this.record(tx, order, 'order.imported_again');
    return { status: 'REPLACED', order };
  }

  /** The one event an import fires, and its audit entry, in the import's transaction. */
  private async record(tx: RequestContext, order: Order, action: string): Promise<void> {
    await recordEvents(tx, [{
      siteId: tx.siteId, type: 'order.imported', entityType: 'order', entityId: order.id,
      payload: { orderId: order.id, number: String(order.number), buyer: order.buyer, status: order.status, paymentStatus: order.paymentStatus, fulfillmentStatus: order.fulfillmentStatus, total: order.totals.total.toString(), currency: order.currency },
    }]);
    await recordAudit(tx, { action, objectType: 'order', objectId: order.id, after: { number: order.number, channelType: order.channelType, externalOrderId: order.imported?.externalOrderId ?? null, total: order.totals.total.toString() } });
  }
}

async function* withReason(batches: AsyncIterable<importStore.ImportFailureRow[]>): AsyncGenerator<{ row: number; error: string; data: Record<string, unknown> }[]> {
  for await (const batch of batches) yield batch.map((f) => ({ row: f.row, error: f.error, data: { reason: f.code, ...f.data } }));
}

function numberTaken(number: number): ApiError {
  return new ApiError(409, 'ORDER_NUMBER_TAKEN', `Order number ${number} is taken by another order of this shop: import it without a number, or with a free one`, { number: String(number) });
}
