import type { Mailer } from '../../platform/mail.js';
import type { Keyring } from '../../platform/secrets.js';
import type { OAuthService } from '../oauth/service.js';
import type { SitesService } from '../sites/service.js';
import type { MemberAccess } from './access.js';
import type { CaptchaVerifier } from './captcha.js';

export interface IdentityServiceDeps {
  sites: SitesService;
  oauth: OAuthService;
  mail: Mailer;
  /** The clock of the per-process member access cache; calls read `ctx.now()`. */
  now: () => Date;
  publicUrl: string;
  captcha: CaptchaVerifier | undefined;
  /** Seals TOTP secrets at rest (platform/secrets.ts). */
  keyring: Keyring;
}

/** What the identity's modules share: the other services they call and the member access cache. */
export interface IdentityDeps {
  sites: SitesService;
  oauth: OAuthService;
  mail: Mailer;
  publicUrl: string;
  captcha: CaptchaVerifier | undefined;
  keyring: Keyring;
  access: MemberAccess;
}
