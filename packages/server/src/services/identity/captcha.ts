import type { CaptchaProvider } from '../../platform/config.js';
import { ApiError } from '../../platform/errors.js';

/** Checks captcha tokens sent with register and login. A real provider is a later step. */
export interface CaptchaVerifier {
  verify(tokens: readonly string[]): Promise<boolean>;
}

export const TEST_CAPTCHA_TOKEN = 'pass';

export function captchaVerifier(provider: CaptchaProvider): CaptchaVerifier | undefined {
  switch (provider) {
    case 'none':
      return undefined;
    case 'test':
      return { verify: async (tokens) => tokens.includes(TEST_CAPTCHA_TOKEN) };
  }
}

/** The token values of `captchaTokens: [{Recaptcha|InvisibleRecaptcha|NoCaptcha: token}]`. */
export function captchaTokenValues(captchaTokens: unknown): string[] {
  if (!Array.isArray(captchaTokens)) return [];
  const values: string[] = [];
  for (const entry of captchaTokens) {
    if (typeof entry !== 'object' || entry === null) continue;
    for (const value of Object.values(entry as Record<string, unknown>)) {
      if (typeof value === 'string' && value !== '') values.push(value);
    }
  }
  return values;
}

export const MISSING_CAPTCHA = '-19971';
export const INVALID_CAPTCHA = '-19970';

/** Throws -19971 (missing) or -19970 (invalid) when the site requires a captcha. */
export async function requireCaptcha(verifier: CaptchaVerifier | undefined, required: boolean, captchaTokens: unknown): Promise<void> {
  if (!required || !verifier) return;
  const tokens = captchaTokenValues(captchaTokens);
  if (tokens.length === 0) throw new ApiError(400, MISSING_CAPTCHA, 'A captcha token is required');
  if (!(await verifier.verify(tokens))) throw new ApiError(400, INVALID_CAPTCHA, 'The captcha token is invalid');
}
