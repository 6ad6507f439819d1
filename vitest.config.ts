import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'packages/sdk/integration/**/*.test.ts', 'e2e/**/*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // The server key that seals stored secrets (platform/secrets.ts); the servers and CLIs tests
    // start inherit it, as a real deployment's servers share one.
    // BODEGA_CHECK_RESPONSES: every answer written through a response schema is compared with
    // JSON.stringify's, so a schema that drops or coerces a field fails the test (platform/serialization.ts).
    env: { BODEGA_CHECK_RESPONSES: process.env.BODEGA_CHECK_RESPONSES ?? '1', BODEGA_SECRET_KEY: process.env.BODEGA_SECRET_KEY ?? '6b5f0c7e2d9a4e1f8b3c6a0d5e2f9b4c7a1d8e3f6b0c9a2d5e8f1b4c7a0d3e6f' },
  },
});
