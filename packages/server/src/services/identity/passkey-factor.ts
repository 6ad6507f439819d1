// A passkey's assertion checked against a stored challenge, and a passkey as the second factor
// of a sign-in that waits for one (`v2/WEBAUTHN/verify`, the factor type the official
// `@wix/identity` package names: without a credential it answers MFA_CHALLENGE with the
// request options, with `webauthnData {challengeId, credential}` it finishes the sign-in).
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { IdentityDeps } from './deps.js';
import { PASSKEY_CHALLENGE_TTL_MS, relyingParty } from './passkeys.js';
import * as passkeyStore from './passkeys-store.js';

/**
 * Whether the assertion answers the ceremony's challenge, from its origin and relying party, by
 * the stored passkey's key, with user verification and a counter that moved on (when the
 * authenticator keeps one). Answers the new counter, or why it was refused.
 */
export async function checkAssertion(
  ceremony: passkeyStore.CeremonyRow, passkey: passkeyStore.PasskeyRow, credential: AuthenticationResponseJSON,
): Promise<{ counter: number } | { refused: string }> {
  if (passkey.rp_id !== ceremony.rp_id) return { refused: 'The passkey belongs to another address' };
  try {
    const result = await verifyAuthenticationResponse({
      response: credential, expectedChallenge: ceremony.challenge, expectedOrigin: ceremony.origin, expectedRPID: ceremony.rp_id,
      requireUserVerification: true,
      credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: Number(passkey.counter), transports: passkey.transports as never },
    });
    return result.verified ? { counter: result.authenticationInfo.newCounter } : { refused: 'The passkey\'s signature is wrong' };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/** A credential as the browser serialised it (`PublicKeyCredential.toJSON()`), or undefined. */
export function parseCredential(text: string | undefined): AuthenticationResponseJSON | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object') return undefined;
    const c = value as Partial<AuthenticationResponseJSON>;
    if (typeof c.id !== 'string' || typeof c.rawId !== 'string' || c.type !== 'public-key' || !c.response || typeof c.response !== 'object') return undefined;
    return c as AuthenticationResponseJSON;
  } catch {
    return undefined;
  }
}

/**
 * Starts the passkey step of a waiting sign-in: request options naming the member's passkeys
 * for this relying party, with a challenge tied to the sign-in.
 */
export async function startPasskeyFactor(
  deps: IdentityDeps, ctx: SiteContext, mfaChallengeId: string, identityId: string, hostHeader: string | undefined,
): Promise<ApiError | { challengeId: string; publicKeyCredentialRequestOptionsJson: string }> {
  const rp = await relyingParty(deps, ctx, hostHeader);
  const passkeys = (await passkeyStore.listPasskeys(ctx, identityId)).filter((p) => p.rp_id === rp.rpId);
  if (passkeys.length === 0) return new ApiError(400, 'FACTOR_NOT_ENABLED', 'The member has no passkey for this address', { factorType: 'WEBAUTHN' });
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId, userVerification: 'required', timeout: PASSKEY_CHALLENGE_TTL_MS,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: p.transports })),
  });
  const now = ctx.now();
  const challengeId = newId();
  await passkeyStore.insertCeremony(ctx, {
    challengeId, purpose: 'SECOND_FACTOR', challenge: options.challenge, identityId, mfaChallengeId, ...rp, now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
  return { challengeId, publicKeyCredentialRequestOptionsJson: JSON.stringify(options) };
}

/** Whether the credential answers this sign-in's passkey challenge with one of the member's passkeys. */
export async function passkeyFactorRight(
  ctx: SiteContext, mfaChallengeId: string, identityId: string, data: { challengeId?: string; credential?: string },
): Promise<boolean> {
  const credential = parseCredential(data.credential);
  if (!credential || !data.challengeId) return false;
  const now = ctx.now();
  const ceremony = await passkeyStore.takeCeremony(ctx, data.challengeId, 'SECOND_FACTOR', now);
  if (!ceremony || ceremony.mfa_challenge_id !== mfaChallengeId) return false;
  const passkey = await passkeyStore.lockPasskey(ctx, credential.id);
  if (!passkey || passkey.identity_id !== identityId) return false;
  const checked = await checkAssertion(ceremony, passkey, credential);
  if ('refused' in checked) return false;
  await passkeyStore.recordPasskeyUse(ctx, passkey.credential_id, checked.counter, now);
  return true;
}
