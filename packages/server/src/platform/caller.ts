import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Db } from './db.js';
import { siteContext, type SiteContext } from './context.js';

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
    /** Which callers a route admits; a route without it is public. */
    callers?: readonly CallerKind[];
  }
  interface FastifyRequest {
    /** The resolved caller, or null on a public route called without valid credentials. */
    caller: Caller | null;
    /** Set whenever `caller` is; routes that declare `callers` may rely on it. */
    ctx: RequestContext;
  }
}

export const ALL_CALLERS: readonly CallerKind[] = ['ANONYMOUS_VISITOR', 'MEMBER', 'WIX_USER', 'APP'];
export const BACK_OFFICE: readonly CallerKind[] = ['WIX_USER', 'APP'];

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

/** One hook decides who is asking and whether the route admits them; handlers never check. */
export function registerCallerCheck(app: FastifyInstance, resolver: CallerResolver, db: Db, now: () => Date): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('ctx', null as unknown as RequestContext);
  app.addHook('onRequest', async (req) => {
    const admitted = req.routeOptions.config?.callers;
    let caller: Caller | null;
    if (admitted) {
      caller = await resolveCaller(req, resolver);
      if (!caller) throw ApiError.unauthenticated('This call needs an access token or an API key');
      if (!admitted.includes(caller.kind)) {
        throw ApiError.forbidden(`A ${caller.kind} caller may not use this call`);
      }
    } else {
      caller = await resolveCaller(req, resolver).catch(() => null);
    }
    req.caller = caller;
    if (caller) req.ctx = { ...siteContext(db, caller.siteId, now), caller, requestId: String(req.id), ip: req.ip };
  });
}
