/** `@wix/identity` verification (e-mail codes during sign-in). */
import { call } from '../core/generated.js';
import { VERIFICATION as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { StateMachineResponse, VerificationTarget } from '../types.js';

export function verification(t: Transport) {
  return {
    start: (options: { identityId?: string; target?: VerificationTarget } = {}) =>
      call<{ verificationId?: string }>(t, 'POST', `${P}/start`, { ...options }, { args: { '*': 'options' } }),
    verifyDuringAuthentication: (code: string, options: { stateToken: string }) =>
      call<StateMachineResponse>(t, 'POST', `${P}/auth/verify`, { code, ...options }, {
        args: { code: 'code', '*': 'options' },
      }),
    resendDuringAuthentication: (stateToken: string) =>
      call<StateMachineResponse>(t, 'POST', `${P}/auth/resend`, { stateToken }),
  };
}
