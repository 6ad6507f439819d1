/**
 * Import jobs: a products or data-items file, run on the server after the call answers, so a
 * closed tab loses nothing. A job is claimed with a lease; its progress is saved after every batch,
 * so a job whose server stopped is taken up again (by this server at start, or another) from the
 * last saved batch. Rows that fail are kept with their row number and the reason.
 */
import { parse } from 'csv-parse/sync';
import { restoreCell } from '../../platform/csv-cells.js';
import type { Caller, RequestContext } from '../../platform/caller.js';
import { poolContext, siteContext, withTransaction } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { catalogBackOffice, slugify, type CatalogService } from '../catalog/service.js';
import type { DataService } from '../data/service.js';
import type { SitesService } from '../sites/service.js';
import { groupProductRows, productFromRows, ProductRowsError, RowError, type NumberedRow, type ProductCsvRow, type ProductImport } from './products-csv.js';
import * as store from './store.js';

export const IMPORT_BATCH = 200;
export const MAX_IMPORT_ROWS = 100_000;
const LEASE_MS = 5 * 60_000;

type Row = Record<string, unknown>;
interface Failure { row: number; error: string; data: Row }

export interface ImportDeps {
  db: Db;
  now: () => Date;
  sites: SitesService;
  catalog: CatalogService;
  data: DataService;
}

function reason(error: unknown): string {
  if (error instanceof ApiError && error.violations?.length) return error.violations.map((v) => `${v.field.replace(/^product\./, '')}: ${v.description}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}

/** The file's rows as objects; a file that cannot be read at all fails the whole job. */
export function readRows(format: store.ImportFormat, content: string): Row[] {
  if (format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch (error) {
      throw new RowError(`The file is not JSON: ${reason(error)}`);
    }
    if (!Array.isArray(parsed)) throw new RowError('A JSON import is an array of objects');
    return parsed.map((item) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Row) : { value: item }));
  }
  try {
    // Every cell as the export wrote it, less the `'` that kept a formula from running (csv-cells.ts).
    // (cast also sees the header row.)
    return parse(content, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true, cast: (value) => restoreCell(value) }) as Row[];
  } catch (error) {
    throw new RowError(`The CSV cannot be read: ${reason(error)}`);
  }
}

/** A CSV cell as the collection field's type; a value that does not fit fails its row. */
function fieldValue(type: string, key: string, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  switch (type) {
    case 'NUMBER': {
      const n = Number(text);
      if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(n)) throw new RowError(`${key}: "${raw}" is not a number`);
      return n;
    }
    case 'BOOLEAN':
      if (/^(true|yes|1)$/i.test(text)) return true;
      if (/^(false|no|0)$/i.test(text)) return false;
      throw new RowError(`${key}: "${raw}" is not true or false`);
    case 'DATE':
    case 'DATETIME': {
      const d = new Date(text);
      if (Number.isNaN(d.getTime())) throw new RowError(`${key}: "${raw}" is not a date`);
      return type === 'DATE' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : { $date: d.toISOString() };
    }
    case 'ARRAY_STRING':
      return text.split('|').map((s) => s.trim()).filter(Boolean);
    case 'OBJECT':
    case 'ARRAY':
    case 'ANY':
      if (/^[[{]/.test(text)) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new RowError(`${key}: not valid JSON`);
        }
      }
      return raw;
    default:
      return raw;
  }
}

/** A row's cells as text (a JSON import may hold numbers and booleans). */
function cellsOf(data: Row): ProductCsvRow {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]));
}

/** A row of the file: its number (1 = the first data row), its cells as read and as text. */
export interface SourceRow extends NumberedRow {
  data: Row;
}

/**
 * The rows from `processed` on, a batch of about IMPORT_BATCH rows at a time, as groups: a
 * product's rows (one per variant), grouped here once, or a data item's one row. A group stays in
 * one batch, so a saved `processed` always ends on a product's last row.
 */
export function* batches(target: store.ImportTarget, rows: readonly Row[], processed: number): Generator<SourceRow[][]> {
  const numbered: SourceRow[] = rows.slice(processed).map((data, i) => ({ row: processed + i + 1, data, cells: target === 'products' ? cellsOf(data) : {} }));
  const groups = target === 'products' ? groupProductRows(numbered) : numbered.map((r) => [r]);
  let batch: SourceRow[][] = [];
  let size = 0;
  for (const group of groups) {
    if (size > 0 && size + group.length > IMPORT_BATCH) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(group);
    size += group.length;
  }
  if (batch.length) yield batch;
}

