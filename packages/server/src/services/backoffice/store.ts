// SQL for the import jobs and their failed rows; nothing else.
import type { DbContext, SiteContext } from '../../platform/context.js';
import { cellsOf, rowBatches, storedCells, type StoredCells } from '../../platform/failure-rows.js';

export type ImportTarget = 'products' | 'data-items';
export type ImportFormat = 'csv' | 'json';
export type ImportStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

export interface ImportJob {
  siteId: string;
  jobId: string;
  target: ImportTarget;
  dataCollectionId: string | null;
  format: ImportFormat;
  status: ImportStatus;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  error: string | null;
  createdDate: Date;
  finishedDate: Date | null;
}

interface JobRow {
  site_id: string;
  job_id: string;
  target: ImportTarget;
  data_collection_id: string | null;
  format: ImportFormat;
  status: ImportStatus;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  [key: string]: unknown;
}

const COLUMNS = 'site_id, job_id, target, data_collection_id, format, status, total, processed, succeeded, failed, error, created_at, finished_at';

function toJob(r: JobRow): ImportJob {
  return {
    siteId: r.site_id, jobId: r.job_id, target: r.target, dataCollectionId: r.data_collection_id, format: r.format, status: r.status,
    total: r.total, processed: r.processed, succeeded: r.succeeded, failed: r.failed, error: r.error,
    createdDate: new Date(r.created_at), finishedDate: r.finished_at ? new Date(r.finished_at) : null,
  };
}

export async function insertJob(ctx: SiteContext, job: { jobId: string; target: ImportTarget; dataCollectionId: string | null; format: ImportFormat; content: string; at: Date }): Promise<ImportJob> {
  const rows = await ctx.db.query<JobRow>(
    `INSERT INTO import_jobs (site_id, job_id, target, data_collection_id, format, content, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'QUEUED', $7) RETURNING ${COLUMNS}`,
    [ctx.siteId, job.jobId, job.target, job.dataCollectionId, job.format, job.content, job.at]);
  return toJob(rows[0]);
}

export async function findJob(ctx: SiteContext, jobId: string): Promise<ImportJob | undefined> {
  const rows = await ctx.db.query<JobRow>(`SELECT ${COLUMNS} FROM import_jobs WHERE site_id = $1 AND job_id = $2`, [ctx.siteId, jobId]);
  return rows[0] && toJob(rows[0]);
}

/**
 * A runner's lease, on the database's clock (a lease is about servers being alive, not the shop's
 * time: a server whose clock runs ahead, a test's injected one included, must not take a job
 * another is running), to the millisecond, so the value read back is the runner's token. now(),
 * the transaction's time: Citus refuses a volatile function in an UPDATE.
 */
const LEASE = (ms: string) => `date_trunc('milliseconds', now()) + ${ms} * interval '1 millisecond'`;

/**
 * Takes a waiting job (or one whose server stopped: its lease ran out) and reads its file. The
 * conditional UPDATE is the claim: of two servers only one gets the row back, with its lease.
 */
export async function claimJob(ctx: SiteContext, jobId: string, leaseMs: number): Promise<{ job: ImportJob; content: string; lease: Date } | undefined> {
  const rows = await ctx.db.query<JobRow & { content: string; lease_until: Date }>(
    `UPDATE import_jobs SET status = 'RUNNING', lease_until = ${LEASE('$3::int')}
      WHERE site_id = $1 AND job_id = $2 AND content IS NOT NULL
        AND (status = 'QUEUED' OR (status = 'RUNNING' AND lease_until < now()))
      RETURNING ${COLUMNS}, content, lease_until`, [ctx.siteId, jobId, leaseMs]);
  return rows[0] && { job: toJob(rows[0]), content: rows[0].content, lease: new Date(rows[0].lease_until) };
}

/** Across sites (the pool's context): what a starting server takes up. */
export async function waitingJobs(ctx: DbContext, limit: number): Promise<{ siteId: string; jobId: string }[]> {
  const rows = await ctx.db.query<{ site_id: string; job_id: string }>(
    `SELECT site_id, job_id FROM import_jobs WHERE status = 'QUEUED' OR (status = 'RUNNING' AND lease_until < now()) ORDER BY created_at LIMIT $1`, [limit]);
  return rows.map((r) => ({ siteId: r.site_id, jobId: r.job_id }));
}

/**
 * Locks the job for the runner whose lease it still is (in the transaction that writes a batch and
 * its progress): false when another server took it up after the lease ran out.
 */
export async function holdJob(ctx: SiteContext, jobId: string, lease: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    `SELECT 1 FROM import_jobs WHERE site_id = $1 AND job_id = $2 AND status = 'RUNNING' AND lease_until = $3 FOR UPDATE`,
    [ctx.siteId, jobId, lease]);
  return rows.length > 0;
}

/** Progress after a batch, with the lease renewed (answered); restarting a job starts over from `processed`. */
export async function saveProgress(ctx: SiteContext, jobId: string, p: { total: number; processed: number; succeeded: number; failed: number }, leaseMs: number): Promise<Date> {
  const rows = await ctx.db.query<{ lease_until: Date }>(
    `UPDATE import_jobs SET total = $3, processed = $4, succeeded = $5, failed = $6, lease_until = ${LEASE('$7::int')} WHERE site_id = $1 AND job_id = $2 RETURNING lease_until`,
    [ctx.siteId, jobId, p.total, p.processed, p.succeeded, p.failed, leaseMs]);
  return new Date(rows[0].lease_until);
}

export async function finishJob(ctx: SiteContext, jobId: string, status: 'DONE' | 'FAILED', at: Date, error?: string): Promise<void> {
  await ctx.db.query(
    'UPDATE import_jobs SET status = $3, finished_at = $4, error = $5, content = NULL, lease_until = NULL WHERE site_id = $1 AND job_id = $2',
    [ctx.siteId, jobId, status, at, error ?? null]);
}

export async function insertFailures(ctx: SiteContext, jobId: string, failures: readonly { row: number; error: string; data: Record<string, unknown> }[]): Promise<void> {
  if (!failures.length) return;
  await ctx.db.query(
    `INSERT INTO import_job_failures (site_id, job_id, row_number, error, data)
     SELECT $1, $2, f.row_number, f.error, f.data FROM jsonb_to_recordset($3::jsonb) AS f(row_number integer, error text, data jsonb)
     ON CONFLICT DO NOTHING`,
    [ctx.siteId, jobId, JSON.stringify(failures.map((f) => ({ row_number: f.row, error: f.error, data: storedCells(f.data) })))]);
}

export function failures(ctx: SiteContext, jobId: string, batch = 1000): AsyncGenerator<{ row: number; error: string; data: Record<string, unknown> }[]> {
  return rowBatches(
    (after, limit) => ctx.db.query<{ row_number: number; error: string; data: StoredCells }>(
      'SELECT row_number, error, data FROM import_job_failures WHERE site_id = $1 AND job_id = $2 AND row_number > $3 ORDER BY row_number LIMIT $4',
      [ctx.siteId, jobId, after, limit]),
    (r) => ({ row: r.row_number, error: r.error, data: cellsOf(r.data) }),
    batch,
  );
}
