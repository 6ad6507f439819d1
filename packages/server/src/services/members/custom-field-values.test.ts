import { describe, expect, it } from 'vitest';
import { checkCustomFieldValues, isSocialUrl, normaliseDate } from './custom-field-values.js';
import type { CustomFieldDefinition, CustomFieldType, SocialNetwork } from './model.js';

function field(key: string, fieldType: CustomFieldType, socialType: SocialNetwork | null = null, origin: CustomFieldDefinition['origin'] = 'CUSTOM'): CustomFieldDefinition {
  const now = new Date(0);
  return { fieldId: key, key, name: key, fieldType, socialType, origin, visibility: 'PUBLIC', section: 'GENERAL', position: 0, hidden: false, revision: 1, createdAt: now, updatedAt: now };
}

const definitions = new Map([
  ['text', field('text', 'TEXT')], ['num', field('num', 'NUMBER')], ['date', field('date', 'DATE')], ['url', field('url', 'URL')],
  ['fb', field('fb', 'SOCIAL', 'FACEBOOK')], ['other', field('other', 'SOCIAL', 'OTHER')], ['firstName', field('firstName', 'TEXT', null, 'SYSTEM')],
]);

describe('custom field values by type', () => {
  it.each([
    ['text', 'hello', 'hello'], ['num', 42, 42], ['num', '3.5', 3.5], ['date', '2024-02-29', '2024-02-29'],
    ['date', '2024-02-29T10:00:00Z', '2024-02-29'], ['url', 'https://example.com/x', 'https://example.com/x'],
    ['fb', 'https://www.facebook.com/ann', 'https://www.facebook.com/ann'], ['other', 'https://mastodon.social/@ann', 'https://mastodon.social/@ann'],
    ['text', '', null], ['num', null, null],
  ])('%s takes %j as %j', (key, value, stored) => {
    expect(checkCustomFieldValues({ [key]: { value } }, definitions)).toEqual({ values: { [key]: stored }, violations: [], invalidUrls: {} });
  });

  it.each([
    ['text', 5, 'VALIDATION'], ['num', 'ten', 'VALIDATION'], ['num', Infinity, 'VALIDATION'], ['date', '2023-02-29', 'FORMAT'],
    ['date', 'tomorrow', 'FORMAT'], ['text', 'x'.repeat(2001), 'MAX_LENGTH'], ['missing', 'x', 'FIELD_NOT_ALLOWED'], ['firstName', 'x', 'FIELD_NOT_ALLOWED'],
  ])('%s refuses %j (%s)', (key, value, rule) => {
    const checked = checkCustomFieldValues({ [key]: { value } }, definitions);
    expect(checked.violations.map((v) => v.rule)).toEqual([rule]);
  });

  it('reports bad URLs separately, as the official INVALID_CUSTOM_FIELD_URL error does', () => {
    const checked = checkCustomFieldValues({ url: { value: 'javascript:alert(1)' }, fb: { value: 'https://twitter.com/ann' } }, definitions);
    expect(checked.invalidUrls).toEqual({ url: 'javascript:alert(1)', fb: 'https://twitter.com/ann' });
  });

  it('refuses an entry without a value', () => {
    expect(checkCustomFieldValues({ text: 'bare' }, definitions).violations[0]).toMatchObject({ field: 'member.contact.customFields.text', rule: 'VALIDATION' });
  });

  it('knows each network by its hosts', () => {
    expect(isSocialUrl('https://x.com/ann', 'TWITTER')).toBe(true);
    expect(isSocialUrl('https://evilfacebook.com/ann', 'FACEBOOK')).toBe(false);
    expect(isSocialUrl('https://m.youtube.com/@ann', 'YOUTUBE')).toBe(true);
    expect(isSocialUrl('ftp://vk.com/ann', 'VKONTAKTE')).toBe(false);
    expect(normaliseDate('2024-13-01')).toBeUndefined();
  });
});
