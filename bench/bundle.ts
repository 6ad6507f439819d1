/**
 * First-load JavaScript and CSS per storefront page (`npm run bench -- bundle`; needs `npm run build`):
 * for each page, the entry chunk, its static imports, the page's own lazy chunk and its static
 * imports, as the browser fetches them before the page is interactive; bytes raw, gzip (level 9)
 * and brotli (the build's own .br files), against the budget (product ≤ 90 KB gzip, checkout ≤ 120 KB).
 * Each budgeted page's weight by package comes after, when the build has source maps (it has none
 * by default; `npx vite build --sourcemap` in apps/web writes them). The "before" column is the
 * figure of record before this session's changes (BEFORE says what it was measured on).
 * No server, no database, no timing: bytes only, the same on any machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { recordRows } from './lib.js';

/** The client build to read; BUNDLE_DIR measures another (a build written elsewhere while tests use dist/). */
const CLIENT = process.env.BUNDLE_DIR ? path.resolve(process.env.BUNDLE_DIR) + path.sep : fileURLToPath(new URL('../apps/web/dist/client/', import.meta.url));

interface Chunk { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] }

/**
 * The storefront's pages, by the source file of their lazy route; budgets in KB of gzip JavaScript.
 * `later`: bundles the page loads after its first view (the checkout's form, fetched with the
 * checkout's data; the product's reviews, after hydration; the gift card's "Other amount" field,
 * fetched once the shop says it takes custom amounts; the review form, for a signed-in member only),
 * printed in a column of their own so what the page costs in the end is in sight too (at most: the
 * "Other amount" field and the review form share react-hook-form and zod, counted once).
 */
const PAGES: { name: string; source: string; budgetKb?: number; beforeKb: number; later?: string[] }[] = [
  { name: 'home', source: 'src/storefront/HomePage.tsx', beforeKb: 106.0 },
  { name: 'listing', source: 'src/storefront/ListingPage.tsx', beforeKb: 106.5 },
  { name: 'product', source: 'src/storefront/ProductPage.tsx', budgetKb: 90, beforeKb: 150.0, later: ['src/storefront/Reviews.tsx', 'src/gift-cards/OtherAmount.tsx', 'src/storefront/ReviewEditor.tsx'] },
  { name: 'cart', source: 'src/cart/CartPage.tsx', beforeKb: 107.0 },
  { name: 'checkout', source: 'src/checkout/CheckoutPage.tsx', budgetKb: 120, beforeKb: 128.2, later: ['src/checkout/CheckoutForm.tsx'] },
];
/** What `beforeKb` was measured on. */
const BEFORE = 'before: 2026-11-27 15:20 UTC, main after session 9 (our router; the gift card\'s "Other amount" form, react-hook-form and zod, in every product page)';

interface Sizes { raw: number; gzip: number; brotli: number }

function sizesOf(file: string): Sizes {
  const full = path.join(CLIENT, file);
  const body = fs.readFileSync(full);
  const br = fs.existsSync(`${full}.br`) ? fs.statSync(`${full}.br`).size : zlib.brotliCompressSync(body).length;
  return { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length, brotli: br };
}

const add = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli });
const kb = (n: number) => (n / 1024).toFixed(1);

