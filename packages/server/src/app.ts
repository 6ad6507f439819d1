import { hasCitus } from './platform/citus.js';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cors from '@fastify/cors';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Db } from './platform/db.js';
import type { Config } from './platform/config.js';
import { ApiError, registerErrorHandling } from './platform/errors.js';
import { checkResponsesFromEnv, registerSerialization } from './platform/serialization.js';
import type { PageBase } from './platform/page-base.js';
import { registerCallerCheck } from './platform/caller.js';
import { decodeQueryString, QUERY_ERROR, type DecodedQuery } from './platform/query-string.js';
import { noteJsonBody, refuseNulCharacters } from './platform/text.js';
import { SitesService } from './services/sites/service.js';
import { OAuthService } from './services/oauth/service.js';
import { oauthRoutes } from './services/oauth/routes.js';
import type { GrantHandler } from './services/oauth/service.js';
import { Mailer, defaultMailFrom } from './platform/mail.js';
import type { SiteContext } from './platform/context.js';
import { RedirectsService } from './services/redirects/service.js';
import { redirectsRoutes } from './services/redirects/routes.js';
import { captchaVerifier } from './services/identity/captcha.js';
import { identityRoutes } from './services/identity/routes.js';
import { FACTOR_SEALED_COLUMNS, IdentityService } from './services/identity/service.js';
import { CatalogService } from './services/catalog/service.js';
import { catalogRoutes } from './services/catalog/routes.js';
import { catalogV3Routes } from './services/catalog/v3-routes.js';
import { CatalogSearch } from './services/catalog/search.js';
import { catalogSearchRoutes } from './services/catalog/search-routes.js';
import { CartService } from './services/cart/service.js';
import { cartRoutes } from './services/cart/routes.js';
import { CouponsService } from './services/coupons/service.js';
import { couponsRoutes } from './services/coupons/routes.js';
import { CommerceSettingsService } from './services/commerce-settings/service.js';
import { commerceSettingsRoutes } from './services/commerce-settings/routes.js';
import { tipSettingsRoutes } from './services/commerce-settings/tip-settings-routes.js';
import { CheckoutService } from './services/checkout/service.js';
import { checkoutRoutes } from './services/checkout/routes.js';
import { tipsRoutes } from './services/checkout/tips-routes.js';
import { OrdersService } from './services/orders/service.js';
import { GiftCardsService } from './services/gift-cards/service.js';
import { PAYMENT_SEALED_COLUMNS, PaymentsService, type StripeApi } from './services/payments/service.js';
import { paymentsRoutes } from './services/payments/routes.js';
import { ordersRoutes } from './services/orders/routes.js';
import { OrderActivities } from './services/orders/activities.js';
import { activitiesRoutes } from './services/orders/activities-routes.js';
import { DraftOrdersService } from './services/orders/draft-orders.js';
import { draftOrdersRoutes } from './services/orders/draft-orders-routes.js';
import { OrderImports } from './services/orders/import-service.js';
import { orderImportRoutes } from './services/orders/import-routes.js';
import { OrderEdits } from './services/orders/order-edits.js';
import { CollectionsService, DataJobs, DataService } from './services/data/service.js';
import { dataRoutes } from './services/data/routes.js';
import { createMembersServices, type MembersServices } from './services/members/service.js';
import { membersRoutes } from './services/members/routes.js';
import { WebhooksService } from './services/webhooks/service.js';
import { webhooksRoutes } from './services/webhooks/routes.js';
import { webhookOptionsFromEnv, type WebhookOptions } from './services/webhooks/worker.js';
import { registerOperations } from './platform/operations.js';
import { serverOptions } from './platform/limits.js';
import { registerCompression } from './platform/compression.js';
import { UNLIMITED_OPERATIONS, type OperationsConfig } from './platform/ops-config.js';
import { siteSettingsRoutes } from './services/sites/routes.js';
import { domainProofOptionsFromEnv, type DomainProofOptions } from './services/sites/domain-proof.js';
import { keyringFromEnv, type Keyring, type SealedColumn } from './platform/secrets.js';
import { WEBHOOK_SEALED_COLUMNS } from './services/webhooks/signing.js';
import { SIGNING_KEY_SEALED_COLUMNS } from './services/oauth/access-tokens.js';

