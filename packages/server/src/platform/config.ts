import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** Who checks sign-in captcha tokens: nobody, or the test provider that accepts the token `pass`. */
export type CaptchaProvider = 'none' | 'test';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  logLevel: LogLevel;
  /** Built web app served at `/`; absent in tests that only need the API. */
  webDir: string | undefined;
  captchaProvider: CaptchaProvider;
  /** Requests per minute one IP may make to each register, login and recovery call; 0 turns it off. */
  authRateLimitPerMinute: number;
  /** Sender of the server's e-mails; defaults to no-reply at the PUBLIC_URL host. */
  mailFrom: string | undefined;
  /** The site page requests get when their Host names no site; else the demo site, else the first. */
  defaultSiteId: string | undefined;
}

export class ConfigError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const CAPTCHA_PROVIDERS: readonly CaptchaProvider[] = ['none', 'test'];
export const DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE = 30;

/** Reads and validates the environment; throws ConfigError with one clear line on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: { webDir?: string } = {}): Config {
  const port = parsePort(env.PORT);
  const host = nonEmpty('HOST', env.HOST) ?? '0.0.0.0';
  const dataDir = path.resolve(nonEmpty('DATA_DIR', env.DATA_DIR) ?? './.bodega');
  const databaseUrl = optionalUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const publicUrl = (optionalUrl('PUBLIC_URL', env.PUBLIC_URL, ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const smtpUrl = optionalUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']);
  const logLevel = (nonEmpty('LOG_LEVEL', env.LOG_LEVEL) ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }
  const captchaProvider = (nonEmpty('CAPTCHA_PROVIDER', env.CAPTCHA_PROVIDER) ?? 'none') as CaptchaProvider;
  if (!CAPTCHA_PROVIDERS.includes(captchaProvider)) {
    throw new ConfigError(`CAPTCHA_PROVIDER must be one of ${CAPTCHA_PROVIDERS.join(', ')} (got "${env.CAPTCHA_PROVIDER}")`);
  }
  const rateLimit = nonEmpty('AUTH_RATE_LIMIT_PER_MINUTE', env.AUTH_RATE_LIMIT_PER_MINUTE);
  if (rateLimit !== undefined && !/^\d{1,6}$/.test(rateLimit)) {
    throw new ConfigError(`AUTH_RATE_LIMIT_PER_MINUTE must be a whole number, 0 to turn it off (got "${rateLimit}")`);
  }
  const authRateLimitPerMinute = rateLimit === undefined ? DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE : Number(rateLimit);
  const mailFrom = nonEmpty('MAIL_FROM', env.MAIL_FROM);
  const defaultSiteId = nonEmpty('DEFAULT_SITE_ID', env.DEFAULT_SITE_ID);
  return {
    port, host, dataDir, databaseUrl, publicUrl, smtpUrl, logLevel, webDir: defaults.webDir,
    captchaProvider, authRateLimitPerMinute, mailFrom, defaultSiteId,
  };
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new ConfigError(`${name} is set but empty`);
  return value.trim();
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535 (got "${value}")`);
  }
  return Number(value);
}

function optionalUrl(name: string, value: string | undefined, protocols: string[]): string | undefined {
  const text = nonEmpty(name, value);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')} (got ${url.protocol}//)`);
  }
  return text;
}
