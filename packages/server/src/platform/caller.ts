import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Db } from './db.js';
import { siteContext, type SiteContext } from './context.js';
import { admits, type Actor, type Permission, type RouteAccess } from './access-matrix.js';

export type CallerKind = 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP';
export type MemberRole = 'MEMBER' | 'CONTRIBUTOR' | 'OWNER';

/** Who is asking, resolved once per request from the Authorization header. */
export interface Caller {
  kind: CallerKind;
  siteId: string;
  /** Visitor id, member id, or API key id. */
  subjectId: string;
  memberRole?: MemberRole;
  /** The sign-in session an access token belongs to (its refresh token), for logout. */
  sessionId?: string;
}

/** What every service function takes first: the site, the caller, the clock and the database handle. */
export interface RequestContext extends SiteContext {
  readonly caller: Caller;
  readonly requestId: string;
  /** The client's address as the server saw it (the proxy's behind one), for the audit log. */
  readonly ip?: string;
}

/** Supplied by the services that own tokens and API keys; platform knows none of them. */
export interface CallerResolver {
  /** Verifies a signed access token; throws a 401 ApiError when it is bad or expired. */
  fromAccessToken(token: string): Promise<Caller>;
  /** Checks an API key for the site named by `wix-site-id`; throws a 401 ApiError when unknown. */
  fromApiKey(apiKey: string, siteId: string | undefined): Promise<Caller>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route requires, a row of the role matrix (access-matrix.ts); a route without it is public. */
    access?: Permission;
  }
  interface FastifyInstance {
    /** Every route and its permission, as added (the role matrix's test and README walk it). */
    routeAccess: readonly RouteAccess[];
  }
  interface FastifyRequest {
    /** The resolved caller, or null on a public route called without valid credentials. */
    caller: Caller | null;
    /** Set whenever `caller` is; routes that declare `access` may rely on it. */
    ctx: RequestContext;
  }
}

/** The caller's actor in the role matrix: an owner or contributor only while their member row says so. */
export function actorOf(caller: Caller): Actor {
  switch (caller.kind) {
    case 'APP': return 'API_KEY';
    case 'ANONYMOUS_VISITOR': return 'VISITOR';
    case 'MEMBER': return 'MEMBER';
    case 'WIX_USER': return caller.memberRole === 'OWNER' || caller.memberRole === 'CONTRIBUTOR' ? caller.memberRole : 'MEMBER';
  }
}

/** Access tokens are JWTs (three dot-separated base64url parts); anything else is taken for an API key. */
function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

export function readAuthorization(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const value = header.replace(/^Bearer\s+/i, '').trim();
  return value === '' ? undefined : value;
}

async function resolveCaller(req: FastifyRequest, resolver: CallerResolver): Promise<Caller | null> {
  const credential = readAuthorization(req);
  if (!credential) return null;
  const siteHeader = req.headers['wix-site-id'];
  const siteId = Array.isArray(siteHeader) ? siteHeader[0] : siteHeader;
  if (looksLikeJwt(credential)) return resolver.fromAccessToken(credential);
  // "<accessToken>,<apiKey>" is the authorized_client grant's header, read by that route alone.
  if (credential.includes(',')) return null;
  return resolver.fromApiKey(credential, siteId);
}

/**
 * A further check of a back-office caller (an owner or contributor signed in) on the calls that
 * run the shop (`staff` and `owner` routes), judged as the site's rules are now; throws an
 * ApiError to refuse (e.g. the owner's rule that staff sign in with a second factor). Supplied by
 * the services (wired in app.ts); platform knows none of the rules.
 */
export type StaffGate = (ctx: RequestContext) => Promise<void>;

/** The permissions that make a call a back-office one, where the staff gate applies. */
const GATED: ReadonlySet<Permission> = new Set(['staff', 'owner']);

/**
 * One hook decides who is asking and whether the role matrix admits them to the route; handlers
 * never check the kind of caller (services may still narrow further, e.g. by a collection's own
 * permissions or the member a call is about).
 */
export function registerCallerCheck(app: FastifyInstance, resolver: CallerResolver, db: Db, now: () => Date, staffGate?: StaffGate): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('ctx', null as unknown as RequestContext);
  const routes: RouteAccess[] = [];
  app.decorate('routeAccess', routes);
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Permission } | undefined)?.access;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access });
  });
  app.addHook('onRequest', async (req) => {
    const permission = req.routeOptions.config?.access;
    let caller: Caller | null;
    if (permission) {
      caller = await resolveCaller(req, resolver);
      if (!caller) throw ApiError.unauthenticated('This call needs an access token or an API key');
      const actor = actorOf(caller);
      if (!admits(permission, actor)) throw ApiError.forbidden(`A caller of role ${actor} may not use this call (it needs "${permission}")`);
    } else {
      caller = await resolveCaller(req, resolver).catch(() => null);
    }
    req.caller = caller;
    if (caller) req.ctx = { ...siteContext(db, caller.siteId, now), caller, requestId: String(req.id), ip: req.ip };
    if (caller?.kind === 'WIX_USER' && permission && GATED.has(permission) && staffGate) await staffGate(req.ctx);
  });
}
