// After `vite build`: writes a brotli (.br) and a gzip (.gz) sibling of every text asset of the
// browser build, at the highest levels (paid once here, never per request). The server sends them
// in place of the file to clients that accept them. Files that would not shrink get none.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const DIR = path.resolve(process.argv[2] ?? 'dist/client');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (TEXT.test(entry.name) && file !== path.join(DIR, 'index.html')) yield file; // the template is never served as it is
  }
}

let raw = 0;
let br = 0;
let gz = 0;
await Promise.all([...files(DIR)].map(async (file) => {
  const source = fs.readFileSync(file);
  const [b, g] = await Promise.all([
    brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
    gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  raw += source.length;
  if (b.length < source.length) (fs.writeFileSync(`${file}.br`, b), (br += b.length));
  if (g.length < source.length) (fs.writeFileSync(`${file}.gz`, g), (gz += g.length));
}));
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
process.stdout.write(`precompressed ${path.relative(process.cwd(), DIR)}: ${kb(raw)} → brotli ${kb(br)}, gzip ${kb(gz)}\n`);
