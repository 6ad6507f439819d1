// Passkeys (WebAuthn) a member registers from the account's Security page: the ceremony's
// options (a challenge kept server-side, used once, 5 minutes), its verification, and the list,
// rename and removal of the member's passkeys. Sign-in with them is in passkey-sign-in.ts.
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { randomBytes } from 'node:crypto';
import { recordAudit, type AuditContext } from '../../platform/audit.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { IdentityDeps } from './deps.js';
import { selfOf } from './factors.js';
import * as passkeyStore from './passkeys-store.js';
import * as store from './store.js';

/** How long a ceremony's challenge may be answered. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Passkeys one member may hold. */
export const MAX_PASSKEYS = 20;

export interface Passkey {
  passkeyId: string;
  name: string;
  /** Where the passkey was made: the site's verified domain or the server's host. */
  rpId: string;
  transports: string[];
  /** `multiDevice`: synced (e.g. by a password manager), `singleDevice`: bound to one authenticator. */
  deviceType: string;
  backedUp: boolean;
  createdDate: string;
  lastUsedDate: string | null;
}

export const toPasskey = (row: passkeyStore.PasskeyRow): Passkey => ({
  passkeyId: row.credential_id, name: row.name, rpId: row.rp_id, transports: row.transports, deviceType: row.device_type, backedUp: row.backed_up,
  createdDate: new Date(row.created_at).toISOString(), lastUsedDate: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/** The relying party of a ceremony: its id (a host name) and the one origin whose pages may answer it. */
export interface RelyingParty {
  rpId: string;
  origin: string;
}

/**
 * The relying party for a request's Host: the site's verified domain when the page is served
 * there (on PUBLIC_URL's scheme and port), else PUBLIC_URL's host and origin.
 */
export async function relyingParty(deps: IdentityDeps, ctx: SiteContext, hostHeader: string | undefined): Promise<RelyingParty> {
  const host = hostname(hostHeader);
  if (host) {
    const origin = (await deps.sites.domainOrigins(ctx, deps.publicUrl)).find((o) => new URL(o).hostname === host);
    if (origin) return { rpId: host, origin };
  }
  const url = new URL(deps.publicUrl);
  return { rpId: url.hostname, origin: url.origin };
}

function hostname(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`http://${header.trim()}`).hostname.toLowerCase().replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** A member's WebAuthn user handle: 32 random bytes (base64url), made on first use. */
export async function userHandleOf(ctx: SiteContext, identityId: string): Promise<string> {
  return passkeyStore.userHandle(ctx, identityId, randomBytes(32).toString('base64url'));
}

export const refused = (why: string) => new ApiError(400, 'PASSKEY_REFUSED', why);
const unknownChallenge = () => new ApiError(400, 'PASSKEY_REFUSED', 'Unknown, used or expired passkey challenge; start again', { reason: 'CHALLENGE' });

/**
 * Options for `navigator.credentials.create()`: a discoverable credential with user
 * verification, no attestation, the member's passkeys excluded (one per authenticator).
 */
export async function registrationOptions(
  deps: IdentityDeps, ctx: AuditContext, siteName: string, hostHeader: string | undefined,
): Promise<{ challengeId: string; optionsJson: string }> {
  const identityId = selfOf(ctx);
  const rp = await relyingParty(deps, ctx, hostHeader);
  return withTransaction(ctx, async (tx) => {
    const identity = await store.findIdentity(tx, identityId);
    if (!identity || identity.status === 'DELETED') throw ApiError.notFound('NOT_FOUND', 'No such identity');
    const handle = await userHandleOf(tx, identityId);
    const existing = await passkeyStore.listPasskeys(tx, identityId);
    if (existing.length >= MAX_PASSKEYS) throw new ApiError(409, 'TOO_MANY_PASSKEYS', `At most ${MAX_PASSKEYS} passkeys; remove one first`);
    const options = await generateRegistrationOptions({
      rpName: siteName, rpID: rp.rpId, userName: identity.login_email, userDisplayName: identity.login_email,
      userID: isoBase64URL.toBuffer(handle), attestationType: 'none', timeout: PASSKEY_CHALLENGE_TTL_MS,
      excludeCredentials: existing.filter((p) => p.rp_id === rp.rpId).map((p) => ({ id: p.credential_id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const now = tx.now();
    const challengeId = newId();
    await passkeyStore.insertCeremony(tx, {
      challengeId, purpose: 'REGISTER', challenge: options.challenge, identityId, mfaChallengeId: null, ...rp, now,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    });
    return { challengeId, optionsJson: JSON.stringify(options) };
  });
}

/** Checks the authenticator's answer to the registration options and stores the new passkey. */
export async function registerPasskey(
  ctx: AuditContext, input: { challengeId: string; name: string; credential: RegistrationResponseJSON },
): Promise<Passkey> {
  const identityId = selfOf(ctx);
  const name = input.name.trim();
  if (!name) throw ApiError.validation([{ field: 'name', rule: 'REQUIRED_FIELD', description: 'Give the passkey a name' }]);
  // The challenge is spent though the answer is refused: it cannot be tried twice.
  const result: ApiError | Passkey = await withTransaction(ctx, async (tx) => {
    const now = tx.now();
    const ceremony = await passkeyStore.takeCeremony(tx, input.challengeId, 'REGISTER', now);
    if (!ceremony || ceremony.identity_id !== identityId) return unknownChallenge();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: input.credential, expectedChallenge: ceremony.challenge, expectedOrigin: ceremony.origin, expectedRPID: ceremony.rp_id,
        requireUserVerification: true,
      });
    } catch (error) {
      return refused(`The passkey was not accepted: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!verified.verified) return refused('The passkey was not accepted');
    const info = verified.registrationInfo;
    const row = await passkeyStore.insertPasskey(tx, {
      credentialId: info.credential.id, identityId, rpId: ceremony.rp_id, publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter, transports: info.credential.transports ?? [], deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp, name: name.slice(0, 100), now,
    });
    if (!row) return new ApiError(409, 'PASSKEY_EXISTS', 'This passkey is already registered');
    await recordAudit(tx, { action: 'member.passkey_added', objectType: 'member', objectId: identityId, after: { passkeyId: row.credential_id, name: row.name } });
    return toPasskey(row);
  });
  if (result instanceof ApiError) throw result;
  return result;
}

export async function listPasskeys(ctx: AuditContext): Promise<{ passkeys: Passkey[] }> {
  return { passkeys: (await passkeyStore.listPasskeys(ctx, selfOf(ctx))).map(toPasskey) };
}

export async function renamePasskey(ctx: AuditContext, passkeyId: string, name: string): Promise<Passkey> {
  const trimmed = name.trim();
  if (!trimmed) throw ApiError.validation([{ field: 'name', rule: 'REQUIRED_FIELD', description: 'Give the passkey a name' }]);
  const row = await passkeyStore.renamePasskey(ctx, selfOf(ctx), passkeyId, trimmed.slice(0, 100));
  if (!row) throw ApiError.notFound('NOT_FOUND', 'No such passkey');
  return toPasskey(row);
}

/** Removes a passkey (audited): it signs in no more. */
export async function removePasskey(ctx: AuditContext, passkeyId: string): Promise<void> {
  const identityId = selfOf(ctx);
  await withTransaction(ctx, async (tx) => {
    const removed = await passkeyStore.deletePasskey(tx, identityId, passkeyId);
    if (!removed) throw ApiError.notFound('NOT_FOUND', 'No such passkey');
    await recordAudit(tx, { action: 'member.passkey_removed', objectType: 'member', objectId: identityId, before: { passkeyId, name: removed.name } });
  });
}
