/**
 * Passkeys (WebAuthn): the signed-in member's own (`/bodega/v1/my/security/passkeys`) and
 * signing in with one (`/bodega/v1/passkey-sign-in`). Options come as JSON strings (as
 * `@wix/identity`'s `publicKeyCredentialRequestOptionsJson`): parse them for
 * `navigator.credentials` or `@simplewebauthn/browser`, and send the browser's credential back.
 */
import { call, callVoid } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { StateMachineResponse } from '../types.js';

const P = '/bodega/v1/my/security/passkeys';
const SIGN_IN = '/bodega/v1/passkey-sign-in';

export interface Passkey {
  /** The WebAuthn credential id (base64url). */
  passkeyId: string;
  name: string;
  /** The relying party it was made for (a verified domain of the site, or the server's host). */
  rpId: string;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  _createdDate: Date;
  lastUsedDate: string | null;
}

/** A ceremony to run in the browser: send `challengeId` back with its answer (once, within 5 minutes). */
export interface PasskeyCeremony {
  challengeId: string;
  optionsJson: string;
}

/** `PublicKeyCredential.toJSON()` as `@simplewebauthn/browser` answers it. */
export interface PasskeyCredentialJson {
  id: string;
  rawId: string;
  type: string;
  response: object;
  clientExtensionResults: object;
  authenticatorAttachment?: string;
}

export function passkeys(t: Transport) {
  return {
    list: () => call<{ passkeys: Passkey[] }>(t, 'GET', P),
    registrationOptions: () => call<PasskeyCeremony>(t, 'POST', `${P}/options`),
    register: (challengeId: string, name: string, credential: PasskeyCredentialJson) =>
      call<{ passkey: Passkey }>(t, 'POST', P, { challengeId, name, credential }),
    rename: (passkeyId: string, name: string) => call<{ passkey: Passkey }>(t, 'PATCH', `${P}/${encodeURIComponent(passkeyId)}`, { name }),
    remove: (passkeyId: string) => callVoid(t, 'DELETE', `${P}/${encodeURIComponent(passkeyId)}`),
    signInOptions: () => call<PasskeyCeremony>(t, 'POST', `${SIGN_IN}/options`),
    /** The same answer as `authentication.loginV2` (SUCCESS with a session token, mostly). */
    signIn: (challengeId: string, credential: PasskeyCredentialJson) => call<StateMachineResponse>(t, 'POST', `${SIGN_IN}/verify`, { challengeId, credential }),
  };
}
