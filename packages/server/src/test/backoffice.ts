/**
 * Back-office test kit: a site with an owner, a contributor and a plain member signed in with real
 * tokens, its API key, and a visitor: every kind of caller the access tests go through.
 */
import type { FastifyInstance } from 'fastify';
import type { TestApp, TestSite } from './harness.js';

export type CallerName = 'anonymous' | 'visitor' | 'member' | 'contributor' | 'owner' | 'apiKey';
export const CALLERS: readonly CallerName[] = ['anonymous', 'visitor', 'member', 'contributor', 'owner', 'apiKey'];

export interface BackOfficeSite {
  site: TestSite;
  ownerId: string;
  ownerEmail: string;
  contributorId: string;
  memberId: string;
  /** Headers of each caller kind; `anonymous` sends none. */
  headers: Record<CallerName, Record<string, string>>;
}

let counter = 0;

async function memberWithRole(app: FastifyInstance, site: TestSite, role: 'MEMBER' | 'CONTRIBUTOR', email: string): Promise<string> {
  const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
  const created = await app.inject({ method: 'POST', url: '/members/v1/members', headers: key, payload: { member: { loginEmail: email } } });
  if (created.statusCode !== 200) throw new Error(`member create failed: ${created.body}`);
  const id = (created.json() as { member: { id: string } }).member.id;
  if (role !== 'MEMBER') {
    const res = await app.inject({ method: 'POST', url: `/members/v1/members/${id}/role`, headers: key, payload: { role } });
    if (res.statusCode !== 200) throw new Error(`role change failed: ${res.body}`);
  }
  return id;
}

async function token(app: FastifyInstance, site: TestSite, memberId: string, memberRole: 'MEMBER' | 'CONTRIBUTOR' | 'OWNER'): Promise<string> {
  const grant = await app.services.oauth.startSession(app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'member', subjectId: memberId, memberRole });
  return grant.access_token;
}

export async function backOfficeSite(t: TestApp, input: { currency?: string } = {}): Promise<BackOfficeSite> {
  const n = `${process.pid}.${Date.now()}.${++counter}`;
  const ownerEmail = `owner.${n}@example.com`;
  const site = await t.createSite({ ownerEmail, ownerPassword: 'owner-password-1', ...input });
  const rows = await t.db.query<{ member_id: string }>("SELECT member_id FROM members WHERE site_id = $1 AND role = 'OWNER'", [site.siteId]);
  const ownerId = rows[0].member_id;
  const contributorId = await memberWithRole(t.app, site, 'CONTRIBUTOR', `contributor.${n}@example.com`);
  const memberId = await memberWithRole(t.app, site, 'MEMBER', `member.${n}@example.com`);
  const bearer = async (id: string, role: 'MEMBER' | 'CONTRIBUTOR' | 'OWNER') => ({ authorization: `Bearer ${await token(t.app, site, id, role)}` });
  return {
    site, ownerId, ownerEmail, contributorId, memberId,
    headers: {
      anonymous: {},
      visitor: { authorization: `Bearer ${await t.visitorToken(site)}` },
      member: await bearer(memberId, 'MEMBER'),
      contributor: await bearer(contributorId, 'CONTRIBUTOR'),
      owner: await bearer(ownerId, 'OWNER'),
      apiKey: { authorization: site.apiKey, 'wix-site-id': site.siteId },
    },
  };
}
