// The browser's side of a passkey ceremony (`@simplewebauthn/browser`): options from the server
// as JSON, the credential back as JSON. Shared by the account's Passkeys section and sign-in.
import {
  browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration, WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { passkeys, type PasskeyCredentialJson, type StateMachineResponse } from '@bodega/sdk';
import type { AuthClient } from './client.js';
import { errorMessage } from './messages.js';

export { browserSupportsWebAuthnAutofill as passkeyAutofillSupported };

/** Whether this page can use passkeys: the browser has WebAuthn and the page is on a host name (an IP address cannot be a relying party). */
export function passkeysSupported(): boolean {
  const host = window.location.hostname;
  return browserSupportsWebAuthn() && !/^[\d.]+$/.test(host) && !host.includes(':') && !host.startsWith('[');
}

/** Makes a passkey with the device (its screen lock or security key asks the person). */
export async function createPasskey(optionsJson: string): Promise<PasskeyCredentialJson> {
  const optionsJSON = JSON.parse(optionsJson) as PublicKeyCredentialCreationOptionsJSON;
  return startRegistration({ optionsJSON });
}

/** Signs the challenge with a passkey; `autofill` waits for the person to pick one in the e-mail field's suggestions. */
export async function signWithPasskey(optionsJson: string, autofill = false): Promise<PasskeyCredentialJson> {
  const optionsJSON = JSON.parse(optionsJson) as PublicKeyCredentialRequestOptionsJSON;
  return startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
}

/** A ceremony the person cancelled (or that another one replaced) needs no error message. */
export function cancelled(error: unknown): boolean {
  if (error instanceof WebAuthnError) return error.code === 'ERROR_CEREMONY_ABORTED' || error.code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' && error.cause instanceof DOMException && error.cause.name === 'AbortError';
  return error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/** Words for a failed ceremony or call; none when the person cancelled. */
export function passkeyProblem(error: unknown): string | undefined {
  if (cancelled(error)) return undefined;
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for your account.';
  return errorMessage(error);
}

/**
 * Signs in with a passkey: the server's challenge, the device's prompt (or, with `autofill`, the
 * passkey the person picks in the e-mail field's suggestions), then the server's answer — which
 * `useSignInOutcome` takes like a password sign-in's. Answers the call to run, or why not.
 */
export async function passkeySignIn(client: AuthClient, autofill: boolean): Promise<{ answer: () => Promise<StateMachineResponse> } | { problem?: string }> {
  try {
    const { challengeId, optionsJson } = await client.use(passkeys).signInOptions();
    const credential = await signWithPasskey(optionsJson, autofill);
    return { answer: () => client.use(passkeys).signIn(challengeId, credential) };
  } catch (error) {
    return { problem: passkeyProblem(error) };
  }
}
