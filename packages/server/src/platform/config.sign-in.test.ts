import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE, loadConfig } from './config.js';

describe('sign-in settings', () => {
  it('defaults to no captcha, the default rate limit and no sender', () => {
    expect(loadConfig({})).toMatchObject({ captchaProvider: 'none', authRateLimitPerMinute: DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE, mailFrom: undefined });
  });

  it('reads CAPTCHA_PROVIDER, AUTH_RATE_LIMIT_PER_MINUTE (0 turns it off) and MAIL_FROM', () => {
    expect(loadConfig({ CAPTCHA_PROVIDER: 'test', AUTH_RATE_LIMIT_PER_MINUTE: '0', MAIL_FROM: 'Shop <shop@example.com>' }))
      .toMatchObject({ captchaProvider: 'test', authRateLimitPerMinute: 0, mailFrom: 'Shop <shop@example.com>' });
  });

  it.each([
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, /CAPTCHA_PROVIDER must be one of none, test/],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: 'lots' }, /AUTH_RATE_LIMIT_PER_MINUTE must be a whole number/],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: '-1' }, /AUTH_RATE_LIMIT_PER_MINUTE/],
  ])('refuses %o with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
