// Sign-in with a passkey alone (the hosted sign-in page's "Use a passkey"): request options for a
// discoverable credential, then the assertion, checked like a password (a locked-out e-mail is
// refused, a failed check counts towards its lock-out). A passkey with user verification is a
// strong sign-in: it gets the same answer as a password would, without the second factor.
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Site } from '../sites/service.js';
import type { IdentityDeps } from './deps.js';
import { emailKey } from './entry.js';
import { LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import { visitorOf, type AuthOutcome, type CallerContext } from './model.js';
import { checkAssertion } from './passkey-factor.js';
import { PASSKEY_CHALLENGE_TTL_MS, refused, relyingParty } from './passkeys.js';
import * as passkeyStore from './passkeys-store.js';
import { countFailure } from './second-factor.js';
import { enter } from './sign-in.js';
import * as store from './store.js';

/** Options for `navigator.credentials.get()` (and the browser's passkey autofill): any passkey of this relying party. */
export async function signInOptions(deps: IdentityDeps, ctx: CallerContext, hostHeader: string | undefined): Promise<{ challengeId: string; optionsJson: string }> {
  const rp = await relyingParty(deps, ctx, hostHeader);
  const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required', timeout: PASSKEY_CHALLENGE_TTL_MS, allowCredentials: [] });
  const now = ctx.now();
  const challengeId = newId();
  await passkeyStore.insertCeremony(ctx, {
    challengeId, purpose: 'SIGN_IN', challenge: options.challenge, identityId: null, mfaChallengeId: null, ...rp, now,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
  return { challengeId, optionsJson: JSON.stringify(options) };
}

/** Checks the assertion and answers the sign-in's next state (SUCCESS with a session, mostly). */
export async function signInWithPasskey(
  deps: IdentityDeps, ctx: CallerContext, site: Site, input: { challengeId: string; credential: AuthenticationResponseJSON },
): Promise<AuthOutcome> {
  // Refusals are answered after the commit: the challenge stays spent and the failure counted.
  const result: ApiError | AuthOutcome = await withTransaction(ctx, async (tx) => {
    const now = tx.now();
    const ceremony = await passkeyStore.takeCeremony(tx, input.challengeId, 'SIGN_IN', now);
    if (!ceremony) return refused('Unknown, used or expired passkey challenge; start again');
    const passkey = await passkeyStore.lockPasskey(tx, input.credential.id);
    if (!passkey) return refused('This passkey is not registered here');
    const row = await store.findIdentity(tx, passkey.identity_id);
    if (!row || row.status === 'DELETED') return refused('This passkey is not registered here');
    const handle = input.credential.response.userHandle;
    if (handle && (await passkeyStore.identityOfHandle(tx, handle)) !== row.identity_id) return refused('The passkey belongs to someone else');
    const key = emailKey(row.login_email);
    const failures = await store.recentLoginFailures(tx, key, new Date(now.getTime() - LOCKOUT_WINDOW_MS));
    const lock = lockoutState(failures, now);
    if (lock.locked && lock.until) {
      const retryAfterSeconds = Math.max(1, Math.ceil((lock.until.getTime() - now.getTime()) / 1000));
      return new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many failed sign-ins for this account; try again later', { retryAfterSeconds });
    }
    const checked = await checkAssertion(ceremony, passkey, input.credential);
    if ('refused' in checked) {
      await countFailure(tx, key, failures.length, now);
      return refused(`The passkey was not accepted: ${checked.refused}`);
    }
    await passkeyStore.recordPasskeyUse(tx, passkey.credential_id, checked.counter, now);
    await store.clearLoginFailures(tx, key);
    const member = await store.findMemberAccess(tx, row.identity_id);
    return enter(deps, tx, site, row, member?.status, visitorOf(ctx), undefined, true);
  });
  if (result instanceof ApiError) throw result;
  deps.mail.kick();
  return result;
}
