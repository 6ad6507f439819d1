// The audit log as the owner reads it: who may, filters and cursor paging, the CSV, the retention
// and its prune, and that nothing in the app changes an entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, CALLERS, type BackOfficeSite } from '../../test/backoffice.js';
import { recordAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/caller.js';
import { neutraliseCell } from '../../platform/csv-cells.js';

let t: TestApp;
let clock = new Date('2026-03-01T12:00:00Z');
let a: BackOfficeSite;
let b: BackOfficeSite;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
});
afterAll(async () => t.close());

interface WireEntry { id: string; action: string; object: { type: string; id: string }; actor: { kind: string; id?: string; email?: string }; recordedDate: string; after?: unknown }

function ctxOf(s: BackOfficeSite, at: Date): RequestContext {
  const site = t.app.services.sites.contextFor(s.site.siteId);
  return { ...site, now: () => at, caller: { kind: 'WIX_USER', siteId: s.site.siteId, subjectId: s.ownerId, memberRole: 'OWNER' }, requestId: 'test' };
}

async function list(s: BackOfficeSite, query = '', who: 'owner' | 'apiKey' = 'owner'): Promise<{ entries: WireEntry[]; nextCursor?: string }> {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/audit-log${query}`, headers: s.headers[who] });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('who may read the audit log', () => {
  it('the owner and the API key read their own site; a contributor, a member, a visitor and no token are refused', async () => {
    await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: a.headers.owner, payload: { name: 'access test' } });
    for (const who of ['owner', 'apiKey'] as const) {
      const page = await list(a, '?action=api_key.created', who);
      expect(page.entries.some((e) => e.after && (e.after as { name?: string }).name === 'access test')).toBe(true);
    }
    for (const path of ['/bodega/v1/audit-log', '/bodega/v1/audit-log.csv', '/bodega/v1/audit-log/settings']) {
      for (const who of CALLERS.filter((c) => c !== 'owner' && c !== 'apiKey')) {
        const res = await t.app.inject({ method: 'GET', url: path, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${path}`).toBe(who === 'anonymous' ? 401 : 403);
        expect(res.json()).toHaveProperty('message');
      }
      const patch = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/audit-log/settings', headers: a.headers.contributor, payload: { settings: { retentionDays: 1 } } });
      expect(patch.statusCode).toBe(403);
    }
  });

  it("another site's owner and API key see only their own site's entries, and cannot name site A", async () => {
    const ownA = (await list(a)).entries.map((e) => e.id);
    expect(ownA.length).toBeGreaterThan(0);
    for (const who of ['owner', 'apiKey'] as const) {
      const theirs = await list(b, '', who);
      expect(theirs.entries.some((e) => ownA.includes(e.id))).toBe(false);
    }
    const keyOfB = await t.app.inject({ method: 'GET', url: '/bodega/v1/audit-log', headers: { authorization: b.site.apiKey, 'wix-site-id': a.site.siteId } });
    expect(keyOfB.statusCode).toBe(401);
  });
});

describe('listing', () => {
  it('filters by action, actor, object and date, newest first, paged by cursor', async () => {
    const s = await backOfficeSite(t);
    const days = ['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04', '2026-02-05'];
    for (const [i, day] of days.entries()) {
      await recordAudit(ctxOf(s, new Date(`${day}T10:00:00Z`)), { action: i % 2 ? 'order.refunded' : 'order.canceled', objectType: 'order', objectId: `o${i}` });
    }
    const refunds = await list(s, '?action=order.refunded');
    expect(refunds.entries.map((e) => e.object.id)).toEqual(['o3', 'o1']);
    expect(refunds.entries[0].actor).toEqual({ kind: 'MEMBER', id: s.ownerId, role: 'OWNER', email: s.ownerEmail });
    expect((await list(s, '?objectType=order&objectId=o2')).entries.map((e) => e.action)).toEqual(['order.canceled']);
    expect((await list(s, `?actor=${encodeURIComponent(s.ownerEmail.toUpperCase())}&objectType=order`)).entries).toHaveLength(5);
    expect((await list(s, '?objectType=order&from=2026-02-02&to=2026-02-04')).entries.map((e) => e.object.id)).toEqual(['o2', 'o1']);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(s, `?objectType=order&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.object.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['o4', 'o3', 'o2', 'o1', 'o0']);
  });

  it('answers 400 in the wire shape for a bad cursor, a bad date or an unknown filter', async () => {
    for (const query of ['?cursor=nonsense', '?from=yesterday', '?limit=0', '?colour=red', '?from=2026-02-05&to=2026-02-01']) {
      const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/audit-log${query}`, headers: a.headers.owner });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toHaveProperty('details');
    }
  });
});

