/**
 * `npm run bench -- web`: the storefront's budgets on a cold load in headless Chromium on
 * localhost — first-load JavaScript (gzip), Largest Contentful Paint and Cumulative Layout Shift
 * for home, listing, product, cart and checkout, then Lighthouse's mobile preset (performance and
 * accessibility). Needs `npm run build` and /usr/bin/chromium (CHROME_PATH for Lighthouse).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { openDb } from '../packages/server/src/platform/db.js';
import { migrate } from '../packages/server/src/platform/migrate.js';
import { buildApp } from '../packages/server/src/app.js';
import { seedDemoContent } from '../packages/server/src/demo-store/seed.js';

const WEB_DIR = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AIM = { productJs: 90, checkoutJs: 120, lcpMs: 1000, cls: 0.05, performance: 95, accessibility: 100 };

interface Row {
  page: string;
  jsKb: number;
  lcpMs: number;
  cls: number;
  performance?: number;
  accessibility?: number;
  /** Lighthouse's own LCP and Total Blocking Time, under its simulated slow 4G and CPU slowdown (ms). */
  lighthouseLcpMs?: number;
  tbtMs?: number;
}

async function freshContext(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-web-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROME, headless: true, args: FLAGS, viewport: { width: 1280, height: 900 } });
  return { context, async close() { await context.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** Records LCP and CLS from the first paint on (buffered observers installed before any script). */
const OBSERVE = `
  window.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__vitals.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__vitals.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
`;

/** One cold load: every script's gzip size (fetched and inline), LCP and CLS once the page has settled. */
async function coldLoad(page: Page, url: string, name: string): Promise<Row> {
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.body().then((b) => zlib.gzipSync(b, { level: 9 }).length).catch(() => 0));
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(OBSERVE);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.waitForTimeout(500); // let late layout shifts land
  const vitals = await page.evaluate(() => (window as unknown as { __vitals: { lcp: number; cls: number } }).__vitals);
  // Inline scripts count too (the page's bootstrap, with the query cache it hydrates); JSON data blocks do not run.
  const inline = await page.evaluate(() => Array.from(document.querySelectorAll('script:not([src])'))
    .filter((s) => !s.getAttribute('type') || /^(module|text\/javascript)$/.test(s.getAttribute('type') ?? '')).map((s) => s.textContent ?? ''));
  const bytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) + inline.reduce((sum, text) => sum + zlib.gzipSync(text, { level: 9 }).length, 0);
  return { page: name, jsKb: bytes / 1024, lcpMs: vitals.lcp, cls: vitals.cls };
}

const loadText = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export default async function web(): Promise<void> {
  const loadAtStart = loadText();
  if (!fs.existsSync(path.join(WEB_DIR, 'client', 'index.html'))) throw new Error('run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-web-db-'));
  const db = await openDb(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir });
  await migrate(db);
  // PUBLIC_URL must name the port before the app is built: take a free one first.
  const probe = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
  await probe.listen({ port: 0, host: '127.0.0.1' });
  const address = probe.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await probe.close();
  const origin = `http://127.0.0.1:${port}`;
  const app = await buildApp({ db, config: { publicUrl: origin, logLevel: 'silent', webDir: WEB_DIR, smtpUrl: undefined } });
  await app.listen({ port, host: '127.0.0.1' });
  const created = await app.services.sites.createSite({ name: 'Bodega demo store', status: 'DEMO', signupPolicy: 'open', allowedOrigins: [origin] });
  await seedDemoContent(app, { siteId: created.site.siteId, apiKey: created.apiKey });
  const rows: Row[] = [];
  try {
    const pages: [string, string][] = [['home', '/'], ['listing', '/products'], ['product', '/products/linen-camp-shirt'], ['cart', '/cart']];
    for (const [name, pathName] of pages) {
      const browser = await freshContext();
      rows.push(await coldLoad(await browser.context.newPage(), origin + pathName, name));
      await browser.close();
    }
    // Checkout needs a checkout of this visitor: fill a cart in the browser, then load the page cold.
    const browser = await freshContext();
    const page = await browser.context.newPage();
    await page.goto(`${origin}/products/waxed-canvas-tote`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    const checkoutUrl = page.url();
    const cold = await browser.context.newPage();
    rows.push(await coldLoad(cold, checkoutUrl, 'checkout'));
    await browser.close();

    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', ...FLAGS] });
    try {
      for (const row of rows) {
        const url = row.page === 'checkout' ? checkoutUrl : origin + pages.find(([n]) => n === row.page)?.[1];
        const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
        const categories = result?.lhr.categories;
        row.performance = Math.round((categories?.performance?.score ?? 0) * 100);
        row.accessibility = Math.round((categories?.accessibility?.score ?? 0) * 100);
        row.lighthouseLcpMs = result?.lhr.audits['largest-contentful-paint']?.numericValue;
        row.tbtMs = result?.lhr.audits['total-blocking-time']?.numericValue;
      }
    } finally {
      await chrome.kill();
    }
  } finally {
    await app.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);
  console.log(`site ${created.site.siteId} on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}; cold loads in headless Chromium, Lighthouse ${'mobile'} preset; load ${loadAtStart} at the start, ${loadText()} at the end (above 1: run it again on a quieter machine)`);
  console.log('| page | JS a cold load fetches (gzip, inline included) | LCP (localhost) | CLS | Lighthouse performance | Lighthouse LCP | Lighthouse TBT | Lighthouse accessibility |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.page} | ${r.jsKb.toFixed(1)} KB | ${Math.round(r.lcpMs)} ms | ${r.cls.toFixed(3)} | ${r.performance ?? '–'} | ${ms(r.lighthouseLcpMs)} | ${ms(r.tbtMs)} | ${r.accessibility ?? '–'} |`);
  }
  console.log(`aims: product first-load JS ≤ ${AIM.productJs} KB and checkout ≤ ${AIM.checkoutJs} KB (npm run bench -- bundle: the first load alone), LCP on localhost ≤ ${AIM.lcpMs} ms, CLS ≤ ${AIM.cls}, performance ≥ ${AIM.performance}, Lighthouse LCP ≤ 1800 ms, TBT ≤ 100 ms, accessibility ${AIM.accessibility}`);
}
