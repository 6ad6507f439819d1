import { createHmac, createSecretKey, timingSafeEqual, webcrypto, type KeyObject } from 'node:crypto';
import { jwtVerify, decodeJwt, decodeProtectedHeader, errors as joseErrors } from 'jose';
import type { SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { newId, newSecret } from '../../platform/ids.js';
import type { MemberRole } from '../../platform/caller.js';
import * as store from './store.js';
import type { TokenRole } from './store.js';
import { decryptSecret, encryptSecret, type Keyring, type SealedColumn } from '../../platform/secrets.js';

/** The access-token signing secrets, kept sealed with the server key. */
export const SIGNING_KEY_SEALED_COLUMNS: readonly SealedColumn[] = [{ table: 'signing_keys', keys: ['site_id', 'kid'], column: 'secret' }];

type CryptoKey = webcrypto.CryptoKey;

const ALGORITHM = 'HS256';
const VERIFIED_CACHE_SIZE = 20_000;
/** Sites whose signing keys a process keeps (keys never change under their kid; evicted ones are read again). */
const KEY_CACHE_SIZE = 10_000;

export interface AccessClaims {
  siteId: string;
  subjectId: string;
  role: TokenRole;
  sessionId: string;
  memberRole?: MemberRole;
  /** A member's access epoch when the token was issued; a later one (sign out everywhere) refuses it. */
  accessEpoch?: number;
  /** Expiry in epoch seconds. */
  expiresAt: number;
}

/** What a visitor's refresh token carries (it is signed, not stored). */
export interface VisitorSession {
  siteId: string;
  clientId: string;
  subjectId: string;
  sessionId: string;
}

/** Keeps a refresh token's MAC apart from any other use of the site's key. */
const VISITOR_REFRESH_CONTEXT = 'bodega visitor refresh token v1\n';

interface JwtPayload {
  site: string;
  sub: string;
  role: TokenRole;
  sid: string;
  mrole?: MemberRole;
  ep?: number;
  exp: number;
}

interface SigningKey {
  kid: string;
  /** For jose's verification. */
  verify: CryptoKey;
  /** For signing with node:crypto's HMAC. */
  sign: KeyObject;
  /** The encoded protected header, the same for every token of this key. */
  header: string;
}

/**
 * Signs and checks access tokens: HS256 JWTs with one secret per site, kept in the database so
 * every server shares it. jose checks every token; signing is node:crypto's synchronous HMAC
 * over the compact form (WebCrypto's asynchronous sign cost a fifth of a token grant). A token
 * already verified is remembered until it expires, so the check runs once per token.
 */
export class AccessTokens {
  private readonly keys: TtlCache<string, SigningKey>;
  private readonly signingKid: TtlCache<string, string>;
  private readonly verified: TtlCache<string, AccessClaims>;

  /** `contextFor` finds a site's context by id: a token names its site before any context exists. */
  constructor(
    private readonly contextFor: (siteId: string) => SiteContext,
    private readonly now: () => Date,
    /** Seals the signing secrets in the database (platform/secrets.ts). */
    private readonly ring: Keyring,
  ) {
    this.verified = new TtlCache({ ttlMs: 0, maxSize: VERIFIED_CACHE_SIZE, now });
    this.keys = new TtlCache({ ttlMs: Number.POSITIVE_INFINITY, maxSize: KEY_CACHE_SIZE, now });
    this.signingKid = new TtlCache({ ttlMs: Number.POSITIVE_INFINITY, maxSize: KEY_CACHE_SIZE, now });
  }

  /** Creates the site's first signing key, sealed; runs inside the site-creation transaction. */
  async createSiteKey(ctx: SiteContext): Promise<void> {
    await store.insertSigningKey(ctx, { kid: newId(), algorithm: ALGORITHM, secret: encryptSecret(this.ring, newSecret(32)) });
  }

  async sign(ctx: SiteContext, claims: Omit<AccessClaims, 'expiresAt' | 'siteId'>, ttlSeconds: number): Promise<{ token: string; expiresAt: number }> {
    const key = await this.signingKey(ctx);
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const payload: JwtPayload & { iat: number } = {
      site: ctx.siteId, role: claims.role, sid: claims.sessionId, ...(claims.memberRole && { mrole: claims.memberRole }),
      ...(claims.accessEpoch !== undefined && { ep: claims.accessEpoch }),
      sub: claims.subjectId, iat: issuedAt, exp: expiresAt,
    };
    const signingInput = `${key.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = createHmac('sha256', key.sign).update(signingInput).digest('base64url');
    return { token: `${signingInput}.${signature}`, expiresAt };
  }

  /**
   * A visitor's refresh token, `<siteId>.<base64url of kid, client, visitor, session>.<HMAC-SHA256>`:
   * nothing is written, so the anonymous grant costs no database commit.
   */
  async signVisitorRefresh(ctx: SiteContext, session: Omit<VisitorSession, 'siteId'>): Promise<string> {
    const key = await this.signingKey(ctx);
    const body = Buffer.from([key.kid, session.clientId, session.subjectId, session.sessionId].join('\n')).toString('base64url');
    const signed = `${ctx.siteId}.${body}`;
    return `${signed}.${refreshMac(key, signed)}`;
  }

  /** The session of a signed visitor refresh token, or undefined when it is malformed or forged. */
  async verifyVisitorRefresh(token: string): Promise<VisitorSession | undefined> {
    const [siteId, body, mac, extra] = token.split('.');
    if (!siteId || !body || !mac || extra !== undefined) return undefined;
    const [kid, clientId, subjectId, sessionId, more] = Buffer.from(body, 'base64url').toString('utf8').split('\n');
    if (!kid || !clientId || !subjectId || !sessionId || more !== undefined) return undefined;
    const key = await this.knownKey(siteId, kid);
    if (!key) return undefined;
    const given = Buffer.from(mac);
    const expected = Buffer.from(refreshMac(key, `${siteId}.${body}`));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { siteId, clientId, subjectId, sessionId };
  }

  /** Returns the token's claims, or throws a 401 ApiError when it is malformed, forged or expired. */
  async verify(token: string): Promise<AccessClaims> {
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    // Kept until the token expires; after that it is checked again and refused as expired.
    const cached = this.verified.get(token);
    if (cached && cached.expiresAt > nowSeconds) return cached;
    let kid: string | undefined;
    let siteId: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
      siteId = decodeJwt(token).site;
    } catch {
      throw ApiError.unauthenticated('The access token is malformed');
    }
    if (typeof kid !== 'string' || typeof siteId !== 'string') throw ApiError.unauthenticated('The access token is malformed');
    const key = await this.knownKey(siteId, kid);
    if (!key) throw ApiError.unauthenticated('The access token was not issued here');
    let payload: JwtPayload;
    try {
      const result = await jwtVerify(token, key.verify, { algorithms: [ALGORITHM], currentDate: this.now() });
      payload = result.payload as unknown as JwtPayload;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw ApiError.unauthenticated('The access token has expired');
      throw ApiError.unauthenticated('The access token is invalid');
    }
    if (payload.site !== siteId || (payload.role !== 'visitor' && payload.role !== 'member') || typeof payload.sub !== 'string') {
      throw ApiError.unauthenticated('The access token is invalid');
    }
    const claims: AccessClaims = {
      siteId,
      subjectId: payload.sub,
      role: payload.role,
      sessionId: payload.sid,
      memberRole: payload.mrole,
      accessEpoch: typeof payload.ep === 'number' ? payload.ep : 0,
      expiresAt: payload.exp,
    };
    this.verified.set(token, claims, claims.expiresAt * 1000);
    return claims;
  }

  private async currentKid(ctx: SiteContext): Promise<string> {
    const known = this.signingKid.get(ctx.siteId);
    if (known) return known;
    const row = await store.findNewestSigningKey(ctx);
    if (!row) throw new Error(`site ${ctx.siteId} has no signing key`);
    this.signingKid.set(ctx.siteId, row.kid);
    return row.kid;
  }

  /** The site's own current key, which signs what this server issues. */
  private async signingKey(ctx: SiteContext): Promise<SigningKey> {
    const kid = await this.currentKid(ctx);
    const key = await this.key(ctx, kid);
    if (!key) throw new Error(`site ${ctx.siteId} has no signing key ${kid}`);
    return key;
  }

  /**
   * The key a presented token names, or undefined when there is none (a forged or foreign token).
   * Ids are checked for shape before any query, so token text never reaches SQL as an id the
   * database would refuse; a database failure is not taken for a bad token and propagates.
   */
  private async knownKey(siteId: string, kid: string): Promise<SigningKey | undefined> {
    if (!TOKEN_ID.test(siteId) || !TOKEN_ID.test(kid)) return undefined;
    return this.key(this.contextFor(siteId), kid);
  }

  private async key(ctx: SiteContext, kid: string): Promise<SigningKey | undefined> {
    const cacheKey = `${ctx.siteId}/${kid}`;
    const cached = this.keys.get(cacheKey);
    if (cached) return cached;
    const row = await store.findSigningKey(ctx, kid);
    if (!row || row.algorithm !== ALGORITHM) return undefined;
    const secret = Buffer.from(decryptSecret(this.ring, row.secret), 'base64url');
    const key: SigningKey = {
      kid,
      verify: await webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']),
      sign: createSecretKey(secret),
      header: Buffer.from(JSON.stringify({ alg: ALGORITHM, kid, typ: 'JWT' })).toString('base64url'),
    };
    this.keys.set(cacheKey, key);
    return key;
  }
}

/** What a site id or key id looks like (UUIDs and the like); anything else names no key. */
const TOKEN_ID = /^[A-Za-z0-9_-]{1,100}$/;

function refreshMac(key: SigningKey, signed: string): string {
  return createHmac('sha256', key.sign).update(VISITOR_REFRESH_CONTEXT).update(signed).digest('base64url');
}
