import nodemailer, { type Transporter } from 'nodemailer';
import { isCitus, sitesInTurn } from './citus.js';
import type { Db } from './db.js';
import { poolContext, type DbContext } from './context.js';
import { newId } from './ids.js';

/** STORED: kept for the back office (no SMTP_URL). QUEUED → SENDING → SENT, or FAILED after retries. */
export type MailStatus = 'STORED' | 'QUEUED' | 'SENDING' | 'SENT' | 'FAILED';

/** One e-mail; the services that send mail own their templates and fill these in. */
export interface Mail {
  siteId: string;
  /** What the mail is for, e.g. `identity.verification-code`; shown in the back office. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface StoredMail extends Mail {
  mailId: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  createdDate: Date;
  sentDate: Date | null;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL; without it mail is only stored. */
  smtpUrl: string | undefined;
  from: string;
  now: () => Date;
  onError?: (error: unknown) => void;
}

const MAX_ATTEMPTS = 5;
/** A claimed mail whose sender died is claimed again after this lease. */
const LEASE_MS = 5 * 60_000;
const POLL_MS = 30_000;

interface MailRow {
  site_id: string;
  mail_id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const COLUMNS = 'site_id, mail_id, kind, to_address, subject, text_body, html_body, status, attempts, last_error, created_at, sent_at';

function toStoredMail(row: MailRow): StoredMail {
  return {
    siteId: row.site_id,
    mailId: row.mail_id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdDate: new Date(row.created_at),
    sentDate: row.sent_at ? new Date(row.sent_at) : null,
  };
}

/** Escapes text for an HTML mail body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** The default sender: no-reply at the public host. */
export function defaultMailFrom(publicUrl: string): string {
  return `Bodega <no-reply@${new URL(publicUrl).hostname}>`;
}

/**
 * Every mail is first a row of `mail_outbox`, written in the sender's transaction, so a mail
 * exists exactly when the change that caused it committed. With SMTP it is then claimed
 * (`FOR UPDATE SKIP LOCKED`, so several servers share the work) and sent with nodemailer;
 * failures are retried with back-off and the row keeps the last error.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;
  private inFlight: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Db, private options: MailerOptions) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  }

  /** Where delivery failures are reported (the app's logger). */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.options.onError = report;
  }

  get sends(): boolean {
    return this.transport !== undefined;
  }

  /**
   * Records a mail inside the caller's transaction; call `kick()` after the commit. With
   * `notBefore` (a gift card's delivery date) the worker leaves it until then.
   */
  async enqueue(ctx: DbContext, mail: Mail, notBefore?: Date): Promise<string> {
    const mailId = newId();
    const now = this.options.now();
    await ctx.db.query(
      `INSERT INTO mail_outbox (site_id, mail_id, kind, to_address, subject, text_body, html_body, status, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [mail.siteId, mailId, mail.kind, mail.to, mail.subject, mail.text, mail.html, this.transport ? 'QUEUED' : 'STORED', now, notBefore && notBefore > now ? notBefore : now],
    );
    return mailId;
  }

  /** Starts delivering queued mail now, without waiting for it. */
  kick(): void {
    if (!this.transport) return;
    const run = this.inFlight.then(() => this.deliverPending()).catch((error: unknown) => this.options.onError?.(error));
    this.inFlight = run;
  }

  /** Waits for deliveries started by `kick()` (before closing the database). */
  async drain(): Promise<void> {
    await this.inFlight;
  }

  /** Retries failed deliveries every 30 s until `stop()`. */
  start(): void {
    if (!this.transport || this.timer) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.drain();
    this.transport?.close();
  }

  /**
   * Claims due mail and sends it; returns how many were sent. On plain PostgreSQL and PGlite one
   * statement claims the batch. On Citus (FOR UPDATE cannot cross shards) the sites with due mail
   * are read first and each site's mail is claimed with its site id in the statement.
   */
  async deliverPending(limit = 20): Promise<number> {
    if (!this.transport) return 0;
    const now = this.options.now();
    const leaseEnd = new Date(now.getTime() + LEASE_MS);
    // With a site ($4) both the update and its subquery name it, so Citus routes the statement to one shard.
    const claimIn = (oneSite: boolean) => `UPDATE mail_outbox m SET status = 'SENDING', attempts = m.attempts + 1, next_attempt_at = $2
       WHERE ${oneSite ? 'm.site_id = $4 AND ' : ''}(m.site_id, m.mail_id) IN (
         SELECT d.site_id, d.mail_id FROM mail_outbox d
         WHERE ${oneSite ? 'd.site_id = $4 AND ' : ''}d.status IN ('QUEUED', 'SENDING') AND d.next_attempt_at <= $1
         ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`;
    const claimed: (MailRow & Record<string, unknown>)[] = [];
    if (!await isCitus(poolContext(this.db))) {
      claimed.push(...await this.db.query<MailRow & Record<string, unknown>>(claimIn(false), [now, leaseEnd, limit]));
    } else {
      const sites = await this.db.query<{ site_id: string }>(
        `SELECT site_id FROM mail_outbox WHERE status IN ('QUEUED', 'SENDING') AND next_attempt_at <= $1
         GROUP BY site_id ORDER BY min(next_attempt_at) LIMIT $2`,
        [now, limit],
      );
      claimed.push(...await sitesInTurn(sites.map((s) => s.site_id), limit, (siteId, room) =>
        this.db.query<MailRow & Record<string, unknown>>(claimIn(true), [now, leaseEnd, room, siteId])));
    }
    let sent = 0;
    for (const row of claimed) {
      try {
        await this.transport.sendMail({ from: this.options.from, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body });
        await this.db.query(`UPDATE mail_outbox SET status = 'SENT', sent_at = $3, last_error = NULL WHERE site_id = $1 AND mail_id = $2`, [
          row.site_id, row.mail_id, this.options.now(),
        ]);
        sent++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const failed = row.attempts >= MAX_ATTEMPTS;
        const retryAt = new Date(this.options.now().getTime() + 60_000 * 2 ** row.attempts);
        await this.db.query(
          `UPDATE mail_outbox SET status = $3, last_error = $4, next_attempt_at = $5 WHERE site_id = $1 AND mail_id = $2`,
          [row.site_id, row.mail_id, failed ? 'FAILED' : 'QUEUED', message.slice(0, 1000), retryAt],
        );
        this.options.onError?.(error);
      }
    }
    return sent;
  }

  /** The site's mail, newest first, for the back office. */
  async listForSite(siteId: string, options: { limit?: number; offset?: number } = {}): Promise<StoredMail[]> {
    const rows = await this.db.query<MailRow & Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM mail_outbox WHERE site_id = $1 ORDER BY created_at DESC, mail_id LIMIT $2 OFFSET $3`,
      [siteId, Math.min(options.limit ?? 50, 500), options.offset ?? 0],
    );
    return rows.map(toStoredMail);
  }

  /** One page of the site's mail, newest first, after the (date, id) of the last one seen. */
  async pageForSite(siteId: string, options: { limit: number; status?: MailStatus; after?: { createdDate: Date; mailId: string } }): Promise<StoredMail[]> {
    const params: unknown[] = [siteId, options.limit];
    let where = 'site_id = $1';
    if (options.status) {
      params.push(options.status);
      where += ` AND status = $${params.length}`;
    }
    if (options.after) {
      params.push(options.after.createdDate, options.after.mailId);
      where += ` AND (created_at, mail_id) < ($${params.length - 1}, $${params.length})`;
    }
    const rows = await this.db.query<MailRow & Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM mail_outbox WHERE ${where} ORDER BY created_at DESC, mail_id DESC LIMIT $2`, params);
    return rows.map(toStoredMail);
  }

  async findForSite(siteId: string, mailId: string): Promise<StoredMail | undefined> {
    const rows = await this.db.query<MailRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM mail_outbox WHERE site_id = $1 AND mail_id = $2`, [siteId, mailId]);
    return rows[0] && toStoredMail(rows[0]);
  }
}
