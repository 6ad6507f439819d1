// E-mail verification codes: issued at sign-in (behind a state token) or on request, and checked
// with a limited number of tries.
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId } from '../../platform/ids.js';
import type { Site } from '../sites/service.js';
import { completeEmailVerification } from './accounts.js';
import type { IdentityDeps } from './deps.js';
import { verificationCodeMail, type MailContent } from './mail-templates.js';
import { notFound, toIdentity, type AuthOutcome, type CallerContext } from './model.js';
import * as store from './store.js';
import { checkCode, codeExpiry, generateCode, hashCode } from './verification-code.js';

/** Queues a mail in the context's transaction; the caller kicks delivery after the commit. */
export async function sendMail(deps: IdentityDeps, ctx: SiteContext, kind: string, to: string, content: MailContent): Promise<void> {
  await deps.mail.enqueue(ctx, { siteId: ctx.siteId, kind, to, ...content });
}

/** Stores a new code for the identity and mails it; returns the verification's id. */
export async function issueCode(
  deps: IdentityDeps, ctx: SiteContext, site: Site, row: store.IdentityRow, options: { stateTokenHash: string | null; visitorId: string | null },
): Promise<string> {
  const verificationId = newId();
  const code = generateCode();
  const now = ctx.now();
  await store.insertVerification(ctx, {
    verificationId, identityId: row.identity_id, stateTokenHash: options.stateTokenHash,
    codeHash: hashCode(verificationId, code), visitorId: options.visitorId, now, expiresAt: codeExpiry(now),
  });
  await sendMail(deps, ctx, 'identity.verification-code', row.login_email, verificationCodeMail(site.name, code));
  return verificationId;
}

/** Checks a code; a wrong one uses up one of its tries (kept even though the call fails). */
async function useCode(ctx: SiteContext, verification: store.VerificationRow, code: string): Promise<ApiError | undefined> {
  const check = checkCode({
    verificationId: verification.verification_id,
    codeHash: verification.code_hash,
    attempts: verification.attempts,
    expiresAt: new Date(verification.expires_at),
    verifiedAt: verification.verified_at,
  }, code, ctx.now());
  switch (check) {
    case 'OK':
      await store.markVerified(ctx, verification.verification_id, ctx.now());
      return undefined;
    case 'WRONG':
      await store.countVerificationAttempt(ctx, verification.verification_id);
      return new ApiError(400, 'BAD_CODE', 'The verification code is wrong', { reason: 'WRONG_CODE' });
    case 'EXPIRED':
      return new ApiError(400, 'BAD_CODE', 'The verification code has expired; ask for a new one', { reason: 'EXPIRED' });
    case 'EXHAUSTED':
      return new ApiError(400, 'BAD_CODE', 'Too many wrong codes; ask for a new one', { reason: 'TOO_MANY_ATTEMPTS' });
    case 'USED':
      return new ApiError(400, 'BAD_CODE', 'The verification code was already used', { reason: 'USED' });
  }
}

const unknownStateToken = () => new ApiError(404, 'NOT_FOUND', 'Unknown state token; sign in again');

/**
 * The code behind a state token, inside the caller's transaction: on success the e-mail is
 * verified and the identity and the visitor the sign-in started from are returned. A wrong
 * code is returned as an error, not thrown, so the try it used up is committed.
 */
export async function useStateCode(
  deps: IdentityDeps, ctx: SiteContext, input: { code: string; stateToken: string },
): Promise<ApiError | { row: store.IdentityRow; visitorId: string | null }> {
  const verification = await store.findVerificationByState(ctx, hashSecret(input.stateToken));
  if (!verification) return unknownStateToken();
  const failure = await useCode(ctx, verification, input.code);
  if (failure) return failure;
  const row = await completeEmailVerification(deps.access, ctx, verification.identity_id);
  return { row, visitorId: verification.visitor_id };
}

/** `verification/v1/auth/resend`: a new code for the same state token. */
export async function resendCode(deps: IdentityDeps, ctx: SiteContext, stateToken: string): Promise<AuthOutcome> {
  const site = await deps.sites.activeSite(ctx);
  const outcome = await withTransaction(ctx, async (tx) => {
    const verification = await store.findVerificationByState(tx, hashSecret(stateToken));
    if (!verification || verification.verified_at) throw unknownStateToken();
    const row = await store.findIdentity(tx, verification.identity_id);
    if (!row) throw unknownStateToken();
    const code = generateCode();
    await store.replaceCode(tx, verification.verification_id, hashCode(verification.verification_id, code), codeExpiry(tx.now()));
    await sendMail(deps, tx, 'identity.verification-code', row.login_email, verificationCodeMail(site.name, code));
    return { state: 'REQUIRE_EMAIL_VERIFICATION' as const, identity: toIdentity(row), stateToken };
  });
  deps.mail.kick();
  return outcome;
}

function requireSelfOrBackOffice(ctx: CallerContext, identityId: string): void {
  const caller = ctx.caller;
  if (caller?.kind === 'APP' || caller?.kind === 'WIX_USER') return;
  if (caller?.kind === 'MEMBER' && caller.subjectId === identityId) return;
  throw ApiError.forbidden('Only the member or the back office may do this');
}

/** `verification/v1/start`: e-mails a code to verify an identity's e-mail outside sign-in. */
export async function startVerification(deps: IdentityDeps, ctx: CallerContext, identityId: string): Promise<{ verificationId: string }> {
  requireSelfOrBackOffice(ctx, identityId);
  const site = await deps.sites.activeSite(ctx);
  const verificationId = await withTransaction(ctx, async (tx) => {
    const row = await store.findIdentity(tx, identityId);
    if (!row || row.status === 'DELETED') throw notFound();
    return issueCode(deps, tx, site, row, { stateTokenHash: null, visitorId: null });
  });
  deps.mail.kick();
  return { verificationId };
}

/** `verification/v1/verify`: the code of a verification started with `start`. */
export async function verify(deps: IdentityDeps, ctx: CallerContext, input: { verificationId: string; code: string }): Promise<void> {
  const failure = await withTransaction(ctx, async (tx) => {
    const verification = await store.findVerification(tx, input.verificationId);
    if (!verification) return new ApiError(404, 'NOT_FOUND', 'Unknown verification');
    requireSelfOrBackOffice(ctx, verification.identity_id);
    const error = await useCode(tx, verification, input.code);
    if (error) return error;
    await completeEmailVerification(deps.access, tx, verification.identity_id);
    return undefined;
  });
  if (failure) throw failure;
}
