// `npm start`: build only what is missing or older than its sources, then run the built server
// in this process (signals reach it directly). A restart on a built tree compiles nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const at = (p) => path.join(root, p);

/** Newest modification time under the given files and folders (0 when none exist). */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') visit(path.join(p, name));
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  };
  paths.forEach((p) => visit(at(p)));
  return latest;
}

function builtAt(file) {
  try {
    return fs.statSync(at(file)).mtimeMs;
  } catch {
    return -1;
  }
}

const parts = [
  { workspace: '@bodega/server', output: 'packages/server/dist/main.js', sources: ['packages/server/src', 'packages/server/tsconfig.json', 'packages/server/tsconfig.build.json', 'packages/server/scripts/copy-assets.mjs'] },
  { workspace: '@bodega/web', output: 'apps/web/dist/index.html', sources: ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/sdk/src'] },
];

for (const part of parts) {
  if (builtAt(part.output) >= newest(part.sources)) continue;
  process.stdout.write(`bodega: building ${part.workspace} (the build is missing or older than its sources)\n`);
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  execFileSync(npm[0], [...npm[1], 'run', 'build', '--workspace', part.workspace], { cwd: root, stdio: 'inherit' });
}

await import(at('packages/server/dist/main.js'));
