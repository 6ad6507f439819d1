/** The built server as its own process, for tests that kill, signal or restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MAIN = path.join(ROOT, 'packages/server/dist/main.js');

export interface Started { child: ChildProcess; base: string; exited: Promise<number | null>; output: () => string }

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = (server.address() as net.AddressInfo);
      server.close(() => resolve(port));
    });
  });
}

/** Starts `main.js` with this environment (PORT and HOST included), without waiting for it. */
export function spawnBuiltServer(env: NodeJS.ProcessEnv, port: number): Started {
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, base: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Starts `main.js` with this environment (PORT and HOST included) and waits until /readyz answers 200. */
export async function startBuiltServer(env: NodeJS.ProcessEnv, port: number): Promise<Started> {
  const started = spawnBuiltServer(env, port);
  const until = Date.now() + 60_000;
  for (;;) {
    if (await fetch(`${started.base}/readyz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until || started.child.exitCode !== null) throw new Error(`server did not become ready: ${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return started;
}
