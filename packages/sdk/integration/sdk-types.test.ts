import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND, GENERATED_DIR, renderSdkTypes } from './gen-sdk-types.js';

describe("the SDK's generated types", () => {
  it('are current with the server response schemas', () => {
    const expected = renderSdkTypes();
    const onDisk = readdirSync(GENERATED_DIR).filter((f) => f.endsWith('.ts'));
    const stale = [...expected].filter(([file, text]) => !onDisk.includes(file) || readFileSync(GENERATED_DIR + file, 'utf8') !== text).map(([file]) => file);
    const extra = onDisk.filter((file) => !expected.has(file));
    expect([...stale, ...extra], `packages/sdk/src/generated/ is not current: run \`${COMMAND}\``).toEqual([]);
  });
});
