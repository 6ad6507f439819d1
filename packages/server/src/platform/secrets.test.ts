// Stored secrets (the sites' token signing secrets, webhook private keys and Standard Webhooks
// secrets) are sealed with the server key: unreadable in the database without it, opened with
// it, sealed at start when stored before encryption, and re-sealed by a rotation.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { apiKey } from '../test/commerce.js';
import { SEALED_COLUMNS } from '../app.js';
import { ConfigError } from './config.js';
import {
  decryptSecret, encryptSecret, keyring, keyringFromEnv, loadKeyring, newKeyText, parseKey, resealAll, SecretError,
} from './secrets.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-secrets-'));
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const serverRing = () => keyringFromEnv(process.env);

/** A site with a STANDARD subscription (its secret as shown once) and its webhook key pair made. */
async function siteWithSecrets(): Promise<{ site: TestSite; standardSecret: string }> {
  const site = await t.createSite();
  const created = await t.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: apiKey(site), payload: { subscription: { url: 'https://hooks.example.com/in', eventTypes: ['order.created'] } } });
  expect(created.statusCode, created.body).toBe(200);
  const key = await t.app.inject({ method: 'GET', url: '/bodega/v1/webhooks/public-key', headers: apiKey(site) });
  expect(key.statusCode, key.body).toBe(200);
  return { site, standardSecret: created.json().secret as string };
}

async function storedSecrets(siteId: string): Promise<{ privateKey: string; standard: string; signing: string }> {
  const [keys] = await t.db.query<{ private_key: string }>('SELECT private_key FROM webhook_keys WHERE site_id = $1', [siteId]);
  const [sub] = await t.db.query<{ secret: string }>('SELECT secret FROM webhook_subscriptions WHERE site_id = $1', [siteId]);
  const [signing] = await t.db.query<{ secret: string }>('SELECT secret FROM signing_keys WHERE site_id = $1', [siteId]);
  return { privateKey: keys.private_key, standard: sub.secret, signing: signing.secret };
}

describe('a sealed secret', () => {
  it('opens with the key that sealed it, names that key, and refuses another key or a changed byte', () => {
    const ring = keyring(parseKey('test', newKeyText()));
    const sealed = encryptSecret(ring, 'whsec_abc');
    expect(sealed).toMatch(new RegExp(`^bdgsec:v1:${ring.current.id}:[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(sealed).not.toContain('abc');
    expect(encryptSecret(ring, 'whsec_abc')).not.toBe(sealed);
    expect(decryptSecret(ring, sealed)).toBe('whsec_abc');
    expect(() => decryptSecret(keyring(parseKey('other', newKeyText())), sealed)).toThrow(SecretError);
    const [head, body] = [sealed.slice(0, -3), sealed.slice(-3)];
    expect(() => decryptSecret(ring, `${head}${body === 'AAA' ? 'BBB' : 'AAA'}`)).toThrow(SecretError);
  });
});

describe('secrets in the database', () => {
  it('are stored sealed, unreadable without the server key, and still sign with it', async () => {
    const { site, standardSecret } = await siteWithSecrets();
    const stored = await storedSecrets(site.siteId);
    for (const value of Object.values(stored)) expect(value).toMatch(/^bdgsec:v1:/);
    expect(stored.privateKey).not.toContain('PRIVATE KEY');
    expect(stored.standard).not.toContain(standardSecret.slice(6));
    expect(decryptSecret(serverRing(), stored.standard)).toBe(standardSecret);
    expect(decryptSecret(serverRing(), stored.privateKey)).toContain('-----BEGIN PRIVATE KEY-----');
    const stranger = keyring(parseKey('other', newKeyText()));
    for (const value of Object.values(stored)) expect(() => decryptSecret(stranger, value)).toThrow(SecretError);
    // The sealed signing secret still signs the site's tokens.
    const visitor = await t.visitorToken(site);
    const me = await t.app.inject({ method: 'GET', url: '/ecom/v1/carts/current', headers: { authorization: visitor } });
    expect(me.statusCode).not.toBe(401);
  });

  it('stored before encryption are sealed by the start-up pass; a rotation re-seals them under the new key', async () => {
    const { site, standardSecret } = await siteWithSecrets();
    const ring = serverRing();
    const plain = await storedSecrets(site.siteId);
    // As a server before this change left them: plaintext.
    await t.db.query('UPDATE webhook_subscriptions SET secret = $2 WHERE site_id = $1', [site.siteId, standardSecret]);
    await t.db.query('UPDATE signing_keys SET secret = $2 WHERE site_id = $1', [site.siteId, decryptSecret(ring, plain.signing)]);
    expect(await resealAll(t.db, ring, SEALED_COLUMNS, [site.siteId])).toBe(2);
    const sealed = await storedSecrets(site.siteId);
    expect(sealed.standard).toMatch(/^bdgsec:v1:/);
    expect(decryptSecret(ring, sealed.standard)).toBe(standardSecret);
    expect(await resealAll(t.db, ring, SEALED_COLUMNS, [site.siteId])).toBe(0);

    const next = keyring(parseKey('new', newKeyText()), [ring.current]);
    expect(await resealAll(t.db, next, SEALED_COLUMNS, [site.siteId])).toBe(3);
    const rotated = await storedSecrets(site.siteId);
    for (const value of Object.values(rotated)) expect(value.startsWith(`bdgsec:v1:${next.current.id}:`), value).toBe(true);
    expect(decryptSecret(keyring(next.current), rotated.standard)).toBe(standardSecret);
    expect(() => decryptSecret(ring, rotated.standard)).toThrow(SecretError);
  });

  it("the start-up pass leaves a value sealed with a key the server lacks as it is, and reports it, instead of failing", async () => {
    const { site } = await siteWithSecrets();
    const before = await storedSecrets(site.siteId);
    const stranger = keyring(parseKey('other', newKeyText()));
    await expect(resealAll(t.db, stranger, SEALED_COLUMNS, [site.siteId])).rejects.toThrow(SecretError);
    const unreadable: string[] = [];
    expect(await resealAll(t.db, stranger, SEALED_COLUMNS, [site.siteId], (where) => unreadable.push(`${where.table}.${where.column}`))).toBe(0);
    expect(unreadable.sort()).toEqual(['signing_keys.secret', 'webhook_keys.private_key', 'webhook_subscriptions.secret']);
    expect(await storedSecrets(site.siteId)).toEqual(before);
  });
});

describe('the server key', () => {
  it('is a key file created 0600 in DATA_DIR on the embedded database, the same at every start', () => {
    const dataDir = path.join(work, 'data');
    const first = loadKeyring({}, { dataDir, databaseUrl: undefined });
    expect((fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777).toString(8)).toBe('600');
    expect(loadKeyring({}, { dataDir, databaseUrl: undefined }).current.id).toBe(first.current.id);
    const given = newKeyText();
    expect(loadKeyring({ BODEGA_SECRET_KEY: given }, { dataDir, databaseUrl: undefined }).current.id).toBe(parseKey('x', given).id);
    expect(() => loadKeyring({ BODEGA_SECRET_KEY: 'short' }, { dataDir, databaseUrl: undefined })).toThrow(ConfigError);
  });

  it('must be given on PostgreSQL: a start without it stops with one line', { timeout: 120_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', WORKERS: '1', PORT: '0' };
    delete env.BODEGA_SECRET_KEY;
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'packages/server/src/main.ts')], { cwd: ROOT, env, timeout: 100_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr });
      });
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('bodega: BODEGA_SECRET_KEY is required with DATABASE_URL (every server needs the same key; make one with `openssl rand -hex 32`)\n');
  });
});
