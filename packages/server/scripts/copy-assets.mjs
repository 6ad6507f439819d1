// tsc emits only JavaScript; the SQL migrations ship beside it.
import { cpSync } from 'node:fs';
cpSync(new URL('../src/platform/migrations', import.meta.url), new URL('../dist/platform/migrations', import.meta.url), { recursive: true });
