/** `@wix/identity` authentication. */
import { call, callVoid } from '../core/generated.js';
import { AUTHENTICATION as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { IdentityProfileInput, StateMachineResponse } from '../types.js';

export interface LoginId {
  email?: string;
  phone?: string;
  username?: string;
}
export interface CaptchaToken {
  Recaptcha?: string;
  InvisibleRecaptcha?: string;
}
const LOGIN_ID = { loginId: 'loginId', '*': 'options' };

export function authentication(t: Transport) {
  return {
    registerV2: (
      loginId: LoginId,
      options: {
        password?: string;
        profile?: IdentityProfileInput;
        captchaTokens?: CaptchaToken[];
        clientMetaData?: Record<string, unknown>;
      } = {},
    ) => call<StateMachineResponse>(t, 'POST', `${P}/v2/register`, { loginId, ...options }, { args: LOGIN_ID }),
    loginV2: (
      loginId: LoginId,
      options: {
        password?: string;
        captchaTokens?: CaptchaToken[];
        clientMetaData?: Record<string, unknown>;
        stateToken?: string;
      } = {},
    ) => call<StateMachineResponse>(t, 'POST', `${P}/v2/login`, { loginId, ...options }, { args: LOGIN_ID }),
    changePassword: (newPassword: string) => callVoid(t, 'POST', `${P}/v2/change-password`, { newPassword }),
    validateEmail: (email: string) => call<Record<string, unknown>>(t, 'POST', `${P}/v2/validate-email`, { email }),
    signOn: (
      loginId: LoginId,
      options: { profile?: IdentityProfileInput; verifyEmail?: boolean; mergeExistingContact?: boolean } = {},
    ) => call<StateMachineResponse>(t, 'POST', `${P}/v2/sign-on`, { loginId, ...options }, { args: LOGIN_ID }),
    /**
     * Finishes a sign-in that answered REQUIRE_MFA (`v2/{factorType}/verify`): the code of
     * `totpData`, `emailData` (empty: mail a code, MFA_CHALLENGE), `webauthnData` or `recoveryCodeData`.
     */
    verify: (
      factorType: 'TOTP' | 'EMAIL' | 'WEBAUTHN' | 'RECOVERY_CODE' | 'SMS' | 'CALL' | 'PUSH',
      options: {
        stateToken: string;
        rememberThisDevice?: boolean;
        totpData?: { code?: string };
        emailData?: { code?: string };
        recoveryCodeData?: { code?: string };
        /** WEBAUTHN: empty asks for the passkey challenge (MFA_CHALLENGE); then the challenge id and the credential as JSON. */
        webauthnData?: { challengeId?: string; credential?: string };
      },
    ) => call<StateMachineResponse>(t, 'POST', `${P}/v2/${encodeURIComponent(factorType)}/verify`, { ...options }, { args: { '*': 'options' } }),
    logout: (options: { postLogoutRedirectUri?: string; clientId?: string } = {}) =>
      call<Record<string, unknown>>(t, 'GET', `${P}/v1/logout`, { ...options }, { args: { '*': 'options' } }),
  };
}
