// DATA_DIR holds password hashes and each site's signing secrets: only the user Bodega runs as may
// read or write it. Entry points set `umask(0o077)` (PRIVATE_UMASK), so everything created inside —
// PGlite's own files too — is 0600/0700; files an older Bodega left open are tightened at start.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';

/** The process umask of the server and the CLI: new files 0600, new directories 0700. */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/**
 * Creates DATA_DIR 0700, or checks an existing one: it must be a directory of this user that no
 * other user may read or write (else a ConfigError with the command that fixes it). Then tightens
 * any file or directory inside that others could open.
 */
export function secureDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
    fs.chmodSync(dataDir, PRIVATE_DIR);
    return;
  }
  const stat = fs.statSync(dataDir);
  if (!stat.isDirectory()) throw new ConfigError(`DATA_DIR ${dataDir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new ConfigError(`DATA_DIR ${dataDir} belongs to another user (uid ${stat.uid}); run Bodega as that user or give it a directory of its own`);
  }
  // Writable by others: someone else may have changed what is in it, so it is not ours to trust.
  if ((stat.mode & 0o022) !== 0) {
    throw new ConfigError(`DATA_DIR ${dataDir} is writable by other users (mode ${(stat.mode & 0o777).toString(8)}); check what is in it, run \`chmod 700 ${dataDir}\` and start again`);
  }
  // Only readable by others (a directory an older version made 0755): ours, so closed now.
  if ((stat.mode & 0o077) !== 0) {
    process.emitWarning(`DATA_DIR ${dataDir} was readable by other users (mode ${(stat.mode & 0o777).toString(8)}); it is now 700`);
    fs.chmodSync(dataDir, PRIVATE_DIR);
  }
  tighten(dataDir);
}

/**
 * Takes group and other access off everything under `dir` (symbolic links are left alone). PGlite
 * writes the files of a new or restored cluster 0666 whatever the umask (what PostgreSQL itself
 * creates later is 0600), so this runs after those too.
 */
export function tighten(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(dir, entry.name);
    const mode = fs.lstatSync(full).mode;
    if ((mode & 0o077) !== 0) fs.chmodSync(full, mode & 0o700);
    if (entry.isDirectory()) tighten(full);
  }
}

/** Writes a file only its owner may read, also where one already existed with a looser mode. */
export function writePrivateFile(file: string, data: string | Buffer, flag = 'w'): void {
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE, flag });
  fs.chmodSync(file, PRIVATE_FILE);
}
