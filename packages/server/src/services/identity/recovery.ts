// Passwords: changing one, and setting one through a mailed link (recovery, or activation of an
// account created without one). Either ends every sign-in of the identity.
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newSecret } from '../../platform/ids.js';
import { allowedOrigins, isAllowedUrl } from '../../platform/redirect-uri.js';
import type { Site } from '../sites/service.js';
import { completeEmailVerification } from './accounts.js';
import type { IdentityDeps } from './deps.js';
import { emailKey, normaliseEmail } from './entry.js';
import { activationMail, recoveryMail } from './mail-templates.js';
import { notFound, toIdentity, type CallerContext, type Identity } from './model.js';
import { hashPassword, passwordViolations } from './passwords.js';
import { endAllSessions } from './sessions.js';
import * as store from './store.js';
import { sendMail } from './verification.js';

export const RECOVERY_TTL_MS = 3600_000;
export const ACTIVATION_TTL_HOURS = 72;

/** Recovery tokens are `<siteId>.<secret>`. */
export function parseRecoveryToken(token: string): { siteId: string; secret: string } | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1) return undefined;
  return { siteId: token.slice(0, dot), secret: token.slice(dot + 1) };
}

/** `v2/change-password` by a signed-in member: every sign-in of theirs ends. */
export async function changePassword(deps: IdentityDeps, ctx: CallerContext, newPassword: unknown): Promise<void> {
  const identityId = ctx.caller?.subjectId;
  if (!identityId || (ctx.caller?.kind !== 'MEMBER' && ctx.caller?.kind !== 'WIX_USER')) throw ApiError.forbidden('Sign in first');
  const violations = passwordViolations(newPassword, 'newPassword');
  if (violations.length) throw ApiError.validation(violations);
  const passwordHash = await hashPassword(newPassword as string);
  await withTransaction(ctx, async (tx) => {
    const row = await store.setPassword(tx, identityId, passwordHash, tx.now());
    if (!row) throw notFound();
    await store.retireRecoveryTokens(tx, identityId, tx.now());
  });
  await endAllSessions(deps, ctx, identityId);
}

/**
 * `recovery/v1/send-email`: e-mails a link to the hosted reset page. Answers the same whether
 * or not the e-mail exists; a redirect URL not allowed for the client is left out of the link.
 */
export async function sendRecoveryEmail(
  deps: IdentityDeps, ctx: SiteContext, input: { email: unknown; redirect?: { url?: string; clientId?: string } },
): Promise<void> {
  const site = await deps.sites.activeSite(ctx);
  const email = normaliseEmail(input.email);
  if (!email) return;
  const row = await store.findIdentityByEmail(ctx, emailKey(email));
  if (!row || row.status === 'DELETED' || row.status === 'BLOCKED') return;
  const params = await continueParams(deps, site, input.redirect);
  await withTransaction(ctx, async (tx) => {
    const token = await recoveryToken(tx, row.identity_id, 'RECOVERY', RECOVERY_TTL_MS);
    const link = hostedLink(deps, '/auth/reset-password', { recoveryToken: token, ...params });
    await sendMail(deps, tx, 'identity.recovery', row.login_email, recoveryMail(site.name, link));
  });
  deps.mail.kick();
}

/** `recovery/v1/activation-email` (back office): a link to choose a first password. */
export async function sendActivationEmail(deps: IdentityDeps, ctx: SiteContext, identityId: string): Promise<void> {
  const site = await deps.sites.activeSite(ctx);
  const row = await store.findIdentity(ctx, identityId);
  if (!row || row.status === 'DELETED') throw notFound();
  const [clientId] = await deps.sites.clientIds(ctx);
  await withTransaction(ctx, async (tx) => {
    const token = await recoveryToken(tx, row.identity_id, 'ACTIVATION', ACTIVATION_TTL_HOURS * 3600_000);
    const link = hostedLink(deps, '/auth/reset-password', { recoveryToken: token, activation: '1', ...(clientId ? { clientId } : {}) });
    await sendMail(deps, tx, 'identity.activation', row.login_email, activationMail(site.name, link, ACTIVATION_TTL_HOURS));
  });
  deps.mail.kick();
}

/**
 * `recovery/v1/recover`: sets the password with a single-use token and ends every sign-in. The
 * token names its site, so a caller needs no context; one with a context must be of that site.
 */
export async function recover(deps: IdentityDeps, ctx: SiteContext | null, input: { recoveryToken: string; password: unknown }): Promise<Identity> {
  const parsed = parseRecoveryToken(input.recoveryToken);
  const invalid = () => new ApiError(400, 'INVALID_RECOVERY_TOKEN', 'The link is invalid, used or expired; ask for a new one');
  if (!parsed || (ctx && parsed.siteId !== ctx.siteId)) throw invalid();
  const site = ctx ?? deps.sites.contextFor(parsed.siteId);
  const violations = passwordViolations(input.password);
  if (violations.length) throw ApiError.validation(violations);
  await deps.sites.activeSite(site);
  const passwordHash = await hashPassword(input.password as string);
  const row = await withTransaction(site, async (tx) => {
    const used = await store.useRecoveryToken(tx, hashSecret(parsed.secret), tx.now());
    if (!used) return undefined;
    await store.setPassword(tx, used.identity_id, passwordHash, tx.now());
    // Opening the mailed link proves the mailbox: the e-mail is verified too.
    const verified = await completeEmailVerification(deps.access, tx, used.identity_id);
    await store.retireRecoveryTokens(tx, used.identity_id, tx.now());
    return verified;
  });
  if (!row) throw invalid();
  await endAllSessions(deps, site, row.identity_id);
  return toIdentity(row);
}

async function recoveryToken(ctx: SiteContext, identityId: string, purpose: 'RECOVERY' | 'ACTIVATION', ttlMs: number): Promise<string> {
  const secret = newSecret();
  const now = ctx.now();
  await store.insertRecoveryToken(ctx, { tokenHash: hashSecret(secret), identityId, purpose, now, expiresAt: new Date(now.getTime() + ttlMs) });
  // The site travels in the token, so the reset page needs nothing else.
  return `${ctx.siteId}.${secret}`;
}

async function continueParams(deps: IdentityDeps, site: Site, redirect: { url?: string; clientId?: string } | undefined): Promise<Record<string, string>> {
  if (!redirect?.clientId) return {};
  const client = await deps.sites.siteForClient(redirect.clientId).catch(() => undefined);
  if (!client || client.site.siteId !== site.siteId) return {};
  const allowed = allowedOrigins(deps.publicUrl, client.allowedOrigins, site.settings.allowedOrigins);
  return isAllowedUrl(redirect.url, allowed) ? { clientId: redirect.clientId, redirectUrl: redirect.url } : { clientId: redirect.clientId };
}

function hostedLink(deps: IdentityDeps, path: string, params: Record<string, string>): string {
  const url = new URL(path, deps.publicUrl);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
