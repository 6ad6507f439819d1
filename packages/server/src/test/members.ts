/**
 * Members test kit: one listening Bodega per test file, official `@wix/members` clients for each
 * caller kind against it, and members created through the API with real signed tokens.
 */
import { afterAll, beforeAll } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy, type Tokens } from '@wix/sdk';
import { badges, customFields, memberFollowers, memberReport, members, membersAbout } from '@wix/members';
import type { FastifyInstance } from 'fastify';
import type { MemberRole } from '../platform/caller.js';
import type { Db } from '../platform/db.js';
import type { CreateSiteInput } from '../services/sites/service.js';
import { testApp, type TestApp, type TestSite } from './harness.js';
import { keepEveryEvent } from './webhooks.js';
import { listen, redirectWixFetch } from './wix-fetch.js';

const modules = { members, badges, customFields, memberFollowers, memberReport, membersAbout };

/** The test file's app, which exists once the file's beforeAll has run. */
class FileTestApp implements TestApp {
  current: TestApp | undefined;

  private get built(): TestApp {
    if (!this.current) throw new Error('The test app is built in beforeAll: use it in tests and hooks');
    return this.current;
  }

  get app(): FastifyInstance {
    return this.built.app;
  }

  get db(): Db {
    return this.built.db;
  }

  get siteIds(): string[] {
    return this.built.siteIds;
  }

  createSite(input?: Partial<CreateSiteInput>): Promise<TestSite> {
    return this.built.createSite(input);
  }

  visitorToken(site: TestSite): Promise<string> {
    return this.built.visitorToken(site);
  }

  close(): Promise<void> {
    return this.built.close();
  }
}

/**
 * Call once at the top of a test file: the app is built and listening before the file's tests,
 * with the official SDK's calls to wixapis.com sent to it, and closed after them.
 */
export function membersTestApp(): TestApp {
  const t = new FileTestApp();
  let wixFetch: ReturnType<typeof redirectWixFetch> | undefined;
  beforeAll(async () => {
    t.current = await testApp();
    wixFetch = redirectWixFetch(await listen(t.current.app));
  });
  afterAll(async () => {
    wixFetch?.restore();
    await t.current?.close();
  });
  return t;
}

/** A fresh site and an API-key client for it; its outbox keeps every event (webhooks.ts keepEveryEvent). */
export async function newSite(t: TestApp, input: Partial<CreateSiteInput> = {}): Promise<{ site: TestSite; admin: MembersClient }> {
  const site = await t.createSite(input);
  await keepEveryEvent(t.db, site.siteId); // the tests read its outbox rows
  return { site, admin: adminClient(site) };
}

export interface OutboxEvent {
  type: string;
  payload: Record<string, unknown>;
}

/** A site's outbox events about one entity, or one kind of entity, oldest first. */
export async function outboxEvents(t: TestApp, site: TestSite, about: { entityId: string } | { entityType: string }): Promise<OutboxEvent[]> {
  const [column, value] = 'entityId' in about ? ['entity_id', about.entityId] : ['entity_type', about.entityType];
  return t.db.query<OutboxEvent & Record<string, unknown>>(
    `SELECT type, payload FROM outbox_events WHERE site_id = $1 AND ${column} = $2 ORDER BY created_at, event_id`, [site.siteId, value]);
}

/** Their types only. */
export async function eventTypes(t: TestApp, site: TestSite, about: { entityId: string } | { entityType: string }): Promise<string[]> {
  return (await outboxEvents(t, site, about)).map((e) => e.type);
}

export function adminClient(site: TestSite) {
  return createClient({ auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }), modules });
}

export type MembersClient = ReturnType<typeof adminClient>;

/** A visitor: the SDK fetches its own anonymous tokens on the first call. */
export function visitorClient(site: TestSite) {
  return createClient({ auth: OAuthStrategy({ clientId: site.clientId }), modules });
}

export interface SignedInMember {
  memberId: string;
  tokens: Tokens;
  client: ReturnType<typeof visitorClient>;
}

/** Real signed tokens for a member (OWNER or CONTRIBUTOR tokens make a WIX_USER caller). */
export async function signIn(t: TestApp, site: TestSite, memberId: string, memberRole: MemberRole = 'MEMBER'): Promise<SignedInMember> {
  const grant = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'member', subjectId: memberId, memberRole });
  const tokens: Tokens = {
    accessToken: { value: grant.access_token, expiresAt: Math.floor(Date.now() / 1000) + grant.expires_in },
    refreshToken: { value: grant.refresh_token, role: 'member' },
  };
  return { memberId, tokens, client: createClient({ auth: OAuthStrategy({ clientId: site.clientId, tokens }), modules }) };
}

let counter = 0;

export function uniqueEmail(tag = 'member'): string {
  return `${tag}.${++counter}.${process.pid}.${Date.now()}@example.com`;
}

export interface NewMemberOptions {
  nickname?: string;
  /** Join the community (PUBLIC); default true. */
  public?: boolean;
  role?: MemberRole;
  email?: string;
}

/** Creates an approved member through the API (as an API key), optionally public and with a role. */
export async function newMember(admin: MembersClient, options: NewMemberOptions = {}): Promise<string> {
  const member = await admin.members.createMember({
    member: {
      loginEmail: options.email ?? uniqueEmail(options.nickname?.toLowerCase().replace(/\W+/g, '-') || 'member'),
      profile: { nickname: options.nickname ?? `Member ${counter}` },
      privacyStatus: options.public === false ? 'PRIVATE' : 'PUBLIC',
    },
  });
  const id = member._id as string;
  return id;
}

/** Sets a role through the Bodega role route (owners and API keys only). */
export async function setRole(t: TestApp, site: TestSite, memberId: string, role: MemberRole): Promise<void> {
  const res = await t.app.inject({
    method: 'POST', url: `/members/v1/members/${memberId}/role`,
    headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: { role },
  });
  if (res.statusCode !== 200) throw new Error(`role change failed: ${res.body}`);
}

/** The SDK's error, reduced to what a test checks: status and application code. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status?: number; message?: string; details?: { applicationError?: { code?: unknown }; validationError?: unknown } };
    const code = e.details?.applicationError?.code ?? (e.details?.validationError ? 'VALIDATION' : 'UNKNOWN');
    return { status: e.status ?? 0, code: String(code), message: e.message ?? '' };
  }
  throw new Error('expected the call to fail');
}
