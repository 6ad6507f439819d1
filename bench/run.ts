/** `npm run bench -- <name>`: runs bench/<name>.ts, whose default export does one benchmark. */
import fs from 'node:fs';

const name = process.argv[2];
const available = fs.readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f)).map((f) => f.replace(/\.ts$/, ''));

if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}>   (DATABASE_URL=postgres://… to measure on PostgreSQL)`);
  process.exit(name ? 1 : 0);
}
const bench = (await import(`./${name}.ts`)) as { default: (args: string[]) => Promise<void> };
await bench.default(process.argv.slice(3));
process.exit(0);
