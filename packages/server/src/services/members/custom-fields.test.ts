/**
 * Custom field definitions and their values on members, through the official `@wix/members`
 * `customFields` and `members` modules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import { failure, membersTestApp, newMember, newSite, signIn, visitorClient, type MembersClient } from '../../test/members.js';

const t = membersTestApp();
let site: TestSite;
let admin: MembersClient;

beforeAll(async () => {
  ({ site, admin } = await newSite(t));
});

describe('custom field definitions', () => {
  it('lists the built-in CONTACT and SYSTEM fields of every site', async () => {
    const { fields } = await admin.customFields.listCustomFields();
    const byKey = new Map((fields ?? []).map((f) => [f.key, f]));
    expect(byKey.get('firstName')).toMatchObject({ fieldOrigin: 'SYSTEM', fieldType: 'TEXT', section: 'GENERAL' });
    expect(byKey.get('title')).toMatchObject({ fieldOrigin: 'SYSTEM', section: 'DISPLAY_INFO', defaultPrivacy: 'PUBLIC' });
    expect(byKey.get('birthdate')).toMatchObject({ fieldOrigin: 'CONTACT', fieldType: 'DATE' });
  });

  it('creates fields of each type, with a key, a revision and the social network list', async () => {
    const text = await admin.customFields.createCustomField({ name: 'Favourite cake', fieldType: 'TEXT', defaultPrivacy: 'PUBLIC' });
    expect(text).toMatchObject({ name: 'Favourite cake', key: 'custom.favourite-cake', fieldType: 'TEXT', defaultPrivacy: 'PUBLIC', fieldOrigin: 'CUSTOM', socialType: 'UNKNOWN', revision: '1', appliesTo: 'ALL_MEMBERS' });
    const again = await admin.customFields.createCustomField({ name: 'Favourite cake' });
    expect(again.key).toBe('custom.favourite-cake-2');
    expect(again.defaultPrivacy).toBe('PRIVATE');
    const social = await admin.customFields.createCustomField({ name: 'Insta', fieldType: 'SOCIAL', socialType: 'INSTAGRAM' });
    expect(social).toMatchObject({ fieldType: 'SOCIAL', socialType: 'INSTAGRAM', section: 'SOCIAL' });
    for (const fieldType of ['NUMBER', 'DATE', 'URL'] as const) {
      expect((await admin.customFields.createCustomField({ name: `A ${fieldType}`, fieldType })).fieldType).toBe(fieldType);
    }
  });

  it('refuses a SOCIAL field without a network, and a network on another type', async () => {
    expect(await failure(admin.customFields.createCustomField({ name: 'Net', fieldType: 'SOCIAL' }))).toMatchObject({ status: 400, code: 'INVALID_FIELD_SOCIAL_TYPE' });
    expect(await failure(admin.customFields.createCustomField({ name: 'Net', fieldType: 'TEXT', socialType: 'TIKTOK' }))).toMatchObject({ status: 400, code: 'INVALID_FIELD_SOCIAL_TYPE' });
    expect(await failure(admin.customFields.createCustomField({ name: '' }))).toMatchObject({ status: 400 });
  });

  it('updates with the current revision, never the type nor a built-in\'s name', async () => {
    const field = await admin.customFields.createCustomField({ name: 'Shoe size', fieldType: 'NUMBER' });
    const renamed = await admin.customFields.updateCustomField(field._id as string, { revision: '1', name: 'Shoe size (EU)', defaultPrivacy: 'PUBLIC' });
    expect(renamed).toMatchObject({ name: 'Shoe size (EU)', defaultPrivacy: 'PUBLIC', revision: '2', key: field.key });
    expect(await failure(admin.customFields.updateCustomField(field._id as string, { revision: '1', name: 'Stale' }))).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });
    expect(await failure(admin.customFields.updateCustomField(field._id as string, { revision: '2', fieldType: 'TEXT' }))).toMatchObject({ status: 400, code: 'INCORRECT_FIELD_TYPE' });
    const builtIn = (await admin.customFields.listCustomFields()).fields?.find((f) => f.key === 'company');
    expect(await failure(admin.customFields.updateCustomField(builtIn?._id as string, { revision: builtIn?.revision, name: 'Employer' }))).toMatchObject({ status: 400, code: 'RESERVED_FIELD_NAME_NON_EDITABLE' });
    const privacy = await admin.customFields.updateCustomField(builtIn?._id as string, { revision: builtIn?.revision, defaultPrivacy: 'PUBLIC' });
    expect(privacy.defaultPrivacy).toBe('PUBLIC');
  });

  it('gets, hides, reorders and deletes', async () => {
    const a = await admin.customFields.createCustomField({ name: 'Order A', defaultPrivacy: 'PUBLIC' });
    const b = await admin.customFields.createCustomField({ name: 'Order B', defaultPrivacy: 'PUBLIC' });
    expect((await admin.customFields.getCustomField(a._id as string)).field?.name).toBe('Order A');
    const ordered = await admin.customFields.updateCustomFieldsOrder([b._id as string, a._id as string], { section: 'GENERAL' });
    expect(ordered.fields?.slice(0, 2).map((f) => f._id)).toEqual([b._id, a._id]);
    const current = (await admin.customFields.getCustomField(a._id as string)).field;
    await admin.customFields.hideCustomField(a._id as string, current?.revision as string);
    expect(await failure(visitorClient(site).customFields.getCustomField(a._id as string))).toMatchObject({ status: 404 });
    expect((await admin.customFields.getCustomField(a._id as string)).field).toMatchObject({ _id: a._id });
    const latest = (await admin.customFields.getCustomField(b._id as string)).field;
    expect(await failure(admin.customFields.deleteCustomField(b._id as string, '999'))).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });
    await admin.customFields.deleteCustomField(b._id as string, latest?.revision as string);
    expect(await failure(admin.customFields.getCustomField(b._id as string))).toMatchObject({ status: 404, code: 'CUSTOM_FIELD_NOT_FOUND' });
    const system = (await admin.customFields.listCustomFields()).fields?.find((f) => f.key === 'email');
    expect(await failure(admin.customFields.deleteCustomField(system?._id as string, system?.revision as string))).toMatchObject({ status: 409, code: 'CUSTOM_FIELD_NOT_DELETABLE' });
  });

  it('shows visitors only public, visible definitions, and lets only admins define fields', async () => {
    const hidden = await admin.customFields.createCustomField({ name: 'Secret note' });
    const visitor = visitorClient(site);
    const listed = await visitor.customFields.listCustomFields();
    expect(listed.fields?.every((f) => f.defaultPrivacy === 'PUBLIC')).toBe(true);
    expect(listed.fields?.map((f) => f._id)).not.toContain(hidden._id);
    expect(await failure(visitor.customFields.createCustomField({ name: 'Nope' }))).toMatchObject({ status: 403 });
    const member = await signIn(t, site, await newMember(admin));
    expect(await failure(member.client.customFields.createCustomField({ name: 'Nope' }))).toMatchObject({ status: 403 });
  });
});

describe('custom field values on members', () => {
  let keys: Record<string, string>;
  beforeAll(async () => {
    const s = await Promise.all([
      admin.customFields.createCustomField({ name: 'Nick age', fieldType: 'NUMBER', defaultPrivacy: 'PUBLIC' }),
      admin.customFields.createCustomField({ name: 'Joined on', fieldType: 'DATE', defaultPrivacy: 'PRIVATE' }),
      admin.customFields.createCustomField({ name: 'Homepage', fieldType: 'URL', defaultPrivacy: 'PUBLIC' }),
      admin.customFields.createCustomField({ name: 'Facebook page', fieldType: 'SOCIAL', socialType: 'FACEBOOK', defaultPrivacy: 'PUBLIC' }),
      admin.customFields.createCustomField({ name: 'Motto', fieldType: 'TEXT', defaultPrivacy: 'PUBLIC' }),
    ]);
    keys = { age: s[0].key as string, joined: s[1].key as string, home: s[2].key as string, fb: s[3].key as string, motto: s[4].key as string };
  });

  it('stores values checked by type and shows them with their names', async () => {
    const id = await newMember(admin);
    const updated = await admin.members.updateMember(id, {
      contact: { customFields: {
        [keys.age]: { value: 41 }, [keys.joined]: { value: '2020-02-29' }, [keys.home]: { value: 'https://example.com' },
        [keys.fb]: { value: 'https://facebook.com/me' }, [keys.motto]: { value: 'Bake it' },
      } },
    });
    expect(updated.contact?.customFields).toEqual({
      [keys.age]: { name: 'Nick age', value: 41 }, [keys.joined]: { name: 'Joined on', value: '2020-02-29' },
      [keys.home]: { name: 'Homepage', value: 'https://example.com' }, [keys.fb]: { name: 'Facebook page', value: 'https://facebook.com/me' },
      [keys.motto]: { name: 'Motto', value: 'Bake it' },
    });
    const cleared = await admin.members.updateMember(id, { contact: { customFields: { [keys.motto]: { value: '' } } } });
    expect(cleared.contact?.customFields?.[keys.motto]).toBeUndefined();
    expect(cleared.contact?.customFields?.[keys.age]).toEqual({ name: 'Nick age', value: 41 });
  });

  it('refuses values of the wrong type, unknown keys and bad URLs', async () => {
    const id = await newMember(admin);
    expect(await failure(admin.members.updateMember(id, { contact: { customFields: { [keys.age]: { value: 'old' } } } }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await failure(admin.members.updateMember(id, { contact: { customFields: { [keys.joined]: { value: '2021-02-29' } } } }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await failure(admin.members.updateMember(id, { contact: { customFields: { 'custom.nothing': { value: 'x' } } } }))).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await failure(admin.members.updateMember(id, { contact: { customFields: { [keys.home]: { value: 'not a url' } } } }))).toMatchObject({ status: 400, code: 'INVALID_CUSTOM_FIELD_URL' });
    expect(await failure(admin.members.updateMember(id, { contact: { customFields: { [keys.fb]: { value: 'https://tiktok.com/@me' } } } }))).toMatchObject({ status: 400, code: 'INVALID_CUSTOM_FIELD_URL' });
    expect(await failure(admin.members.createMember({ member: { loginEmail: `cf.${Date.now()}@example.com`, contact: { customFields: { [keys.age]: { value: [1] } } } } }))).toMatchObject({ status: 400 });
  });

  it('shows others only values of PUBLIC fields; the member sees all of theirs', async () => {
    const id = await newMember(admin);
    await admin.members.updateMember(id, { contact: { firstName: 'Private Name', customFields: { [keys.age]: { value: 30 }, [keys.joined]: { value: '2019-01-01' } } } });
    const seen = await visitorClient(site).members.getMember(id, { fieldsets: ['FULL'] });
    expect(seen.contact).toEqual({ customFields: { [keys.age]: { name: 'Nick age', value: 30 } } });
    const plain = await visitorClient(site).members.getMember(id);
    expect(plain.contact).toBeUndefined();
    const me = await signIn(t, site, id);
    const mine = await me.client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(mine.member?.contact?.customFields).toEqual({ [keys.age]: { name: 'Nick age', value: 30 }, [keys.joined]: { name: 'Joined on', value: '2019-01-01' } });
    expect(mine.member?.contact?.firstName).toBe('Private Name');
  });

  it('lets a member set their own values', async () => {
    const id = await newMember(admin);
    const me = await signIn(t, site, id);
    const updated = await me.client.members.updateMember(id, { contact: { customFields: { [keys.motto]: { value: 'Mine' } } } });
    expect(updated.contact?.customFields?.[keys.motto]).toEqual({ name: 'Motto', value: 'Mine' });
  });

  it('drops a deleted field\'s values from members', async () => {
    const field = await admin.customFields.createCustomField({ name: 'Temporary', defaultPrivacy: 'PUBLIC' });
    const id = await newMember(admin);
    await admin.members.updateMember(id, { contact: { customFields: { [field.key as string]: { value: 'soon gone' } } } });
    await admin.customFields.deleteCustomField(field._id as string, field.revision as string);
    const [row] = await t.db.query<{ contact: { customFields?: Record<string, unknown> } }>('SELECT contact FROM members WHERE site_id = $1 AND member_id = $2', [site.siteId, id]);
    expect(row.contact.customFields?.[field.key as string]).toBeUndefined();
  });
});