export class ImportJobs {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: ImportDeps) {}

  async start(ctx: RequestContext, input: { target: store.ImportTarget; dataCollectionId?: string; format: store.ImportFormat; content: string }): Promise<store.ImportJob> {
    if (input.target === 'data-items') {
      if (!input.dataCollectionId) throw ApiError.validation([{ field: 'dataCollectionId', rule: 'REQUIRED_FIELD', description: 'a data-items import names its collection' }]);
      await this.deps.data.collections.load(ctx, input.dataCollectionId);
    }
    const job = await store.insertJob(ctx, {
      jobId: newId(), target: input.target, dataCollectionId: input.target === 'data-items' ? input.dataCollectionId ?? null : null,
      format: input.format, content: input.content, at: ctx.now(),
    });
    this.kick(job.siteId, job.jobId);
    return job;
  }

  async get(ctx: RequestContext, jobId: string): Promise<store.ImportJob> {
    const job = await store.findJob(ctx, jobId);
    if (!job) throw ApiError.notFound('IMPORT_JOB_NOT_FOUND', 'No such import job');
    return job;
  }

  failures(ctx: RequestContext, jobId: string) {
    return store.failures(ctx, jobId);
  }

  /** Takes up the jobs a stopped server left (called when the app is ready). */
  async resumeWaiting(): Promise<void> {
    for (const job of await store.waitingJobs(poolContext(this.deps.db), 100)) this.kick(job.siteId, job.jobId);
  }

  /** Waits for the running jobs; none starts afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private kick(siteId: string, jobId: string): void {
    if (this.closed) return;
    const run = this.run(siteId, jobId).catch(() => undefined).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async run(siteId: string, jobId: string): Promise<void> {
    const { db, now } = this.deps;
    const caller: Caller = { kind: 'APP', siteId, subjectId: `import-job:${jobId}` };
    const ctx: RequestContext = { ...siteContext(db, siteId, now), caller, requestId: jobId };
    const claimed = await store.claimJob(ctx, jobId, LEASE_MS);
    if (!claimed) return;
    const { job, content } = claimed;
    let lease = claimed.lease;
    try {
      const rows = readRows(job.format, content);
      if (rows.length > MAX_IMPORT_ROWS) throw new RowError(`At most ${MAX_IMPORT_ROWS} rows in one import`);
      const progress = { total: rows.length, processed: job.processed, succeeded: job.succeeded, failed: job.failed };
      const fields = job.target === 'data-items' && job.dataCollectionId ? new Map((await this.deps.data.collections.load(ctx, job.dataCollectionId)).fields.map((f) => [f.key, f.type as string])) : undefined;
      for (const batch of batches(job.target, rows, job.processed)) {
        if (this.closed) return; // the lease runs out and the job is taken up again
        // A batch's rows and its progress commit together, under the job's lock and only while the
        // lease is this runner's: a batch is never imported twice, by a server taking the job up
        // after a crash or after the lease ran out.
        const next = await withTransaction(ctx, async (tx) => {
          if (!await store.holdJob(tx, jobId, lease)) return undefined;
          const failures = job.target === 'products' ? await this.importProducts(tx, batch) : await this.importItems(tx, job.dataCollectionId ?? '', fields ?? new Map<string, string>(), batch.flat());
          const last = batch[batch.length - 1];
          await store.insertFailures(tx, jobId, failures);
          const saved = {
            ...progress,
            processed: last[last.length - 1].row,
            failed: progress.failed + failures.length,
            succeeded: progress.succeeded + batch.reduce((n, group) => n + group.length, 0) - failures.length,
          };
          return { saved, lease: await store.saveProgress(tx, jobId, saved, LEASE_MS) };
        });
        if (!next) return; // another server runs the job now
        Object.assign(progress, next.saved);
        lease = next.lease;
      }
      await withTransaction(ctx, async (tx) => {
        if (!await store.holdJob(tx, jobId, lease)) return;
        await store.saveProgress(tx, jobId, progress, LEASE_MS);
        await store.finishJob(tx, jobId, 'DONE', now());
      });
    } catch (error) {
      await store.finishJob(ctx, jobId, 'FAILED', now(), reason(error));
    }
  }

  private async importProducts(ctx: RequestContext, products: SourceRow[][]): Promise<Failure[]> {
    const { catalog, sites } = this.deps;
    const failures: Failure[] = [];
    const currency = (await sites.activeSite(ctx)).settings.currency;
    const bySlug = new Map([...(await catalogBackOffice.collectionSlugs(ctx))].map(([id, slug]) => [slug, id]));
    // A product is its group of rows; when it fails, each of its rows is in the failures file.
    type Read = { rows: SourceRow[]; item: ProductImport; collectionIds: string[] };
    const fail = (rows: SourceRow[], error: unknown, at = rows[0].row) => {
      for (const r of rows) failures.push({ row: r.row, error: r.row === at ? reason(error) : `not imported: row ${at} of the same product failed: ${reason(error)}`, data: r.data });
    };
    const read: Read[] = [];
    for (const rows of products) {
      try {
        const item = productFromRows(rows, currency);
        const unknown = (item.collectionSlugs ?? []).filter((s) => !bySlug.has(s));
        if (unknown.length) throw new RowError(`collections: no collection with the slug ${unknown.map((s) => `"${s}"`).join(', ')}`);
        read.push({ rows, item, collectionIds: (item.collectionSlugs ?? []).map((s) => bySlug.get(s) as string) });
      } catch (error) {
        fail(rows, error, error instanceof ProductRowsError ? error.row : rows[0].row);
      }
    }
    // An id this site does not have (a file from another store) makes a new product.
    const existing = await catalogBackOffice.existingProductIds(ctx, read.flatMap((r) => (r.item.id ? [r.item.id] : [])));
    const done: { productId: string; collectionIds: string[] }[] = [];
    const creates = read.filter((r) => !r.item.id || !existing.has(r.item.id));
    if (creates.length) {
      await withTransaction(ctx, async (tx) => {
        for (const r of creates) {
          // A savepoint per row: a row that fails (a taken slug) leaves the rest of the batch.
          // Without a slug in the file, the name's slug is tried first (one insert); only a taken
          // one costs the catalog's search for a free "-2", "-3"….
          const attempts = r.item.patch.slug === undefined && r.item.patch.name ? [{ ...r.item.patch, slug: slugify(r.item.patch.name) }, r.item.patch] : [r.item.patch];
          for (const [i, patch] of attempts.entries()) {
            await tx.db.query('SAVEPOINT import_row');
            try {
              const product = await catalog.createProductIn(tx, patch);
              await tx.db.query('RELEASE SAVEPOINT import_row');
              done.push({ productId: product.id, collectionIds: r.collectionIds });
              break;
            } catch (error) {
              await tx.db.query('ROLLBACK TO SAVEPOINT import_row');
              const retry = i < attempts.length - 1 && error instanceof ApiError && error.code === 'DUPLICATE_SLUG';
              if (!retry) {
                fail(r.rows, error);
                break;
              }
            }
          }
        }
      });
    }
    // Inside the batch's transaction (run), so a savepoint per row here too.
    for (const r of read.filter((x) => x.item.id && existing.has(x.item.id))) {
      await ctx.db.query('SAVEPOINT import_row');
      try {
        await catalog.updateProduct(ctx, r.item.id as string, r.item.patch);
        await ctx.db.query('RELEASE SAVEPOINT import_row');
        done.push({ productId: r.item.id as string, collectionIds: r.collectionIds });
      } catch (error) {
        await ctx.db.query('ROLLBACK TO SAVEPOINT import_row');
        fail(r.rows, error);
      }
    }
    const byCollection = new Map<string, string[]>();
    for (const d of done) for (const c of d.collectionIds) byCollection.set(c, [...(byCollection.get(c) ?? []), d.productId]);
    for (const [collectionId, productIds] of byCollection) await catalog.addProductsToCollection(ctx, collectionId, productIds);
    return failures.sort((a, b) => a.row - b.row);
  }

  private async importItems(ctx: RequestContext, collectionId: string, fields: Map<string, string>, batch: { row: number; data: Row }[]): Promise<Failure[]> {
    const failures: Failure[] = [];
    const items: { row: number; data: Row; item: Row }[] = [];
    for (const { row, data } of batch) {
      try {
        const item: Row = {};
        for (const [key, value] of Object.entries(data)) {
          if (value === '' || value === undefined) continue;
          item[key] = fieldValue(fields.get(key) ?? 'TEXT', key, value);
        }
        items.push({ row, data, item });
      } catch (error) {
        failures.push({ row, error: reason(error), data });
      }
    }
    if (items.length) {
      const outcomes = await this.deps.data.bulkInsert(ctx, collectionId, items.map((i) => ({ data: i.item })));
      for (const outcome of outcomes) {
        if ('error' in outcome) failures.push({ row: items[outcome.index].row, error: reason(outcome.error), data: items[outcome.index].data });
      }
    }
    return failures.sort((a, b) => a.row - b.row);
  }
}
