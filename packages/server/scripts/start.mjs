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
  { workspace: '@bodega/server', outputs: ['packages/server/dist/main.js'], sources: ['packages/server/src', 'packages/server/tsconfig.json', 'packages/server/tsconfig.build.json', 'packages/server/scripts/copy-assets.mjs'] },
  // The web build writes the browser bundle with the page template (dist/client) and the server
  // renderer (dist/server): both must be there and newer than every source.
  { workspace: '@bodega/web', outputs: ['apps/web/dist/client/index.html', 'apps/web/dist/server/entry-server.js'], sources: ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/scripts', 'packages/sdk/src'] },
];

for (const part of parts) {
  const built = Math.min(...part.outputs.map(builtAt));
  if (built >= newest(part.sources)) continue;
  process.stdout.write(`bodega: building ${part.workspace} (the build is missing or older than its sources)\n`);
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  try {
    execFileSync(npm[0], [...npm[1], 'run', 'build', '--workspace', part.workspace], { cwd: root, stdio: 'inherit' });
  } catch {
    // The build printed its own errors above; one line more says what it means.
    process.stderr.write(`bodega: the ${part.workspace} build failed; not starting (run \`npm install\` if a dependency is missing)\n`);
    process.exit(1);
  }
}

await import(at('packages/server/dist/main.js'));