/** Every column of stored secrets sealed with the server key (start-up sealing, `secrets rotate`). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [...SIGNING_KEY_SEALED_COLUMNS, ...WEBHOOK_SEALED_COLUMNS, ...PAYMENT_SEALED_COLUMNS, ...FACTOR_SEALED_COLUMNS];
import { StorefrontService } from './services/storefront/service.js';
import { collectApiRoots, storefrontRoutes } from './services/storefront/routes.js';
import { siteScriptsRoutes } from './services/site-scripts/routes.js';
import { SiteScriptsService } from './services/site-scripts/service.js';
import { loadWebBuild } from './services/storefront/web-build.js';
import { BackOfficeService, ImportJobs } from './services/backoffice/service.js';
import { backOfficeRoutes } from './services/backoffice/routes.js';
import { openApiRoute, registerOpenApi } from './services/backoffice/openapi.js';
import { AuditService } from './services/audit/service.js';
import { auditRoutes } from './services/audit/routes.js';
import { registerAppModules } from './app-modules.js';
import { mediaService } from './services/media/register.js';
import { mediaRoutes } from './services/media/routes.js';
import { localDiskStorage, type FileStorage } from './platform/storage.js';

export interface AppDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'logLevel' | 'webDir' | 'smtpUrl'> & Partial<Pick<Config, 'captchaProvider' | 'authRateLimitPerMinute' | 'mailFrom' | 'defaultSiteId'>>;
  /** The clock every service reads; tests pass their own. */
  now?: () => Date;
  /** Outbox delivery: options over the WEBHOOKS_* environment; `deliver` runs the worker in this process. */
  webhooks?: { options?: Partial<WebhookOptions>; deliver?: boolean };
  /** The server key sealing stored secrets (main's loadKeyring); default: BODEGA_SECRET_KEY. */
  keyring?: Keyring;
  /** How domains are proven: options over DNS_SERVERS, DOMAINS_CHECK_PORT and DOMAINS_ALLOW_PRIVATE. */
  domainProof?: Partial<DomainProofOptions>;
  /** Limits, metrics and pooling (main passes the environment's); default: no rate limit, no metrics. */
  operations?: OperationsConfig;
  /** Payments: the Stripe API's address (tests: a local stand-in), and how often the sweep runs (0: never). */
  payments?: PaymentsDeps;
  /** Check every schema-written answer against JSON.stringify (platform/serialization.ts); default: BODEGA_CHECK_RESPONSES=1. */
  checkResponses?: boolean;
  /** Where uploaded files live (main: DATA_DIR/files); default: a directory of its own under the system's temp dir, removed at close. */
  storage?: FileStorage;
}

export interface PaymentsDeps {
  stripeApi?: StripeApi;
  sweepIntervalMs?: number;
  /** How long an attempt is left alone before the sweep asks the provider about it. */
  sweepAfterMs?: number;
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
  /** The audit log's list, export, retention and prune (entries are appended by platform/audit.ts). */
  audit: AuditService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** Largest request body; bulk data calls of 1000 items need room, anything bigger is a 413. */
export const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export function buildServices(
  db: Db, now: () => Date, config: SignInConfig & { keyring?: Keyring } = {}, webhookOptions: Partial<WebhookOptions> = {},
  domainProof: Partial<DomainProofOptions> = {}, payments: PaymentsDeps = {},
): Services {
  // The server key that seals stored secrets: main and the CLI pass it; tests and benches set BODEGA_SECRET_KEY.
  const keyring = config.keyring ?? keyringFromEnv(process.env);
  const sites = new SitesService(db, now, { publicUrl: config.publicUrl, domainProof });
  const oauth = new OAuthService(sites, now, keyring);
  sites.onSiteCreated((ctx) => oauth.tokens.createSiteKey(ctx));
  const grants = new Map<string, GrantHandler>();
  const signIn = signInServices(db, now, { sites, oauth, grants, keyring }, config);
  const commerce = buildCommerce(db, sites, now, { publicUrl: config.publicUrl ?? 'http://localhost:3000', keyring, ...(payments.stripeApi && { stripeApi: payments.stripeApi }) });
  mergeCartsAtSignIn(commerce, signIn.identity);
  const members = createMembersServices(oauth, signIn.identity);
  const webhooks = new WebhooksService(db, { now, publicUrl: config.publicUrl ?? 'http://localhost:3000', mail: signIn.mail, keyring, options: webhookOptions });
  const audit = new AuditService(db, now);
  return { sites, oauth, grants, ...signIn, commerce, members, webhooks, audit };
}

// ─── cross-service wiring: the only place services meet besides each other's service.ts ───

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
 * Builds mail, identity and redirects, and wires identity in: a new site gets its owner member, and
 * the OAuth caller check asks identity for a member's access and standing; the redirects service
 * adds the `authorization_code` and `authorized_client` grants.
 */
export function signInServices(
  db: Db, now: () => Date,
  platform: { sites: SitesService; oauth: OAuthService; grants: Map<string, GrantHandler>; keyring?: Keyring },
  config: SignInConfig = {},
): SignInServices {
  const publicUrl = config.publicUrl ?? 'http://localhost:3000';
  const mail = new Mailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom ?? defaultMailFrom(publicUrl), now });
  const identity = new IdentityService({
    sites: platform.sites, oauth: platform.oauth, mail, now, publicUrl, captcha: captchaVerifier(config.captchaProvider ?? 'none'),
    keyring: platform.keyring ?? keyringFromEnv(process.env),
  });
  identity.rateLimitPerMinute = config.authRateLimitPerMinute ?? 0;
  platform.sites.onSiteCreated((ctx, _site, input) => identity.createOwner(ctx, input));
  platform.oauth.setMemberAccessCheck((ctx, memberId) => identity.memberAccess(ctx, memberId));
  platform.oauth.setMemberStandingCheck((ctx, memberId) => identity.memberStanding(ctx, memberId));
  const redirects = new RedirectsService({ sites: platform.sites, oauth: platform.oauth, identity, publicUrl });
  redirects.registerGrants(platform.grants);
  return { mail, identity, redirects };
}

