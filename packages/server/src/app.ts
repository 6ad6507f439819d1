import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Db } from './platform/db.js';
import type { Config } from './platform/config.js';
import { ApiError, registerErrorHandling } from './platform/errors.js';
import { registerCallerCheck } from './platform/caller.js';
import { decodeQueryString, QUERY_ERROR, type DecodedQuery } from './platform/query-string.js';
import { refuseNulCharacters } from './platform/text.js';
import { SitesService } from './services/sites/service.js';
import { OAuthService } from './services/oauth/service.js';
import { oauthRoutes, type GrantHandler } from './services/oauth/routes.js';
import { DataService } from './services/data/service.js';
import { dataRoutes } from './services/data/routes.js';
import { registerSignIn, signInServices, type SignInConfig, type SignInServices } from './services/identity/wiring.js';
import { buildCommerce, commerceRoutes, mergeCartsAtSignIn, type CommerceServices } from './services/commerce.js';
import { createMembersServices, type MembersServices } from './services/members/service.js';
import { membersRoutes } from './services/members/routes.js';
import { WebhooksService } from './services/webhooks/service.js';
import { webhooksRoutes } from './services/webhooks/routes.js';
import { webhookOptionsFromEnv, type WebhookOptions } from './services/webhooks/worker.js';
import { registerOperations } from './platform/operations.js';
import { serverOptions } from './platform/limits.js';
import { UNLIMITED_OPERATIONS, type OperationsConfig } from './platform/ops-config.js';
import { siteSettingsRoutes } from './services/sites/routes.js';
import { StorefrontService } from './services/storefront/service.js';
import { storefrontRoutes } from './services/storefront/routes.js';
import { loadWebBuild } from './services/storefront/web-build.js';

export interface AppDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'logLevel' | 'webDir' | 'smtpUrl'> & Partial<Pick<Config, 'captchaProvider' | 'authRateLimitPerMinute' | 'mailFrom' | 'defaultSiteId'>>;
  /** The clock every service reads; tests pass their own. */
  now?: () => Date;
  /** Outbox delivery: options over the WEBHOOKS_* environment; `deliver` runs the worker in this process. */
  webhooks?: { options?: Partial<WebhookOptions>; deliver?: boolean };
  /** Limits, metrics and pooling (main passes the environment's); default: no rate limit, no metrics. */
  operations?: OperationsConfig;
}

/** Every service of one app instance, built once and shared by routes, the CLI and tests. */
export interface Services extends SignInServices {
  sites: SitesService;
  oauth: OAuthService;
  /** Token grants beyond anonymous and refresh_token, keyed by grant type. */
  grants: Map<string, GrantHandler>;
  /** Catalog, cart, checkout and orders. */
  commerce: CommerceServices;
  /** Members, custom fields, badges, follows, reports and abouts. */
  members: MembersServices;
  /** Webhook subscriptions and the outbox delivery worker (webhooks and order e-mails). */
  webhooks: WebhooksService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** Largest request body; bulk data calls of 1000 items need room, anything bigger is a 413. */
export const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export function buildServices(db: Db, now: () => Date, config: SignInConfig = {}, webhookOptions: Partial<WebhookOptions> = {}): Services {
  const sites = new SitesService(db);
  const oauth = new OAuthService(db, sites, now);
  const grants = new Map<string, GrantHandler>();
  const signIn = signInServices(db, now, { sites, oauth, grants }, config);
  const commerce = buildCommerce(db, sites, now);
  mergeCartsAtSignIn(commerce, signIn.identity);
  const members = createMembersServices(db, oauth, signIn.identity);
  const webhooks = new WebhooksService(db, { now, publicUrl: config.publicUrl ?? 'http://localhost:3000', mail: signIn.mail, options: webhookOptions });
  return { sites, oauth, grants, ...signIn, commerce, members, webhooks };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const operations = deps.operations ?? UNLIMITED_OPERATIONS;
  const options: FastifyServerOptions = {
    ...serverOptions(operations),
    logger: deps.config.logLevel === 'silent' ? false : { level: deps.config.logLevel },
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512, querystringParser: (text) => decodeQueryString(text) },
  };
  const app = Fastify(options);
  const services = buildServices(deps.db, now, deps.config, { ...webhookOptionsFromEnv(process.env), ...deps.webhooks?.options });
  app.decorate('services', services);

  registerErrorHandling(app);
  registerValidation(app);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-wix-request-id', String(req.id));
    const error = (req.query as DecodedQuery)[QUERY_ERROR];
    if (error) throw new ApiError(400, 'INVALID_QUERY', error);
  });
  await registerOperations(app, deps.db, operations);
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ reqId: req.id, method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  await app.register(cors, {
    origin: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'x-wix-bi-gateway', 'X-Wix-Consistent', 'wix-site-id', 'wix-account-id', 'client-binding'],
    exposedHeaders: ['X-Wix-Request-Id', 'X-Wix-Consistent'],
    maxAge: 600,
  });

  // The default parser refuses an empty body; the official SDK sends none for some void calls.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, {});
    return jsonParser(req, body as string, done);
  });

  registerCallerCheck(app, services.oauth.callerResolver(), now);
  // Before any schema or service sees the input: PostgreSQL cannot store NUL in text or jsonb.
  app.addHook('preValidation', refuseNulCharacters);

  app.get('/healthz', async () => {
    await deps.db.query('SELECT 1');
    return { status: 'ok' };
  });
  await app.register(oauthRoutes(services.oauth, services.grants));
  await app.register(dataRoutes(new DataService(deps.db, now)));
  await registerSignIn(app, services, deps.config);
  await app.register(commerceRoutes(services.commerce, deps.config.publicUrl));
  await app.register(membersRoutes(services.members));
  // Webhooks and order e-mails: delivered off the request path by the worker.
  await app.register(webhooksRoutes(services.webhooks));
  services.webhooks.worker.reportErrorsTo((error) => app.log.warn({ err: error }, 'webhook delivery failed'));
  if (deps.webhooks?.deliver) app.addHook('onReady', async () => services.webhooks.worker.start());
  app.addHook('onClose', async () => services.webhooks.worker.stop());
  await app.register(siteSettingsRoutes(services.sites));

  // The shop's pages, sitemap and robots.txt for the site the Host header names.
  const build = await loadWebBuild(deps.config.webDir, (err, message) => app.log.error({ err }, message));
  const storefront = new StorefrontService(services.sites, services.oauth, now, deps.config.defaultSiteId);
  await app.register(storefrontRoutes({ storefront, build, publicUrl: deps.config.publicUrl }));
  return app;
}

/**
 * JSON bodies are checked strictly (a number is not a string); query strings carry only text,
 * so their values are coerced to the schema's types and a lone value to a one-item array.
 */
function registerValidation(app: FastifyInstance): void {
  const options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false } as const;
  const bodyAjv = new Ajv({ ...options, coerceTypes: false });
  const queryAjv = new Ajv({ ...options, coerceTypes: 'array' });
  for (const ajv of [bodyAjv, queryAjv]) addFormats.default(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema));
}
