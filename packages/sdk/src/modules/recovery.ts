/** `@wix/identity` recovery (password reset and activation e-mails). */
import { call, callVoid } from '../core/generated.js';
import { RECOVERY as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { Identity } from '../types.js';

export function recovery(t: Transport) {
  return {
    sendRecoveryEmail: (
      email: string,
      options: { language?: string; redirect?: { url?: string; clientId?: string } } = {},
    ) => callVoid(t, 'POST', `${P}/send-email`, { email, ...options }, { args: { email: 'email', '*': 'options' } }),
    sendActivationEmail: (identityId: string, options: { emailOptions?: Record<string, unknown> } = {}) =>
      callVoid(t, 'POST', `${P}/activation-email`, { identityId, ...options }, {
        args: { identityId: 'identityId', '*': 'options' },
      }),
    recover: (recoveryToken: string, options: { password?: string } = {}) =>
      call<{ identity?: Identity }>(t, 'POST', `${P}/recover`, { recoveryToken, ...options }, {
        args: { recoveryToken: 'recoveryToken', '*': 'options' },
      }),
  };
}
