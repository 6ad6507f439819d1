// A domain serves a site's pages, and counts as a redirect origin, only once it is proven: by the
// operator, or by its owner publishing the token in DNS or at the well-known URL. Names resolve
// through a DNS server this test starts on loopback; the well-known file comes from a loopback
// HTTP server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey } from '../../test/commerce.js';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';

const SETTINGS = '/_api/bodega/v1/site-settings';
const VERIFY = '/_api/bodega/v1/site-settings/domains/verify';

let t: TestApp;
let dns: TestDnsServer;
let web: http.Server;
/** What the loopback web server answers at each `host/path`. */
const files = new Map<string, string>();

beforeAll(async () => {
  dns = await startDnsServer();
  web = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const body = files.get(`${host}${req.url ?? ''}`);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not here');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  t = await testApp({
    publicUrl: 'http://shops.example:3000',
    domainProof: { dnsServers: [dns.address], httpPort: (web.address() as AddressInfo).port, allowPrivate: true, timeoutMs: 3000 },
  });
});
afterAll(async () => {
  await t.close();
  await dns.close();
  await new Promise((resolve) => web.close(resolve));
});

const unique = () => randomUUID().slice(0, 8);

interface DomainStatusBody {
  domain: string;
  status: 'PENDING' | 'VERIFIED';
  txtRecord: { name: string; value: string };
  wellKnownUrl: string;
  verifiedBy?: string;
  problem?: string;
}

async function setDomains(site: TestSite, domains: string[]) {
  return t.app.inject({ method: 'PATCH', url: SETTINGS, headers: apiKey(site), payload: { settings: { domains } } });
}

async function statusOf(site: TestSite, domain: string): Promise<DomainStatusBody> {
  const res = await t.app.inject({ method: 'GET', url: SETTINGS, headers: apiKey(site) });
  const found = (res.json().settings.domainStatus as DomainStatusBody[]).find((d) => d.domain === domain);
  if (!found) throw new Error(`${domain} is not among the site's domains: ${res.body}`);
  return found;
}

async function verify(site: TestSite, domain: string) {
  return t.app.inject({ method: 'POST', url: VERIFY, headers: apiKey(site), payload: { domain } });
}

/** A redirect session whose post-flow URL is on `origin`: 200 only when the origin is allowed. */
async function redirectTo(site: TestSite, origin: string): Promise<number> {
  const visitor = await t.visitorToken(site);
  const res = await t.app.inject({
    method: 'POST', url: '/_api/redirects-api/v1/redirect-session', headers: { authorization: visitor },
    payload: { login: {}, callbacks: { postFlowUrl: `${origin}/account` } },
  });
  return res.statusCode;
}