/** Registers the sign-in routes and starts mail delivery for the life of the app. */
export async function registerSignIn(app: FastifyInstance, services: SignInServices, config: { publicUrl: string }): Promise<void> {
  services.identity.setErrorReporter((error, context) => app.log.error({ err: error }, context));
  services.mail.reportErrorsTo((error) => app.log.warn({ err: error }, 'mail delivery failed'));
  await app.register(identityRoutes(services.identity, { rateLimitPerMinute: () => services.identity.rateLimitPerMinute, secure: config.publicUrl.startsWith('https:') }));
  await app.register(redirectsRoutes(services.redirects, { publicUrl: config.publicUrl }));
  app.addHook('onReady', async () => services.mail.start());
  app.addHook('onClose', async () => services.mail.stop());
}

export interface CommerceServices {
  catalog: CatalogService;
  search: CatalogSearch;
  cart: CartService;
  checkout: CheckoutService;
  orders: OrdersService;
  coupons: CouponsService;
  settings: CommerceSettingsService;
  payments: PaymentsService;
  giftCards: GiftCardsService;
  /** The merchant's notes and custom activities on an order's timeline. */
  activities: OrderActivities;
  /** Orders the merchant builds in the back office (draft orders). */
  draftOrders: DraftOrdersService;
  /** Orders imported from another platform (importOrder and the back office's file import). */
  orderImports: OrderImports;
}

/** What the identity service offers for "a visitor became a member" (at the code exchange). */
export interface VisitorHandOffs {
  onVisitorBecameMember(hook: (ctx: SiteContext, visitorId: string, memberId: string) => Promise<void>): void;
}

export function buildCommerce(db: Db, sites: SitesService, now: () => Date, options: { publicUrl: string; keyring: Keyring; stripeApi?: StripeApi }): CommerceServices {
  const catalog = new CatalogService(sites, now);
  sites.onSiteCreated((ctx, site) => catalog.createAllProductsCollection(ctx, site));
  const coupons = new CouponsService(sites);
  const settings = new CommerceSettingsService(sites);
  const cart = new CartService(sites, catalog, coupons, now);
  const payments = new PaymentsService(db, { now, keyring: options.keyring, ...(options.stripeApi && { stripeApi: options.stripeApi }) });
  const orders = new OrdersService(sites, catalog, cart, coupons, payments);
  const giftCards = new GiftCardsService();
  // A paid order issues the gift cards it bought; a refund of a card's payment goes back on the card.
  orders.hooks.paid = async (tx, order) => {
    await giftCards.issueForPaidOrder(tx, order);
  };
  orders.hooks.refundToGiftCard = (tx, input) => giftCards.refundToCard(tx, input);
  cart.giftCardSettings = (ctx) => giftCards.settings(ctx);
  const checkout = new CheckoutService(sites, catalog, cart, orders, payments, options.publicUrl, giftCards);
  const activities = new OrderActivities(orders);
  const draftOrders = new DraftOrdersService(checkout, orders, new OrderEdits(orders, catalog));
  return { catalog, search: new CatalogSearch(catalog, now), cart, checkout, orders, coupons, settings, payments, giftCards, activities, draftOrders, orderImports: new OrderImports(sites) };
}

