import { describe, expect, it } from 'vitest';
import { WORKER_MAX_OLD_SPACE_MB, WORKER_MAX_SEMI_SPACE_MB, workerExecArgv } from './cluster.js';

const CAP = [`--max-old-space-size=${WORKER_MAX_OLD_SPACE_MB}`, `--max-semi-space-size=${WORKER_MAX_SEMI_SPACE_MB}`];

describe('workerExecArgv', () => {
  it('adds the heap sizes to the primary flags when none was given', () => {
    expect(workerExecArgv(['--enable-source-maps'], undefined)).toEqual(['--enable-source-maps', ...CAP]);
    expect(workerExecArgv([], '--trace-warnings')).toEqual(CAP);
  });

  it("keeps the operator's own cap, from NODE_OPTIONS or the command line", () => {
    expect(workerExecArgv([], '--trace-warnings --max-old-space-size=1024')).toEqual([]);
    expect(workerExecArgv(['--max_old_space_size=512'], undefined)).toEqual(['--max_old_space_size=512']);
  });

  it("keeps the operator's own semi-space with the default cap", () => {
    expect(workerExecArgv([], '--max-semi-space-size=4')).toEqual([`--max-old-space-size=${WORKER_MAX_OLD_SPACE_MB}`]);
  });
});
