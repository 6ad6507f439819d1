// First-load JavaScript of a route after `npm run build`: the entry chunk plus every chunk the
// route's lazy modules import statically (what the browser fetches before the page shows).
// Usage: node apps/web/scripts/first-load.mjs AdminLayout DashboardPage   (chunk name prefixes)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../dist/client', import.meta.url));
const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
if (!entry) throw new Error('No entry script in dist/client/index.html: run npm run build first');
const files = fs.readdirSync(path.join(dir, 'assets'));
const seen = new Set();
function visit(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const source = fs.readFileSync(path.join(dir, 'assets', file), 'utf8');
  for (const m of source.matchAll(/(?:import|from)\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]);
}
visit(entry);
for (const name of process.argv.slice(2)) {
  const file = files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'));
  if (!file) throw new Error(`No chunk named ${name}`);
  visit(file);
}
let raw = 0;
let gzip = 0;
for (const file of seen) {
  const bytes = fs.readFileSync(path.join(dir, 'assets', file));
  raw += bytes.length;
  gzip += zlib.gzipSync(bytes).length;
}
console.log(`${seen.size} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip`);