describe('a domain the owner adds', () => {
  it('is PENDING, routes no page and is no redirect origin until its TXT record holds the token', async () => {
    const site = await t.createSite();
    const name = `shop-${unique()}.example`;
    const set = await setDomains(site, [name]);
    expect(set.statusCode, set.body).toBe(200);
    const pending = await statusOf(site, name);
    expect(pending).toMatchObject({ status: 'PENDING', txtRecord: { name: `_bodega.${name}` } });
    expect(pending.txtRecord.value).toMatch(/^bodega-[0-9a-f]{40}$/);
    expect(await t.app.services.sites.siteIdForHost(name)).toBeUndefined();
    expect(await redirectTo(site, `http://${name}:3000`)).toBe(400);

    const unproven = await verify(site, name);
    expect(unproven.statusCode, unproven.body).toBe(200);
    expect(unproven.json().domainStatus).toMatchObject({ status: 'PENDING', problem: expect.stringContaining(`_bodega.${name}`) });

    dns.setTxt(`_bodega.${name}`, ['v=something-else', pending.txtRecord.value]);
    const proven = await verify(site, name);
    expect(proven.json().domainStatus).toMatchObject({ domain: name, status: 'VERIFIED', verifiedBy: 'DNS_TXT' });
    expect(proven.json().domainStatus).not.toHaveProperty('problem');
    expect(await t.app.services.sites.siteIdForHost(`${name}:8080`)).toBe(site.siteId);
    expect(await redirectTo(site, `http://${name}:3000`)).toBe(200);
  });

  it('is proven by the token at http://<domain>/.well-known/bodega/<token>, and not by a wrong body', async () => {
    const site = await t.createSite();
    const name = `www.shop-${unique()}.example`;
    await setDomains(site, [name]);
    const { txtRecord, wellKnownUrl } = await statusOf(site, name);
    dns.setA(name, ['127.0.0.1']);
    const path = `/.well-known/bodega/${txtRecord.value}`;
    expect(wellKnownUrl).toBe(`http://${name}:${(web.address() as AddressInfo).port}${path}`);

    files.set(`${name}${path}`, 'bodega-not-the-token');
    expect((await verify(site, name)).json().domainStatus).toMatchObject({ status: 'PENDING', problem: expect.stringContaining('does not hold the token') });
    files.set(`${name}${path}`, `${txtRecord.value}\n`);
    expect((await verify(site, name)).json().domainStatus).toMatchObject({ status: 'VERIFIED', verifiedBy: 'WELL_KNOWN' });
    expect(await t.app.services.sites.siteIdForHost(name)).toBe(site.siteId);
  });

  it('is never the server’s own host, an IP address, localhost or a name under .localhost or .internal', async () => {
    const site = await t.createSite();
    for (const name of ['shops.example', 'SHOPS.example.', '127.0.0.1', '2130706433', '10.1.2.3', 'localhost', 'shop.localhost', 'db.internal', 'internal']) {
      const res = await setDomains(site, ['fine.example', name]);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().details.validationError.fieldViolations, name).toEqual([expect.objectContaining({ field: 'domains[1]', violatedRule: 'FORMAT' })]);
    }
    const read = await t.app.inject({ method: 'GET', url: SETTINGS, headers: apiKey(site) });
    expect(read.json().settings.domains).toEqual([]);
  });

  it('is refused once another site has verified it, while PENDING claims block nobody', async () => {
    const first = await t.createSite();
    const second = await t.createSite();
    const name = `claimed-${unique()}.example`;
    expect((await setDomains(first, [name])).statusCode).toBe(200);
    expect((await setDomains(second, [name])).statusCode).toBe(200);
    dns.setTxt(`_bodega.${name}`, [(await statusOf(second, name)).txtRecord.value]);
    expect((await verify(second, name)).json().domainStatus.status).toBe('VERIFIED');

    // The first site's token is not the second's, and the name is taken now.
    const late = await verify(first, name);
    expect(late.statusCode).toBe(409);
    expect(late.json().details.applicationError.code).toBe('DOMAIN_ALREADY_IN_USE');
    const third = await t.createSite();
    const taken = await setDomains(third, [name]);
    expect(taken.statusCode).toBe(409);
    expect(await t.app.services.sites.siteIdForHost(name)).toBe(second.siteId);
  });

  it('is verified for one site only when two prove the same name at once', async () => {
    const sites = [await t.createSite(), await t.createSite()];
    const name = `race-${unique()}.example`;
    for (const site of sites) await setDomains(site, [name]);
    dns.setTxt(`_bodega.${name}`, await Promise.all(sites.map(async (s) => (await statusOf(s, name)).txtRecord.value)));
    const results = await Promise.all(sites.map((s) => verify(s, name)));
    const statuses = results.map((r) => (r.statusCode === 200 ? r.json().domainStatus.status : r.statusCode)).sort();
    expect(statuses).toEqual([409, 'VERIFIED']);
    const winner = sites[results.findIndex((r) => r.statusCode === 200)];
    expect(await t.app.services.sites.siteIdForHost(name)).toBe(winner.siteId);
  });

  it('is checked only by its own site: another site’s key finds no such domain there', async () => {
    const site = await t.createSite();
    const other = await t.createSite();
    const name = `own-${unique()}.example`;
    await setDomains(site, [name]);
    const elsewhere = await verify(other, name);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().details.applicationError.code).toBe('DOMAIN_NOT_FOUND');
    const borrowed = await t.app.inject({ method: 'POST', url: VERIFY, headers: { authorization: other.apiKey, 'wix-site-id': site.siteId }, payload: { domain: name } });
    expect(borrowed.statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'POST', url: VERIFY, headers: apiKey(site), payload: { domain: 'not a name/' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'domain', violatedRule: 'FORMAT' });
  });
});

describe('a domain the operator sets', () => {
  it('is trusted as verified at once (the operator owns the server), but never the server’s own host or an IP', async () => {
    const name = `op-${unique()}.example`;
    const site = await t.createSite({ domains: [name, `shop-${unique()}.localhost`] });
    expect(await statusOf(site, name)).toMatchObject({ status: 'VERIFIED', verifiedBy: 'OPERATOR' });
    expect(await t.app.services.sites.siteIdForHost(name)).toBe(site.siteId);
    // The owner may keep the operator's local name when saving the list, but not add one.
    const local = (await t.app.inject({ method: 'GET', url: SETTINGS, headers: apiKey(site) })).json().settings.domains[1] as string;
    expect((await setDomains(site, [name, local])).statusCode).toBe(200);
    expect((await setDomains(site, [name, local, `other-${unique()}.localhost`])).statusCode).toBe(400);
    await expect(t.createSite({ domains: ['shops.example'] })).rejects.toMatchObject({ status: 400 });
    await expect(t.createSite({ domains: ['192.168.1.1'] })).rejects.toMatchObject({ status: 400 });

    // Another site's verified name is a 409 on creation too.
    await expect(t.createSite({ domains: [name] })).rejects.toMatchObject({ status: 409 });

    // A name the owner left PENDING is verified when the operator sets it.
    const owned = await t.createSite();
    const pending = `pending-${unique()}.example`;
    await setDomains(owned, [pending]);
    const ctx = t.app.services.sites.contextFor(owned.siteId);
    await t.app.services.sites.setDomains(ctx, [pending], { operator: true });
    expect(await statusOf(owned, pending)).toMatchObject({ status: 'VERIFIED', verifiedBy: 'OPERATOR' });
  });
});

describe('sites created at the same moment', () => {
  // On Citus site_domains is a reference table: a DELETE or upsert there, inside site creation, once
  // closed a deadlock between two sites being created at once (CI's Citus pass).
  it('all commit, each with its operator-set names verified', async () => {
    const names = Array.from({ length: 12 }, () => [`a-${unique()}.example`, `b-${unique()}.localhost`]);
    const sites = await Promise.all(names.map((domains) => t.createSite({ domains })));
    for (const [i, site] of sites.entries()) {
      for (const name of names[i]!) expect(await t.app.services.sites.siteIdForHost(name)).toBe(site.siteId);
    }
  });
});
