/**
 * Patch and remove by filter, run after the call answers. A job runs in one transaction that
 * claims its row (FOR UPDATE SKIP LOCKED), works through the matching items in id order, 1000 at a
 * time, and sets SUCCEEDED; so its changes, their events and its status commit together. A job
 * whose server stopped is still INITIALIZED and is picked up again when a server starts.
 */
import { forSite, poolContext, withTransaction, type DbContext, type SiteContext } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { recordEvents } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { applyFieldModifications, readFieldModifications } from './field-modifications.js';
import { itemEvent, itemPayload } from './items.js';
import * as store from './store.js';
import type { JsonObject } from './wire-values.js';

const BATCH = 1000;

export class DataJobs {
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  /** The pool's context: a job runs after its call answered, in a transaction of its own. */
  private readonly pool: DbContext;

  constructor(db: Db, private readonly now: () => Date) {
    this.pool = poolContext(db);
  }

  private site(siteId: string): SiteContext {
    return forSite(this.pool, siteId, this.now);
  }

  async start(siteId: string, collectionId: string, kind: store.JobKind, request: JsonObject): Promise<string> {
    const jobId = newId();
    await store.insertJob(this.site(siteId), { jobId, collectionId, kind, request });
    this.kick(siteId, jobId);
    return jobId;
  }

  /** Runs the jobs left waiting by a server that stopped. */
  async resumeWaiting(): Promise<void> {
    for (const job of await store.waitingJobs(this.pool, 100)) this.kick(job.siteId, job.jobId);
  }

  /** Waits for the running jobs; no new one starts afterwards (the app is closing). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private kick(siteId: string, jobId: string): void {
    if (this.closed) return;
    const run = this.run(siteId, jobId).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async run(siteId: string, jobId: string): Promise<void> {
    try {
      await withTransaction(this.site(siteId), async (tx) => {
        const job = await store.claimJob(tx, jobId);
        if (!job) return;
        const done = await this.process(tx, job);
        await store.finishJob(tx, jobId, 'SUCCEEDED', done);
      });
    } catch (error) {
      const description = error instanceof Error ? error.message : 'The job failed';
      await store.finishJob(this.site(siteId), jobId, 'FAILED', 0, { description }).catch(() => undefined);
    }
  }

  /** Applies the job to every matching item; an item a patch cannot apply to is skipped. */
  private async process(tx: SiteContext, job: store.JobRecord): Promise<number> {
    const { siteId, collectionId } = job;
    const filter = job.request.restrict === undefined ? job.request.filter : { $and: [job.request.filter ?? {}, job.request.restrict] };
    const modifications = job.kind === 'PATCH_BY_FILTER' ? readFieldModifications(job.request.fieldModifications) : [];
    let after = '';
    let done = 0;
    for (;;) {
      const batch = await store.lockBatchByFilter(tx, collectionId, filter, after, BATCH);
      if (batch.length === 0) return done;
      after = batch[batch.length - 1].id;
      if (job.kind === 'REMOVE_BY_FILTER') {
        const removed = await store.deleteItems(tx, collectionId, batch.map((item) => item.id));
        await recordEvents(tx, [...removed].map((id) => itemEvent(siteId, collectionId, 'data_item.deleted', id, { dataCollectionId: collectionId, dataItemId: id })));
        done += removed.size;
        continue;
      }
      const updatedDate = { $date: this.now().toISOString() };
      const patched = batch.flatMap((item) => {
        try {
          return [{ id: item.id, data: { ...applyFieldModifications(item.data, modifications), _updatedDate: updatedDate } }];
        } catch {
          return [];
        }
      });
      await store.replaceItems(tx, collectionId, patched);
      await recordEvents(tx, patched.map((item) => itemEvent(siteId, collectionId, 'data_item.updated', item.id, itemPayload(collectionId, item.data))));
      done += patched.length;
    }
  }
}
