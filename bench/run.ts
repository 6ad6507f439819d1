/**
 * `npm run bench -- <name>`: runs bench/<name>.ts, whose default export does one benchmark, then
 * prints the rows it recorded (lib.ts) as the bench table.
 * `npm run bench -- all`: every load bench in turn, each in a process of its own (so each one's
 * peak RSS is its own), then ONE table of all their rows.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { collected, printTable, recordPeakRss, recordRows, selfPeakRssMb, setCurrentBench, type BenchRow, type PeakRss } from './lib.js';

/** What `all` runs, in this order; web (a browser budget) and soak (minutes long) run on their own. */
const ALL = ['tokens', 'auth', 'cart', 'members', 'data', 'webhooks', 'memory'];
const ROWS_FILE_ENV = 'BENCH_ROWS_FILE';

const name = process.argv[2];
const here = fileURLToPath(new URL('.', import.meta.url));
// Servers seal stored secrets with BODEGA_SECRET_KEY (required on PostgreSQL); a bench run makes one
// for itself and the servers it starts, unless the caller set one.
process.env.BODEGA_SECRET_KEY ??= randomBytes(32).toString('hex');
const available = fs.readdirSync(here).filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f)).map((f) => f.replace(/\.ts$/, ''));

if (!name || (name !== 'all' && !available.includes(name))) {
  console.error(`usage: npm run bench -- <all|${available.join('|')}>   (DATABASE_URL=postgres://… to measure on PostgreSQL)`);
  process.exit(name ? 1 : 0);
}

if (name === 'all') {
  const rows: BenchRow[] = [];
  const peaks: PeakRss[] = [];
  const failed: string[] = [];
  const started = `${new Date().toISOString()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;
  for (const bench of ALL.filter((b) => available.includes(b))) {
    console.log(`\n=== npm run bench -- ${bench}`);
    const out = path.join(os.tmpdir(), `bodega-bench-${process.pid}-${bench}.json`);
    const { ok, printed } = await new Promise<{ ok: boolean; printed: string }>((resolve) => {
      const child = execFile(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), bench, ...process.argv.slice(3)], {
        env: { ...process.env, [ROWS_FILE_ENV]: out },
        maxBuffer: 64 * 1024 * 1024,
      }, (error, stdout) => resolve({ ok: !error, printed: String(stdout) }));
      child.stdout?.pipe(process.stdout);
      child.stderr?.pipe(process.stderr);
    });
    const result = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as { rows: BenchRow[]; peaks: PeakRss[] }) : { rows: [], peaks: [] };
    fs.rmSync(out, { force: true });
    rows.push(...result.rows);
    peaks.push(...result.peaks);
    // A bench that records no rows (lib.ts recordRows/printResults) still shows here: the lines it
    // printed with a ratio or a rate, as they are.
    if (result.rows.length === 0) {
      const lines = printed.split('\n').map((l) => l.trim()).filter((l) => /ratio|items\/s|req\/s|events\/s/i.test(l));
      for (const line of lines) rows.push({ bench, path: line.length > 120 ? `${line.slice(0, 117)}…` : line, unit: 'req/s' });
      if (lines.length === 0) rows.push({ bench, path: ok ? '(printed above; records no rows)' : '(failed; see above)', unit: 'req/s' });
    }
    if (!ok) failed.push(bench);
  }
  console.log(`\nnpm run bench -- all — ${process.env.DATABASE_URL ? `PostgreSQL (${new URL(process.env.DATABASE_URL).host})` : 'embedded PGlite'}, ` +
    `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; started ${started}, ended load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  printTable(rows, peaks);
  if (failed.length) console.log(`failed: ${failed.join(', ')} (their rows above, if any, are partial)`);
  process.exit(failed.length ? 1 : 0);
}

setCurrentBench(name);
const bench = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void | Omit<BenchRow, 'bench'>[]> };
let failure: unknown;
try {
  const returned = await bench.default(process.argv.slice(3));
  if (Array.isArray(returned)) recordRows(...returned);
} catch (error) {
  failure = error;
}
// This process: the bench's code and fixtures under tsx plus its in-process server (autocannon
// runs in child processes, not counted). A worker's own figure is the memory bench's.
recordPeakRss('bench process', selfPeakRssMb());
const result = collected();
const rowsFile = process.env[ROWS_FILE_ENV];
if (rowsFile) fs.writeFileSync(rowsFile, JSON.stringify(result));
else if (result.rows.length) {
  console.log('');
  printTable(result.rows, result.peaks);
}
if (failure) {
  console.error(failure);
  process.exit(1);
}
process.exit(0);
