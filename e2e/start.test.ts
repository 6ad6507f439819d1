import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Starts the real entry point the way `npm start` does, on a fresh DATA_DIR and a free port. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const START = path.join(ROOT, 'packages/server/scripts/start.mjs');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function start(env: Record<string, string | undefined>, script = MAIN): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: undefined, LOG_LEVEL: 'warn', ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 40_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-start-'));
let server: Started;
let base: string;

beforeAll(async () => {
  expect(fs.existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = start({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  await waitFor('/healthz', async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 90_000);
}, 120_000);

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', { timeout: 120_000 }, () => {
  it('serves /healthz once migrations are done', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('creates the demo site on an empty database and prints a clientId that works', async () => {
    const clientId = await waitFor('the printed clientId', async () => server.output().match(/clientId:\s+([0-9a-f-]{36})/)?.[1]);
    expect(server.output()).toMatch(/owner:\s+\S+@\S+ \/ \S+/);
    const res = await fetch(`${base}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, grantType: 'anonymous' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ access_token: expect.any(String), expires_in: 14400 });
  });

  it('seeds the demo without a log line per request, so the owner sign-in is not buried; requests after it are logged', async () => {
    await waitFor('the owner banner', async () => (/owner:\s+\S+@/.test(server.output()) ? true : undefined));
    const logged = () => server.output().split('Bodega is serving');
    expect(logged()[0]).not.toMatch(/"msg":"request"/);
    await fetch(`${base}/healthz`);
    await waitFor('a request line', async () => (/"msg":"request"/.test(logged()[1] ?? '') ? true : undefined));
  });

  it('serves the web app page and its assets', async () => {
    const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${base}${asset}`);
    expect(js.status).toBe(200);
    // Read it whole: an unread body leaves the connection busy, and a busy connection holds up shutdown.
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const deepLink = await fetch(`${base}/account/orders`, { headers: { accept: 'text/html' } });
    expect(await deepLink.text()).toContain('<div id="root">');
  });

  it('serves the demo store: its products in the sitemap, its clientId in every page', async () => {
    const clientId = await waitFor('the printed clientId', async () => server.output().match(/clientId:\s+([0-9a-f-]{36})/)?.[1]);
    expect(server.output()).toMatch(/Created the demo store \(13 products; try the coupon WELCOME10\)/);
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    const products = [...sitemap.matchAll(/<loc>([^<]+\/products\/[^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(products).toHaveLength(13);
    expect(products).toContain(`${base}/products/linen-camp-shirt`);
    const page = await (await fetch(`${base}/products/linen-camp-shirt`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(`"clientId":"${clientId}"`);
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${base}/sitemap.xml`);
  });

  it('answers unknown API paths with the JSON error shape, not the page', async () => {
    const res = await fetch(`${base}/ecom/v1/nothing`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { details: { applicationError: { code: string } } };
    expect(body.details.applicationError.code).toBe('NOT_FOUND');
  });

  it('refuses a second server on the same embedded database with a clear message', async () => {
    const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Bodega process/);
  });

  it('stops at start with one line for a bad setting', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(await bad.exited).toBe(1);
    expect(bad.output().trim()).toBe('bodega: PORT must be a whole number from 0 to 65535 (got "eighty")');
  });
});

describe('npm start on a built tree', { timeout: 600_000 }, () => {
  const outputs = ['packages/server/dist/main.js', 'apps/web/dist/client/index.html', 'apps/web/dist/server/entry-server.js'].map((p) => path.join(ROOT, p));
  const mtimes = () => outputs.map((file) => fs.statSync(file).mtimeMs);

  it('compiles nothing the second time: no build line, every output left as it was', async () => {
    // A bad PORT stops the server right after the build check, so no database is opened. The first
    // run builds whatever is stale (nothing after `npm run build`); the second must build nothing.
    const first = start({ DATA_DIR: dataDir, PORT: 'eighty' }, START);
    expect(await first.exited).toBe(1);
    const before = mtimes();
    const second = start({ DATA_DIR: dataDir, PORT: 'eighty' }, START);
    expect(await second.exited).toBe(1);
    expect(second.output().trim()).toBe('bodega: PORT must be a whole number from 0 to 65535 (got "eighty")');
    expect(mtimes()).toEqual(before);
  });
});
