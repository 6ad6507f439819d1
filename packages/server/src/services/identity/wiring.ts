import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { Config } from '../../platform/config.js';
import { Mailer, defaultMailFrom } from '../../platform/mail.js';
import type { GrantHandler } from '../oauth/routes.js';
import type { OAuthService } from '../oauth/service.js';
import type { SitesService } from '../sites/service.js';
import { RedirectsService } from '../redirects/service.js';
import { redirectsRoutes } from '../redirects/routes.js';
import { captchaVerifier } from './captcha.js';
import { identityRoutes } from './routes.js';
import { IdentityService } from './service.js';

/**
 * The settings sign-in reads; all optional so the CLI and tests can build the services without
 * them. Without `authRateLimitPerMinute` there is no per-IP limit: `loadConfig` always sets one
 * (30 by default) for a real server, while test apps sign in as often as they like.
 */
export type SignInConfig = Partial<Pick<Config, 'publicUrl' | 'smtpUrl' | 'captchaProvider' | 'authRateLimitPerMinute' | 'mailFrom'>>;

export interface SignInServices {
  mail: Mailer;
  identity: IdentityService;
  redirects: RedirectsService;
}

/**
 * Builds mail, identity and redirects. Creating the identity service registers the site-owner
 * initializer and the member access check; the redirects service adds the
 * `authorization_code` and `authorized_client` grants.
 */
export function signInServices(
  db: Db, now: () => Date,
  platform: { sites: SitesService; oauth: OAuthService; grants: Map<string, GrantHandler> },
  config: SignInConfig = {},
): SignInServices {
  const publicUrl = config.publicUrl ?? 'http://localhost:3000';
  const mail = new Mailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom ?? defaultMailFrom(publicUrl), now });
  const identity = new IdentityService({
    db, sites: platform.sites, oauth: platform.oauth, mail, now, publicUrl, captcha: captchaVerifier(config.captchaProvider ?? 'none'),
  });
  identity.rateLimitPerMinute = config.authRateLimitPerMinute ?? 0;
  const redirects = new RedirectsService({ db, sites: platform.sites, oauth: platform.oauth, identity, now, publicUrl });
  redirects.registerGrants(platform.grants);
  return { mail, identity, redirects };
}

/** Registers the sign-in routes and starts mail delivery for the life of the app. */
export async function registerSignIn(app: FastifyInstance, services: SignInServices, config: { publicUrl: string }): Promise<void> {
  services.identity.setErrorReporter((error, context) => app.log.error({ err: error }, context));
  services.mail.reportErrorsTo((error) => app.log.warn({ err: error }, 'mail delivery failed'));
  await app.register(identityRoutes(services.identity, { rateLimitPerMinute: () => services.identity.rateLimitPerMinute }));
  await app.register(redirectsRoutes(services.redirects, { publicUrl: config.publicUrl }));
  app.addHook('onReady', async () => services.mail.start());
  app.addHook('onClose', async () => services.mail.stop());
}