export default async function bundle(): Promise<void> {
  const manifestFile = path.join(CLIENT, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`npm run build\` first`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('the manifest names no entry');

  /** The chunk and everything it imports statically: what must arrive before it runs. */
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
    return seen;
  };
  const entry = closure(entryKey);
  const lines = [`\nnpm run bench -- bundle — first-load bytes per page (${path.relative(process.cwd(), CLIENT)})`,
    `${'page'.padEnd(10)}${'JS files'.padStart(9)}${'JS raw KB'.padStart(11)}${'JS gzip KB'.padStart(12)}${'before'.padStart(8)}${'JS br KB'.padStart(10)}${'CSS gzip KB'.padStart(13)}${'+ later KB'.padStart(12)}  budget (gzip JS)`];
  for (const page of PAGES) {
    const key = Object.keys(manifest).find((k) => k.endsWith(page.source));
    if (!key) throw new Error(`no chunk for ${page.source}`);
    const keys = closure(key, new Set(entry));
    const files = [...keys].map((k) => manifest[k].file);
    const js = files.filter((f) => f.endsWith('.js')).map(sizesOf).reduce(add, { raw: 0, gzip: 0, brotli: 0 });
    const css = [...new Set([...keys].flatMap((k) => manifest[k].css ?? []))].map(sizesOf).reduce(add, { raw: 0, gzip: 0, brotli: 0 });
    // The bundles loaded after the first view, beyond what the first load already brought.
    const laterKeys = (page.later ?? []).map((source) => {
      const found = Object.keys(manifest).find((k) => k.endsWith(source));
      if (!found) throw new Error(`no chunk for ${source}`);
      return found;
    });
    const laterFiles = [...new Set(laterKeys.flatMap((k) => [...closure(k, new Set(keys))].filter((x) => !keys.has(x))))].map((k) => manifest[k].file);
    const later = laterFiles.filter((f) => f.endsWith('.js')).map(sizesOf).reduce(add, { raw: 0, gzip: 0, brotli: 0 });
    const met = page.budgetKb === undefined ? '' : `≤ ${page.budgetKb} KB: ${js.gzip / 1024 <= page.budgetKb ? 'met' : 'NOT met'}`;
    lines.push(`${page.name.padEnd(10)}${String(files.filter((f) => f.endsWith('.js')).length).padStart(9)}${kb(js.raw).padStart(11)}${kb(js.gzip).padStart(12)}${page.beforeKb.toFixed(1).padStart(8)}${kb(js.brotli).padStart(10)}${kb(css.gzip).padStart(13)}${(page.later ? kb(later.gzip) : '').padStart(12)}  ${met}`);
    recordRows({ path: `first-load JS, ${page.name} page (gzip KB)`, unit: 'KB', rate: js.gzip / 1024, ...(page.budgetKb !== undefined && { aim: { atMost: page.budgetKb } }) });
  }

  lines.push(`(${BEFORE}; "+ later": bundles fetched after the first view, see PAGES; the inline bootstrap script, which holds the page's data, is not in these files: \`npm run bench -- web\` adds it)`);
  // The chunks the product page loads, heaviest first.
  const productKey = Object.keys(manifest).find((k) => k.endsWith('src/storefront/ProductPage.tsx')) ?? '';
  lines.push('product page chunks (gzip KB):');
  for (const file of [...closure(productKey, new Set(entry))].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'))
    .map((f) => [f, sizesOf(f).gzip] as const).sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${kb(file[1]).padStart(7)}  ${file[0]}`);
  }
  for (const page of PAGES.filter((p) => p.budgetKb !== undefined)) {
    const key = Object.keys(manifest).find((k) => k.endsWith(page.source)) ?? '';
    lines.push(...packagesOf(page.name, [...closure(key, new Set(entry))].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'))));
  }
  console.log(lines.join('\n'));
}

/** With BUNDLE_BY=file, the weight by source file instead of by package (which file of the SDK, of the app…). */
const BY_FILE = process.env.BUNDLE_BY === 'file';

/** A page's first-load bytes by package, read from its chunks' source maps (VLQ mappings), when the build has them. */
function packagesOf(page: string, files: string[]): string[] {
  const text = new Map<string, string>();
  if (!files.some((file) => fs.existsSync(path.join(CLIENT, `${file}.map`)))) {
    return [`(no source maps: the ${page} page's weight by package needs \`npx vite build --sourcemap\` in apps/web)`];
  }
  for (const file of files) {
    const full = path.join(CLIENT, file);
    // A chunk the bundler writes without a map (its own runtime) counts under its file name.
    if (fs.existsSync(`${full}.map`)) textByPackage(full, text);
    else text.set(`(${path.basename(file).replace(/-[\w-]+\.js$/, '')}, no map)`, fs.readFileSync(full, 'utf8'));
  }
  return [`${page} page's first-load JS by package (gzip KB of each part alone):`,
    ...[...text].map(([name, t]) => [name, zlib.gzipSync(t, { level: 9 }).length] as const).sort((a, b) => b[1] - a[1]).slice(0, BY_FILE ? 60 : 14)
      .map(([name, gzip]) => `  ${kb(gzip).padStart(7)}  ${name}`)];
}

/** Adds one chunk's code to `text`, by the package (or app folder) each piece comes from. */
function textByPackage(full: string, text: Map<string, string>): void {
  const code = fs.readFileSync(full, 'utf8').split('\n');
  const map = JSON.parse(fs.readFileSync(`${full}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let source = 0;
  map.mappings.split(';').forEach((line, lineIndex) => {
    let column = 0;
    const segments: [number, number][] = [];
    for (const segment of line.split(',').filter(Boolean)) {
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) source += values[1];
      segments.push([column, values.length > 1 ? source : -1]);
    }
    const lineText = code[lineIndex] ?? '';
    segments.forEach(([start, s], i) => {
      const name = s < 0 ? '(unmapped)' : BY_FILE ? map.sources[s].replace(/^(\.\.\/)+/, '').replace(/.*node_modules\//, '') : map.sources[s].replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1').replace(/.*\/(packages\/sdk)\/.*/, '$1').replace(/.*\/apps\/web\/src\/([^/]+).*/, 'apps/web/src/$1').replace(/^(\.\.\/)*src\/([^/]+).*/, 'apps/web/src/$2');
      text.set(name, (text.get(name) ?? '') + lineText.slice(start, i + 1 < segments.length ? segments[i + 1][0] : lineText.length));
    });
  });
}