describe('the CSV', () => {
  it('streams the filtered entries with a formula-like cell neutralised', async () => {
    const s = await backOfficeSite(t);
    await recordAudit(ctxOf(s, new Date('2026-02-10T10:00:00Z')), { action: 'site_settings.updated', objectType: 'site_settings', objectId: '=HYPERLINK("http://evil")', after: { name: '+1' } });
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/audit-log.csv?action=site_settings.updated', headers: s.headers.owner });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('recordedDate,action,objectType,objectId,actorKind,actorId,actorRole,actorEmail,ip,requestId,before,after,id');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`'=HYPERLINK(""http://evil"")`);
    expect(lines[1]).toContain(s.ownerEmail);
  });

  it('neutralises every cell a spreadsheet would run (a plain negative number stays a number)', () => {
    expect(['=1+1', '+1', '-1', '-1+1', '@SUM(A1)', '\tx', '\rx', 'plain', ''].map(neutraliseCell))
      .toEqual(["'=1+1", "'+1", '-1', "'-1+1", "'@SUM(A1)", "'\tx", "'\rx", 'plain', '']);
  });
});

describe('append-only', () => {
  it('has no route that changes or removes an entry', async () => {
    const [entry] = (await list(a)).entries;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/bodega/v1/audit-log', `/bodega/v1/audit-log/${entry.id}`]) {
        const res = await t.app.inject({ method, url, headers: a.headers.owner, payload: {} });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect((await list(a)).entries[0]).toEqual(entry);
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE outside the prune', async () => {
    const [entry] = (await list(a)).entries;
    await expect(t.db.query("UPDATE audit_log SET action = 'nothing' WHERE site_id = $1", [a.site.siteId])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log WHERE site_id = $1', [a.site.siteId])).rejects.toThrow(/append-only/);
    await expect(t.db.transaction(async (tx) => tx.query('TRUNCATE audit_log'))).rejects.toThrow(/append-only/);
    expect((await list(a)).entries[0]).toEqual(entry);
  });
});

describe('retention', () => {
  it('the owner sets it (and the change is on record); the prune deletes only older entries of each site', async () => {
    clock = new Date('2026-03-01T12:00:00Z');
    const s = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    const settings = await t.app.inject({ method: 'GET', url: '/bodega/v1/audit-log/settings', headers: s.headers.owner });
    expect(settings.json()).toEqual({ settings: { retentionDays: 365 } });
    const set = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/audit-log/settings', headers: s.headers.owner, payload: { settings: { retentionDays: 30 } } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ settings: { retentionDays: 30 } });
    const change = (await list(s, '?action=audit_settings.updated')).entries;
    expect(change).toEqual([expect.objectContaining({ before: { retentionDays: 365 }, after: { retentionDays: 30 } })]);
    const bad = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/audit-log/settings', headers: s.headers.owner, payload: { settings: { retentionDays: 0 } } });
    expect(bad.statusCode).toBe(400);

    for (const site of [s, other]) {
      await recordAudit(ctxOf(site, new Date('2026-01-15T00:00:00Z')), { action: 'order.canceled', objectType: 'order', objectId: 'old' });
      await recordAudit(ctxOf(site, new Date('2026-02-15T00:00:00Z')), { action: 'order.canceled', objectType: 'order', objectId: 'recent' });
    }
    await t.app.services.audit.prune();
    expect((await list(s, '?objectType=order')).entries.map((e) => e.object.id)).toEqual(['recent']);
    // The other site keeps the default year.
    expect((await list(other, '?objectType=order')).entries.map((e) => e.object.id)).toEqual(['recent', 'old']);
    expect((await list(s, '?action=audit_settings.updated')).entries).toHaveLength(1);
  });
});

describe('the SIEM webhook', () => {
  it('an entry is in the outbox as audit.recorded only for a subscription naming it', async () => {
    const s = await backOfficeSite(t);
    const outbox = async () => t.db.query<{ payload: { action: string; actor: { id: string } } }>(
      "SELECT payload FROM outbox_events WHERE site_id = $1 AND type = 'audit.recorded' ORDER BY seq", [s.site.siteId]);
    const subscribe = (eventTypes: string[]) => t.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: s.headers.apiKey, payload: { subscription: { url: 'https://siem.example/in', eventTypes } } });
    expect((await subscribe(['*'])).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.owner, payload: { name: 'unseen' } });
    expect(await outbox()).toEqual([]);
    expect((await subscribe(['audit.recorded'])).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.owner, payload: { name: 'seen' } });
    const events = await outbox();
    expect(events.map((e) => e.payload.action)).toEqual(['webhook.created', 'api_key.created']);
    expect(events[1].payload).toMatchObject({ actor: { kind: 'MEMBER', id: s.ownerId, email: s.ownerEmail }, object: { type: 'api_key' }, after: { name: 'seen' } });
  });
});

describe('concurrent changes', () => {
  it('two retention changes at once queue: each entry starts where the other ended', async () => {
    const s = await backOfficeSite(t);
    const patch = (days: number) => t.app.inject({ method: 'PATCH', url: '/bodega/v1/audit-log/settings', headers: s.headers.owner, payload: { settings: { retentionDays: days } } });
    const answers = await Promise.all([patch(30), patch(60)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    // Both at the same clock instant: their order is the chain of before → after, not the list's.
    const entries = (await list(s, '?action=audit_settings.updated')).entries as unknown as { before: { retentionDays: number }; after: { retentionDays: number } }[];
    expect(entries).toHaveLength(2);
    const [first, second] = entries.sort((x) => (x.before.retentionDays === 365 ? -1 : 1));
    expect(first.before.retentionDays).toBe(365);
    expect(second.before.retentionDays).toBe(first.after.retentionDays);
    const final = (await t.app.inject({ method: 'GET', url: '/bodega/v1/audit-log/settings', headers: s.headers.owner })).json() as { settings: { retentionDays: number } };
    expect(final.settings.retentionDays).toBe(second.after.retentionDays);
  });
});
