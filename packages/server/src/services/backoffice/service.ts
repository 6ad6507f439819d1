/**
 * The back office's own calls (Bodega's `/bodega/v1`): who is signed in, the dashboard, the
 * command palette's search, API keys, the mail outbox, CSV exports and import jobs. It owns only
 * the import-job tables; everything else it reads through the owning services' service.ts.
 */
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import type { Mailer, MailStatus, StoredMail } from '../../platform/mail.js';
import type { ApiKeyInfo, SitesService } from '../sites/service.js';

export type BackOfficeRole = 'OWNER' | 'CONTRIBUTOR' | 'APP';

export interface Me {
  memberId?: string;
  email?: string;
  role: BackOfficeRole;
  site: { siteId: string; name: string; currency: string };
}

/** What the back office needs from members; wired in app.ts. */
export interface MemberLookup {
  loginEmail(ctx: RequestContext, memberId: string): Promise<string | undefined>;
}

export interface BackOfficeDeps {
  sites: SitesService;
  mail: Mailer;
  members: MemberLookup;
}

export interface MailPage {
  mails: StoredMail[];
  nextCursor?: string;
}

export function roleOf(ctx: RequestContext): BackOfficeRole {
  if (ctx.caller.kind === 'APP') return 'APP';
  if (ctx.caller.kind === 'WIX_USER' && (ctx.caller.memberRole === 'OWNER' || ctx.caller.memberRole === 'CONTRIBUTOR')) return ctx.caller.memberRole;
  throw ApiError.forbidden('The back office is for the site owner, its contributors and API keys');
}

/** API keys, roles and the like: the owner and API keys only, never a contributor. */
export function requireOwner(ctx: RequestContext): void {
  if (roleOf(ctx) === 'CONTRIBUTOR') throw ApiError.forbidden('Only the site owner may manage API keys');
}

function encodeCursor(mail: StoredMail): string {
  return Buffer.from(JSON.stringify([mail.createdDate.toISOString(), mail.mailId])).toString('base64url');
}

function decodeCursor(cursor: string): { createdDate: Date; mailId: string } {
  try {
    const [date, mailId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const createdDate = new Date(String(date));
    if (typeof mailId === 'string' && !Number.isNaN(createdDate.getTime())) return { createdDate, mailId };
  } catch {
    // fall through to the validation error
  }
  throw ApiError.validation([{ field: 'cursor', rule: 'FORMAT', description: 'not a cursor this call gave' }]);
}

export class BackOfficeService {
  constructor(private readonly deps: BackOfficeDeps) {}

  async me(ctx: RequestContext): Promise<Me> {
    const role = roleOf(ctx);
    const site = await this.deps.sites.activeSite(ctx);
    const base = { role, site: { siteId: site.siteId, name: site.name, currency: site.settings.currency } };
    if (role === 'APP') return base;
    const email = await this.deps.members.loginEmail(ctx, ctx.caller.subjectId);
    return { memberId: ctx.caller.subjectId, ...(email ? { email } : {}), ...base };
  }

  async listApiKeys(ctx: RequestContext): Promise<ApiKeyInfo[]> {
    requireOwner(ctx);
    return this.deps.sites.listApiKeys(ctx.siteId);
  }

  async createApiKey(ctx: RequestContext, name: string): Promise<{ apiKey: ApiKeyInfo; key: string }> {
    requireOwner(ctx);
    const trimmed = name.trim();
    if (!trimmed) throw ApiError.validation([{ field: 'name', rule: 'REQUIRED_FIELD', description: 'a key needs a name' }]);
    return this.deps.sites.createApiKey(ctx.siteId, trimmed);
  }

  async revokeApiKey(ctx: RequestContext, keyId: string): Promise<void> {
    requireOwner(ctx);
    await this.deps.sites.revokeApiKey(ctx.siteId, keyId);
  }

  async listMails(ctx: RequestContext, options: { limit: number; cursor?: string; status?: MailStatus }): Promise<MailPage> {
    roleOf(ctx);
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    const rows = await this.deps.mail.pageForSite(ctx.siteId, { limit: options.limit + 1, status: options.status, after });
    const mails = rows.slice(0, options.limit);
    return { mails, ...(rows.length > options.limit ? { nextCursor: encodeCursor(mails[mails.length - 1]) } : {}) };
  }

  async getMail(ctx: RequestContext, mailId: string): Promise<StoredMail> {
    roleOf(ctx);
    const mail = await this.deps.mail.findForSite(ctx.siteId, mailId);
    if (!mail) throw ApiError.notFound('MAIL_NOT_FOUND', 'No such mail');
    return mail;
  }
}
