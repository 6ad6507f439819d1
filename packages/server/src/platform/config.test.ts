import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./.bodega'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      logLevel: 'info',
    });
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example/' }).publicUrl).toBe('https://shop.example');
  });

  it('accepts every setting', () => {
    const config = loadConfig({
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u:p@localhost:5432/db',
      SMTP_URL: 'smtp://localhost:2525', LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({ port: 0, host: '127.0.0.1', dataDir: '/tmp/x', databaseUrl: 'postgres://u:p@localhost:5432/db', smtpUrl: 'smtp://localhost:2525', logLevel: 'warn' });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: '-1' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must start with http/],
    [{ SMTP_URL: 'http://x' }, /SMTP_URL must start with smtp/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ HOST: ' ' }, /HOST is set but empty/],
  ])('refuses %o with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
