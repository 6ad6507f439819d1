/**
 * Where add-to-cart's CPU goes (`npm run bench -- profile`, DATABASE_URL for PostgreSQL): the
 * in-process server's V8 CPU profile under the bare write and then under add-to-cart (50 shoppers,
 * each adding to their own cart of three lines, as in `bench -- cart`), each summed by function (self time) and by
 * package or source file, beside the CPU per request of node and PostgreSQL. The load generator
 * runs in a child, so the profile is the server's alone. `BENCH_SECONDS` (default 5) per load.
 * The profile files are written to the OS temp directory (open them in Chrome's DevTools).
 * Then the same two calls without sockets (`app.inject`, one at a time): node's user and system
 * CPU and PostgreSQL's per request, so what the kernel's loopback TCP costs under load (system
 * time in the socket writes) is told apart from our JavaScript and the statement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { BARE_WRITE_ROUTE, loadPerConnection, measureCpu, startNamedServer, withCpu, type BenchServer } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const WRITERS = 50;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface Summary { totalMs: number; byFunction: [string, number][]; byPlace: [string, number][] }

/** A frame's place: its package under node_modules, the repository file, or node's own. */
function placeOf(url: string): string {
  if (!url) return '(native/gc)';
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  if (file.startsWith('node:')) return 'node internals';
  return path.relative(ROOT, file);
}

function summarise(profile: Profiler.Profile): Summary {
  const selfUs = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (node.callFrame.functionName === '(idle)' || us === 0) continue;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url);
    const name = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, v / 1000] as [string, number]);
  return { totalMs: total / 1000, byFunction: top(byFunction, 25), byPlace: top(byPlace, 15) };
}

async function profiled(session: Session, server: BenchServer, label: string, run: () => ReturnType<typeof loadPerConnection>) {
  await session.post('Profiler.start');
  const result = await withCpu(server, run);
  const { profile } = await session.post('Profiler.stop');
  const file = path.join(os.tmpdir(), `bodega-${label.replace(/\W+/g, '-')}-${process.pid}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  const summary = summarise(profile);
  const perRequestUs = (ms: number) => ((ms * 1000) / Math.max(1, result.requests)).toFixed(1);
  console.log(`\n${label}: ${result.requests} requests, CPU per request node ${result.cpu.nodeUs} µs + PostgreSQL ${result.cpu.pgUs} µs; profile ${file}`);
  console.log(`  sampled on-CPU ${summary.totalMs.toFixed(0)} ms (${perRequestUs(summary.totalMs)} µs a request)`);
  console.log('  by place (self ms, share, µs a request):');
  for (const [place, ms] of summary.byPlace) console.log(`  ${ms.toFixed(0).padStart(8)}  ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${perRequestUs(ms).padStart(7)}  ${place}`);
  console.log('  by function (self ms, share, µs a request):');
  for (const [name, ms] of summary.byFunction) console.log(`  ${ms.toFixed(0).padStart(8)}  ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${perRequestUs(ms).padStart(7)}  ${name}`);
}

/** CPU per call of `calls` sequential in-process requests (no socket): node user, node system, PostgreSQL. */
async function injected(server: BenchServer, label: string, calls: number, request: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < 200; i++) await request(i); // warm-up (JIT)
  const before = process.cpuUsage();
  const { nodeMs, pgMs } = await measureCpu(server, async () => {
    for (let i = 0; i < calls; i++) await request(i);
  });
  const used = process.cpuUsage(before);
  const per = (ms: number) => ((ms * 1000) / calls).toFixed(0);
  console.log(`  ${label}: ${per(nodeMs + pgMs)} µs a call = node ${per(nodeMs)} (user ${per(used.user / 1000)}, system ${per(used.system / 1000)}) + PostgreSQL ${per(pgMs)}`);
}

export default async function profile(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const server = await startNamedServer();
  const session = new Session();
  session.connect();
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench profile' });
    const apiKey = { authorization: created.apiKey, 'wix-site-id': created.site.siteId };
    // As in `bench -- cart`: three products, each shopper's cart holds all three, the load adds one.
    const productIds: string[] = [];
    for (const [name, price] of [['Mug', 14], ['Beans', 11.5], ['Tote', 18]] as const) {
      const res = await server.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey, payload: { product: { name, productType: 'physical', priceData: { price }, weight: 0.4 } } });
      if (res.statusCode !== 200) throw new Error(res.body);
      productIds.push((res.json() as { product: { id: string } }).product.id);
    }
    const line = (id: string) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId: id }, quantity: 1 });
    const addBody = { lineItems: [line(productIds[0])] };
    const shoppers = await Promise.all(Array.from({ length: WRITERS }, async () => {
      const grant = await server.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: created.clientId, grantType: 'anonymous' } });
      const token = (grant.json() as { access_token: string }).access_token;
      const added = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: token }, payload: { lineItems: productIds.map(line) } });
      if (added.statusCode !== 200) throw new Error(added.body);
      return token;
    }));
    const addUrl = `${server.url}/ecom/v1/carts/current/add-to-cart`;
    const bareUrl = `${server.url}${BARE_WRITE_ROUTE}`;
    await loadPerConnection(bareUrl, shoppers, { n: 1 }, 1); // warm-up (JIT)
    await loadPerConnection(addUrl, shoppers, addBody, 1);
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.enable');
    console.log(`npm run bench -- profile (${server.database}, ${WRITERS} connections, ${seconds} s each, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    await profiled(session, server, 'bare write', () => loadPerConnection(bareUrl, shoppers, { n: 1 }, seconds));
    await profiled(session, server, 'add-to-cart own carts', () => loadPerConnection(addUrl, shoppers, addBody, seconds));
    await session.post('Profiler.disable');
    const calls = Number(process.env.BENCH_CALLS ?? 2000);
    console.log(`\nwithout sockets (app.inject, ${calls} calls one at a time, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
    await injected(server, 'bare write', calls, async (i) => {
      const res = await server.app.inject({ method: 'POST', url: BARE_WRITE_ROUTE, headers: { authorization: shoppers[i % WRITERS] }, payload: { n: 1 } });
      if (res.statusCode !== 200) throw new Error(res.body);
    });
    await injected(server, 'add-to-cart own carts', calls, async (i) => {
      const res = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: shoppers[i % WRITERS] }, payload: addBody });
      if (res.statusCode !== 200) throw new Error(res.body);
    });
  } finally {
    session.disconnect();
    await server.close();
  }
}
