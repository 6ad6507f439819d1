import { describe, expect, it } from 'vitest';
import { WORKER_MAX_OLD_SPACE_MB, workerExecArgv } from './cluster.js';

describe('workerExecArgv', () => {
  it('adds the heap cap to the primary flags when none was given', () => {
    expect(workerExecArgv(['--enable-source-maps'], undefined)).toEqual(['--enable-source-maps', `--max-old-space-size=${WORKER_MAX_OLD_SPACE_MB}`]);
    expect(workerExecArgv([], '--trace-warnings')).toEqual([`--max-old-space-size=${WORKER_MAX_OLD_SPACE_MB}`]);
  });

  it("keeps the operator's own cap, from NODE_OPTIONS or the command line", () => {
    expect(workerExecArgv([], '--trace-warnings --max-old-space-size=1024')).toEqual([]);
    expect(workerExecArgv(['--max_old_space_size=512'], undefined)).toEqual(['--max_old_space_size=512']);
  });
});