/** Moves a visitor's cart to the member they became, in the sign-in transaction. */
export function mergeCartsAtSignIn(commerce: CommerceServices, identity: VisitorHandOffs): void {
  identity.onVisitorBecameMember((ctx, visitorId, memberId) => commerce.cart.mergeVisitorCart(ctx, visitorId, memberId));
}

export function commerceRoutes(commerce: CommerceServices, publicUrl: string, sites: SitesService) {
  // Page URLs on the site's own domain; media and other links stay on PUBLIC_URL.
  const pageBase: PageBase = (ctx) => sites.pageBase(ctx, publicUrl);
  return async (app: FastifyInstance) => {
    await app.register(catalogRoutes(commerce.catalog, publicUrl, pageBase));
    await app.register(catalogV3Routes(commerce.catalog, publicUrl, pageBase));
    await app.register(catalogSearchRoutes(commerce.catalog, commerce.search, publicUrl));
    await app.register(cartRoutes(commerce.cart, pageBase));
    await app.register(couponsRoutes(commerce.coupons));
    await app.register(commerceSettingsRoutes(commerce.settings));
    await app.register(checkoutRoutes(commerce.checkout, commerce.cart, pageBase));
    await app.register(tipsRoutes(commerce.checkout, commerce.cart, commerce.orders));
    await app.register(tipSettingsRoutes(commerce.settings));
    await app.register(ordersRoutes(commerce.orders, pageBase));
    await app.register(activitiesRoutes(commerce.activities, pageBase));
    await app.register(draftOrdersRoutes(commerce.draftOrders, pageBase, async (req) => (await commerce.cart.site(req.ctx)).settings.currency));
    await app.register(orderImportRoutes(commerce.orderImports, pageBase));
    await app.register(paymentsRoutes({ payments: commerce.payments, orders: commerce.orders, checkout: commerce.checkout, publicUrl }));
  };
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
  const services = buildServices(
    deps.db, now, { ...deps.config, keyring: deps.keyring }, { ...webhookOptionsFromEnv(process.env), ...deps.webhooks?.options },
    { ...domainProofOptionsFromEnv(process.env), ...deps.domainProof }, deps.payments);
  app.decorate('services', services);

  registerErrorHandling(app);
  registerValidation(app);
  registerSerialization(app, deps.checkResponses ?? checkResponsesFromEnv(process.env));
  // Every API route's prefix, so an unknown path under one is a JSON 404 rather than a shop page.
  const apiRoots = collectApiRoots(app);
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
  // Before the routes: it adds its hook to each route as the route is added.
  await registerCompression(app);

  // The default parser refuses an empty body; the official SDK sends none for some void calls.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, {});
    noteJsonBody(req, body as string);
    return jsonParser(req, body as string, done);
  });

  // Before the routes: it documents each route as it is added (served at /bodega/v1/openapi.json).
  await registerOpenApi(app, '1');
  registerCallerCheck(app, services.oauth.callerResolver(), deps.db, now, (ctx) => services.identity.checkStaffFactor(ctx));
  // The caller check reads members' standing through a cache that every server's changes reach.
  // On Citus the trigger would notify on a worker, where nobody listens: the cache's age bounds it.
  if (!(deps.db.kind === 'postgres' && await hasCitus(deps.db))) await services.identity.listenForAccessChanges(deps.db);
  app.addHook('onClose', async () => services.identity.close());
  // Before any schema or service sees the input: PostgreSQL cannot store NUL in text or jsonb.
  app.addHook('preValidation', refuseNulCharacters);

  app.get('/healthz', async () => {
    await deps.db.query('SELECT 1');
    return { status: 'ok' };
  });
  await app.register(oauthRoutes(services.oauth, services.grants));
  const data = new DataService(new CollectionsService(deps.db, now), new DataJobs(deps.db, now));
  await app.register(dataRoutes(data));
  await registerSignIn(app, services, deps.config);
  await app.register(commerceRoutes(services.commerce, deps.config.publicUrl, services.sites));
  const storage = deps.storage ?? temporaryStorage(app);
  await registerAppModules(app, {
    ...services.commerce, members: services.members.members, sites: services.sites, mail: services.mail, webhooks: services.webhooks, publicUrl: deps.config.publicUrl,
    rateLimitPerMinute: () => services.identity.rateLimitPerMinute,
    db: deps.db, now, keyring: deps.keyring ?? keyringFromEnv(process.env), storage,
  });
  await app.register(membersRoutes(services.members));
  // Webhooks and order e-mails: delivered off the request path by the worker.
  await app.register(webhooksRoutes(services.webhooks));
  services.webhooks.worker.reportErrorsTo((error) => app.log.warn({ err: error }, 'webhook delivery failed'));
  if (deps.webhooks?.deliver) app.addHook('onReady', async () => services.webhooks.worker.start());
  app.addHook('onClose', async () => services.webhooks.worker.stop());
  await app.register(siteSettingsRoutes(services.sites));
  await app.register(siteScriptsRoutes(new SiteScriptsService(services.sites)));
  services.sites.reportErrorsTo((error) => app.log.warn({ err: error }, "an API key's last use could not be recorded"));
  app.addHook('onClose', async () => services.sites.close());
  await registerBackOffice(app, services, data, deps.db, now);
  await app.register(auditRoutes(services.audit));
  services.audit.reportErrorsTo((error) => app.log.warn({ err: error }, 'the audit log prune failed'));
  app.addHook('onReady', async () => services.audit.start());
  app.addHook('onClose', async () => services.audit.stop());
  registerPaymentSweep(app, services.commerce.checkout, deps.payments);
  const media = mediaService(app, { db: deps.db, now, catalog: services.commerce.catalog, storage });
  await app.register(mediaRoutes(media, deps.config.publicUrl));
  openApiRoute(app);

  // The shop's pages, sitemap and robots.txt for the site the Host header names.
  const build = await loadWebBuild(deps.config.webDir, (err, message) => app.log.error({ err }, message));
  const storefront = new StorefrontService(services.sites, services.oauth, now, deps.config.defaultSiteId);
  apiRoots.freeze();
  await app.register(storefrontRoutes({ storefront, build, publicUrl: deps.config.publicUrl, apiRoots: apiRoots.roots }));
  return app;
}

