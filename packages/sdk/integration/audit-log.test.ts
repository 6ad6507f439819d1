/** `auditLog` of @bodega/sdk against a real server, with the site's API key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, backOffice } from '@bodega/sdk';
import { adminClient, startServer, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let admin: ReturnType<typeof clientOf>;

const clientOf = (s: TestSite) => adminClient(server.origin, s, { auditLog, backOffice });

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  admin = clientOf(site);
});
afterAll(async () => server.close());

describe('auditLog', () => {
  it('lists what the key did, filtered and paged, exports it as CSV and sets the retention', async () => {
    const first = await admin.backOffice.createApiKey('Robot one');
    await admin.backOffice.createApiKey('Robot two');
    const created = await admin.auditLog.list({ action: 'api_key.created', limit: 1 });
    expect(created.entries).toHaveLength(1);
    expect(created.entries[0]).toMatchObject({ action: 'api_key.created', actor: { kind: 'API_KEY' }, object: { type: 'api_key' }, after: { name: 'Robot two' } });
    const next = await admin.auditLog.list({ action: 'api_key.created', limit: 1, cursor: created.nextCursor });
    expect(next.entries[0]).toMatchObject({ object: { id: first.apiKey.id }, after: { name: 'Robot one' } });
    expect(next.nextCursor).toBeUndefined();

    const csv = await (await admin.auditLog.exportCsv({ objectId: first.apiKey.id })).text();
    expect(csv.trim().split('\n')).toHaveLength(2);
    expect(csv).toContain('Robot one');

    expect(await admin.auditLog.settings()).toEqual({ settings: { retentionDays: 365 } });
    expect(await admin.auditLog.updateSettings({ retentionDays: 90 })).toEqual({ settings: { retentionDays: 90 } });
    await expect(admin.auditLog.list({ from: 'not a date' })).rejects.toMatchObject({ status: 400 });
    expect((await admin.auditLog.list({ action: 'export.audit_log' })).entries).toHaveLength(1);
  });
});
