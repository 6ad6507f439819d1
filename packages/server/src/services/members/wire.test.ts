import { describe, expect, it } from 'vitest';
import type { CustomFieldDefinition, Member } from './model.js';
import { applyPatch, memberPatchFromWire, toWireMember } from './wire.js';

const at = new Date('2024-05-01T10:00:00.000Z');
const member: Member = {
  memberId: 'm-1', loginEmail: 'a@b.co', status: 'APPROVED', role: 'MEMBER', privacyStatus: 'PUBLIC', activityStatus: 'MUTED', slug: 'nick',
  profile: { nickname: 'nick', photo: { id: 'p', url: 'https://x', height: 1, width: 1 } },
  contact: {
    firstName: 'A', phones: [{ phone: '+1 555', tag: 'MOBILE' }], emails: [{ email: 'a@b.co', tag: 'MAIN' }],
    addresses: [{ id: 'ad', tag: 'HOME', city: 'Rome' }], customFields: { 'custom.age': 30, 'custom.secret': 'x', orphan: 'gone' },
  },
  createdAt: at, updatedAt: at, lastLoginAt: at,
};
const def = (key: string, visibility: 'PUBLIC' | 'PRIVATE'): CustomFieldDefinition => ({
  fieldId: key, key, name: key.toUpperCase(), fieldType: 'TEXT', socialType: null, origin: 'CUSTOM', visibility, section: 'GENERAL', position: 0, hidden: false, revision: 1, createdAt: at, updatedAt: at,
});
const definitions = new Map([['custom.age', def('custom.age', 'PUBLIC')], ['custom.secret', def('custom.secret', 'PRIVATE')]]);

describe('the wire member', () => {
  it('PUBLIC holds id, contactId, dates and profile, with statuses UNKNOWN', () => {
    expect(toWireMember(member, { level: 'PUBLIC', publicCustomFieldsOnly: false, role: false }, definitions)).toEqual({
      id: 'm-1', contactId: 'm-1', status: 'UNKNOWN', privacyStatus: 'UNKNOWN', activityStatus: 'UNKNOWN',
      profile: { nickname: 'nick', slug: 'nick', photo: { id: 'p', url: 'https://x', height: 1, width: 1 } },
      createdDate: '2024-05-01T10:00:00.000Z', updatedDate: '2024-05-01T10:00:00.000Z',
    });
  });
  it('EXTENDED adds the login e-mail and the statuses', () => {
    expect(toWireMember(member, { level: 'EXTENDED', publicCustomFieldsOnly: false, role: false }, definitions))
      .toMatchObject({ loginEmail: 'a@b.co', status: 'APPROVED', privacyStatus: 'PUBLIC', activityStatus: 'MUTED' });
  });
  it('FULL adds contact (strings for phones and e-mails, tags beside), last login and role', () => {
    const wire = toWireMember(member, { level: 'FULL', publicCustomFieldsOnly: false, role: true }, definitions);
    expect(wire.contact).toEqual({
      firstName: 'A', phones: ['+1 555'], emails: ['a@b.co'], addresses: [{ id: 'ad', tag: 'HOME', city: 'Rome' }],
      customFields: { 'custom.age': { name: 'CUSTOM.AGE', value: 30 }, 'custom.secret': { name: 'CUSTOM.SECRET', value: 'x' } },
      taggedPhones: [{ phone: '+1 555', tag: 'MOBILE' }], taggedEmails: [{ email: 'a@b.co', tag: 'MAIN' }],
    });
    expect(wire).toMatchObject({ lastLoginDate: '2024-05-01T10:00:00.000Z', role: 'MEMBER' });
  });
  it('others get only public custom field values', () => {
    const wire = toWireMember(member, { level: 'PUBLIC', publicCustomFieldsOnly: true, role: false }, definitions);
    expect(wire.contact).toEqual({ customFields: { 'custom.age': { name: 'CUSTOM.AGE', value: 30 } } });
    expect(wire.loginEmail).toBeUndefined();
  });
});

describe('wire input to a patch', () => {
  it('takes strings or tagged objects, clears with "" or null, ignores read-only fields', () => {
    const { patch, violations } = memberPatchFromWire({
      id: 'ignored', status: 'BLOCKED', loginEmail: ' a@b.co ',
      profile: { nickname: '', title: null, slug: 'new-slug' },
      contact: { phones: ['+1 555 0100', { phone: '020 7946', tag: 'WORK' }], emails: [{ email: 'x@y.co', tag: 'HOME' }], company: 'Co', birthdate: '2000-01-31' },
    });
    expect(violations).toEqual([]);
    expect(patch).toEqual({
      loginEmail: 'a@b.co', slug: 'new-slug',
      profile: { nickname: null, title: null },
      contact: { company: 'Co', birthdate: '2000-01-31', phones: [{ phone: '+1 555 0100', tag: 'UNTAGGED' }, { phone: '020 7946', tag: 'WORK' }], emails: [{ email: 'x@y.co', tag: 'HOME' }] },
    });
  });
  it('reports bad e-mails, phones, dates and image URLs', () => {
    const { violations } = memberPatchFromWire({
      loginEmail: 'nope', profile: { photo: { url: 'javascript:x' } }, contact: { phones: ['call me'], emails: ['a@'], birthdate: '31/01/2000' },
    });
    expect(violations.map((v) => v.field)).toEqual([
      'member.loginEmail', 'member.profile.photo.url', 'member.contact.birthdate', 'member.contact.phones[0]', 'member.contact.emails[0]',
    ]);
  });
  it('applies only what was sent and numbers new addresses', () => {
    const { patch } = memberPatchFromWire({ profile: { title: 'Chef' }, contact: { addresses: [{ city: 'Oslo' }], lastName: '' } });
    const { profile, contact } = applyPatch(member, patch, { 'custom.age': 31, 'custom.secret': null }, () => 'new-id');
    expect(profile).toEqual({ ...member.profile, title: 'Chef' });
    expect(contact.addresses).toEqual([{ id: 'new-id', tag: 'UNTAGGED', city: 'Oslo' }]);
    expect(contact.phones).toEqual(member.contact.phones);
    expect(contact.customFields).toEqual({ 'custom.age': 31, orphan: 'gone' });
    expect(contact.firstName).toBe('A');
  });
});