/** The payment sweep: every `sweepIntervalMs` (a minute by default) attempts left open are settled with the provider. */
function registerPaymentSweep(app: FastifyInstance, checkout: CheckoutService, deps: PaymentsDeps = {}): void {
  const every = deps.sweepIntervalMs ?? 60_000;
  if (every <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running = checkout.sweep(deps.sweepAfterMs ?? 60_000, (err) => app.log.warn({ err }, 'payment sweep failed')).catch((err: unknown) => app.log.warn({ err }, 'payment sweep failed'));
    }, every);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

/** The back office reads and writes through the other services; wired here, where services meet. */
async function registerBackOffice(app: FastifyInstance, services: Services, data: DataService, db: Db, now: () => Date): Promise<void> {
  const imports = new ImportJobs({ db, now, sites: services.sites, catalog: services.commerce.catalog, data });
  const backOffice = new BackOfficeService({
    sites: services.sites,
    mail: services.mail,
    catalog: services.commerce.catalog,
    imports,
    members: {
      loginEmail: async (ctx, memberId) => (await services.members.members.getMember(ctx, memberId, ['FULL']).catch(() => undefined))?.member.loginEmail,
    },
  });
  await app.register(backOfficeRoutes(backOffice));
  // Imports a stopped server left are taken up again; running ones finish before the app closes.
  app.addHook('onReady', async () => {
    imports.resumeWaiting().catch((err: unknown) => app.log.warn({ err }, 'import jobs could not be resumed'));
  });
  app.addHook('onClose', async () => imports.close());
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
  app.setValidatorCompiler(({ schema, httpPart }) => lazyValidator(httpPart === 'body' ? bodyAjv : queryAjv, schema));
}

type Validate = ((data: unknown, dataCxt?: Parameters<ValidateFunction>[1]) => boolean) & { errors?: ErrorObject[] | null; schemaEnv?: unknown };

/**
 * A route's validator compiled on its first request, not at start: compiling every schema took
 * most of a restart's CPU (about 1 s of 4), while a request pays a route's own compile once.
 * Fastify hands the root's parent to validators that have a `schemaEnv` (so Ajv can set defaults
 * on the root), hence the flag; the errors of the last call are copied where Fastify reads them.
 */
function lazyValidator(ajv: Ajv, schema: object): Validate {
  let compiled: ValidateFunction | undefined;
  const validate: Validate = (data, dataCxt) => {
    compiled ??= ajv.compile(schema);
    const ok = compiled(data, dataCxt);
    validate.errors = compiled.errors;
    return ok;
  };
  validate.schemaEnv = true;
  return validate;
}

/** Files of an app given no storage (tests, benches): a directory of its own under the system's temporary one, removed at close. */
function temporaryStorage(app: FastifyInstance): FileStorage {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-files-'));
  app.addHook('onClose', async () => fs.promises.rm(dir, { recursive: true, force: true }));
  return localDiskStorage(dir);
}
