/**
 * Custom field values checked against their definitions (pure). TEXT takes text, NUMBER a number
 * (or numeric text), DATE a calendar date "YYYY-MM-DD", URL an http(s) address, SOCIAL an http(s)
 * address on the definition's network. An empty value ("" or null) clears the field.
 */
import type { FieldViolation } from '../../platform/errors.js';
import type { CustomFieldDefinition, CustomFieldValue, SocialNetwork } from './model.js';

export const TEXT_VALUE_MAX_LENGTH = 2000;
export const URL_MAX_LENGTH = 2048;

/** Hosts (and their subdomains) each network's links live on; OTHER takes any. */
export const SOCIAL_HOSTS: Record<Exclude<SocialNetwork, 'OTHER'>, readonly string[]> = {
  FACEBOOK: ['facebook.com', 'fb.com', 'fb.me'],
  INSTAGRAM: ['instagram.com', 'instagr.am'],
  LINKEDIN: ['linkedin.com', 'lnkd.in'],
  TWITTER: ['twitter.com', 'x.com'],
  YOUTUBE: ['youtube.com', 'youtu.be'],
  PINTEREST: ['pinterest.com', 'pin.it'],
  TIKTOK: ['tiktok.com'],
  DEVIANTART: ['deviantart.com'],
  SOUNDCLOUD: ['soundcloud.com'],
  TUMBLR: ['tumblr.com'],
  VIMEO: ['vimeo.com'],
  VKONTAKTE: ['vk.com', 'vkontakte.ru'],
  ODNOKLASSNIKI: ['ok.ru', 'odnoklassniki.ru'],
};

export function isHttpUrl(text: string): boolean {
  if (text.length > URL_MAX_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function isSocialUrl(text: string, network: SocialNetwork | null): boolean {
  if (!isHttpUrl(text)) return false;
  if (!network || network === 'OTHER') return true;
  const host = new URL(text).hostname.toLowerCase().replace(/\.$/, '');
  return SOCIAL_HOSTS[network].some((h) => host === h || host.endsWith(`.${h}`));
}

/** A real calendar date "YYYY-MM-DD" (an ISO date-time is cut to its date). */
export function normaliseDate(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  return `${y}-${m}-${d}`;
}

export interface CheckedValues {
  /** null: clear the value. */
  values: Record<string, CustomFieldValue | null>;
  violations: FieldViolation[];
  /** Keys whose URL is not valid for the field (the official INVALID_CUSTOM_FIELD_URL error). */
  invalidUrls: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `input`: the wire's `contact.customFields`, `{ key: { name?, value } }`. */
export function checkCustomFieldValues(
  input: Record<string, unknown>,
  definitions: ReadonlyMap<string, CustomFieldDefinition>,
  fieldPath = 'member.contact.customFields',
): CheckedValues {
  const checked: CheckedValues = { values: {}, violations: [], invalidUrls: {} };
  for (const [key, entry] of Object.entries(input)) {
    const field = `${fieldPath}.${key}`;
    const definition = definitions.get(key);
    if (!definition || definition.origin !== 'CUSTOM') {
      checked.violations.push({ field, rule: 'FIELD_NOT_ALLOWED', description: `no custom field has the key "${key}"` });
      continue;
    }
    if (!isRecord(entry) || !('value' in entry)) {
      checked.violations.push({ field, rule: 'VALIDATION', description: 'must be an object with a value' });
      continue;
    }
    const value = entry.value;
    if (value === null || value === '') {
      checked.values[key] = null;
      continue;
    }
    const result = checkOne(definition, value);
    if (result.ok) checked.values[key] = result.value;
    else if (result.url) checked.invalidUrls[key] = result.url;
    else checked.violations.push({ field: `${field}.value`, rule: result.rule, description: result.description });
  }
  return checked;
}

type OneResult =
  | { ok: true; value: CustomFieldValue }
  | { ok: false; url?: string; rule: FieldViolation['rule']; description: string };

function checkOne(definition: CustomFieldDefinition, value: unknown): OneResult {
  switch (definition.fieldType) {
    case 'TEXT':
      if (typeof value !== 'string') return { ok: false, rule: 'VALIDATION', description: 'must be text' };
      if (value.length > TEXT_VALUE_MAX_LENGTH) return { ok: false, rule: 'MAX_LENGTH', description: `at most ${TEXT_VALUE_MAX_LENGTH} characters` };
      return { ok: true, value };
    case 'NUMBER': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { ok: false, rule: 'VALIDATION', description: 'must be a number' };
      return { ok: true, value: n };
    }
    case 'DATE': {
      const date = typeof value === 'string' ? normaliseDate(value) : undefined;
      if (!date) return { ok: false, rule: 'FORMAT', description: 'must be a date "YYYY-MM-DD"' };
      return { ok: true, value: date };
    }
    case 'URL':
      if (typeof value !== 'string') return { ok: false, rule: 'VALIDATION', description: 'must be a URL' };
      return isHttpUrl(value) ? { ok: true, value } : { ok: false, url: value, rule: 'FORMAT', description: 'must be an http(s) URL' };
    case 'SOCIAL':
      if (typeof value !== 'string') return { ok: false, rule: 'VALIDATION', description: 'must be a URL' };
      return isSocialUrl(value, definition.socialType)
        ? { ok: true, value }
        : { ok: false, url: value, rule: 'FORMAT', description: `must be a link on ${definition.socialType ?? 'the network'}` };
  }
}
