/**
 * The wire member of `@wix/members` ↔ the domain member (pure). Wire names (`id`, `createdDate`,
 * `contactId`, string phone and e-mail lists) stay here. Bodega extensions on the wire, read by
 * nothing in the official SDK: `role`, `contact.taggedPhones`, `contact.taggedEmails` and address
 * `tag` (the spec's tagged phones, e-mails and addresses).
 */
import type { Static } from 'typebox';
import type { FieldViolation } from '../../platform/errors.js';
import type { Projection } from './access.js';
import type {
  Address, Contact, CustomFieldDefinition, Image, Member, PrivacyStatus, Profile,
  TaggedEmail, TaggedPhone,
} from './model.js';
import type { AddressInput, ImageInput, MemberInput } from './schemas.js';
import { normaliseDate } from './custom-field-values.js';
import type { Member as MemberSchema, MemberAddress, MemberContact, MemberProfile } from './wire-schemas.js';

export interface WireImage {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  offsetX?: number;
  offsetY?: number;
}

/** The member on the wire, as its response schema (wire-schemas.ts) describes it. */
export type WireMember = Static<typeof MemberSchema>;

function wireImage(image: Image | undefined): WireImage | undefined {
  if (!image) return undefined;
  return { ...image };
}

/**
 * The record without its undefined members. Built by adding keys rather than deleting them: an
 * object that lost a key becomes a slow dictionary for V8, and a page writes thousands of these.
 */
function definedOnly<T extends object>(record: T): T {
  const out: Partial<T> = {};
  for (const key in record) {
    const value = record[key];
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

function wireProfile(member: Member): Static<typeof MemberProfile> {
  const p = member.profile;
  const profile: Static<typeof MemberProfile> = {};
  if (p.nickname !== undefined) profile.nickname = p.nickname;
  if (member.slug !== undefined) profile.slug = member.slug;
  if (p.photo) profile.photo = wireImage(p.photo);
  if (p.cover) profile.cover = wireImage(p.cover);
  if (p.title !== undefined) profile.title = p.title;
  return profile;
}

function wireAddress(address: Address): Static<typeof MemberAddress> {
  return definedOnly({
    id: address.id,
    tag: address.tag,
    addressLine: address.addressLine,
    addressLine2: address.addressLine2,
    streetAddress: address.streetAddress ? { ...address.streetAddress } : undefined,
    city: address.city,
    subdivision: address.subdivision,
    country: address.country,
    postalCode: address.postalCode,
  });
}

/** Custom field values as `{key: {name, value}}`; only keys with a definition the viewer may see. */
function wireCustomFields(
  values: Contact['customFields'],
  definitions: ReadonlyMap<string, CustomFieldDefinition>,
  publicOnly: boolean,
): Record<string, { name: string; value: string | number }> {
  const out: Record<string, { name: string; value: string | number }> = {};
  for (const [key, value] of Object.entries(values)) {
    const definition = definitions.get(key);
    if (!definition) continue;
    if (publicOnly && (definition.visibility !== 'PUBLIC' || definition.hidden)) continue;
    out[key] = { name: definition.name, value };
  }
  return out;
}

function wireContact(contact: Contact, definitions: ReadonlyMap<string, CustomFieldDefinition>): Static<typeof MemberContact> {
  return definedOnly({
    firstName: contact.firstName,
    lastName: contact.lastName,
    phones: contact.phones.map((p) => p.phone),
    emails: contact.emails.map((e) => e.email),
    addresses: contact.addresses.map(wireAddress),
    birthdate: contact.birthdate,
    company: contact.company,
    jobTitle: contact.jobTitle,
    customFields: wireCustomFields(contact.customFields, definitions, false),
    taggedPhones: contact.phones.map((p) => ({ ...p })),
    taggedEmails: contact.emails.map((e) => ({ ...e })),
  });
}

/**
 * PUBLIC: id, contactId, dates and profile, statuses UNKNOWN. EXTENDED adds the login e-mail and
 * the real statuses. FULL adds contact and last login (and the role for admins and oneself).
 */
export function toWireMember(member: Member, projection: Projection, definitions: ReadonlyMap<string, CustomFieldDefinition>): WireMember {
  const wire: WireMember = {
    id: member.memberId,
    contactId: member.memberId,
    status: 'UNKNOWN',
    privacyStatus: 'UNKNOWN',
    activityStatus: 'UNKNOWN',
    profile: wireProfile(member),
    createdDate: member.createdAt.toISOString(),
    updatedDate: member.updatedAt.toISOString(),
  };
  if (projection.level !== 'PUBLIC') {
    wire.loginEmail = member.loginEmail;
    wire.status = member.status;
    wire.privacyStatus = member.privacyStatus;
    wire.activityStatus = member.activityStatus;
  }
  if (projection.level === 'FULL') {
    wire.contact = wireContact(member.contact, definitions);
    if (member.lastLoginAt) wire.lastLoginDate = member.lastLoginAt.toISOString();
  }
  if (projection.publicCustomFieldsOnly) {
    const customFields = wireCustomFields(member.contact.customFields, definitions, true);
    if (Object.keys(customFields).length > 0) wire.contact = { customFields };
  }
  if (projection.role) wire.role = member.role;
  return wire;
}

/** Whether writing this member to the wire needs the custom field definitions. */
export function needsDefinitions(member: Member, projection: Projection): boolean {
  return (projection.level === 'FULL' || projection.publicCustomFieldsOnly) && Object.keys(member.contact.customFields).length > 0;
}

// ─── input → patch ─────────────────────────────────────────────────────────────────────────────

/** A change to a member. Absent: untouched; null: cleared (the wire's "" or null). */
export interface MemberPatch {
  loginEmail?: string;
  privacyStatus?: PrivacyStatus;
  slug?: string;
  profile: { [K in 'nickname' | 'title']?: string | null } & { photo?: Image | null; cover?: Image | null };
  contact: {
    firstName?: string | null;
    lastName?: string | null;
    company?: string | null;
    jobTitle?: string | null;
    birthdate?: string | null;
    phones?: TaggedPhone[];
    emails?: TaggedEmail[];
    addresses?: (Omit<Address, 'id'> & { id?: string })[];
    /** The wire's `{key: {name, value}}`, checked against the definitions by the service. */
    customFields?: Record<string, unknown>;
  };
}

const EMAIL = /^[^\s@()<>,;:"[\]\\]+@[^\s@()<>,;:"[\]\\]+\.[^\s@()<>,;:"[\]\\.]{2,}$/;
const PHONE = /^\+?[0-9 ()./-]{3,50}$/;

export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text) && !text.includes('..');
}

function text(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function image(value: ImageInput | null | undefined, field: string, violations: FieldViolation[]): Image | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (value.url !== undefined && !/^(https?:\/\/|wix:image:\/\/)/.test(value.url)) {
    violations.push({ field: `${field}.url`, rule: 'FORMAT', description: 'must be an http(s) or wix:image URL' });
  }
  const out: Image = {};
  if (value.id !== undefined) out.id = value.id;
  if (value.url !== undefined) out.url = value.url;
  if (value.height !== undefined) out.height = value.height;
  if (value.width !== undefined) out.width = value.width;
  if (value.offsetX !== undefined && value.offsetX !== null) out.offsetX = value.offsetX;
  if (value.offsetY !== undefined && value.offsetY !== null) out.offsetY = value.offsetY;
  return out;
}

function address(value: AddressInput): Omit<Address, 'id'> & { id?: string } {
  const out: Omit<Address, 'id'> & { id?: string } = { tag: (value.tag ?? 'UNTAGGED') };
  if (value.id) out.id = value.id;
  for (const key of ['addressLine', 'addressLine2', 'city', 'subdivision', 'postalCode'] as const) {
    const v = text(value[key]);
    if (v) out[key] = v;
  }
  const country = text(value.country);
  if (country) out.country = country.toUpperCase();
  if (value.streetAddress && (value.streetAddress.name || value.streetAddress.number)) out.streetAddress = { ...value.streetAddress };
  return out;
}

/**
 * The wire member of a create or update call → a patch, with the violations found. Read-only wire
 * fields are ignored; empty lists leave the stored lists alone (as the official API documents:
 * use the delete-phones/e-mails/addresses calls to clear them).
 */
export function memberPatchFromWire(input: MemberInput | undefined, path = 'member'): { patch: MemberPatch; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const patch: MemberPatch = { profile: {}, contact: {} };
  if (!input) return { patch, violations };
  const loginEmail = text(input.loginEmail);
  if (loginEmail) {
    if (isEmail(loginEmail)) patch.loginEmail = loginEmail;
    else violations.push({ field: `${path}.loginEmail`, rule: 'FORMAT', description: 'must be an e-mail address' });
  }
  if (input.privacyStatus === 'PUBLIC' || input.privacyStatus === 'PRIVATE') patch.privacyStatus = input.privacyStatus;

  const profile = input.profile;
  if (profile) {
    if (profile.nickname !== undefined) patch.profile.nickname = text(profile.nickname);
    if (profile.title !== undefined) patch.profile.title = text(profile.title);
    const slug = text(profile.slug);
    if (slug) patch.slug = slug;
    const photo = image(profile.photo, `${path}.profile.photo`, violations);
    if (photo !== undefined) patch.profile.photo = photo;
    const cover = image(profile.cover, `${path}.profile.cover`, violations);
    if (cover !== undefined) patch.profile.cover = cover;
  }

  const contact = input.contact;
  if (contact) {
    for (const key of ['firstName', 'lastName', 'company', 'jobTitle'] as const) {
      if (contact[key] !== undefined) patch.contact[key] = text(contact[key]);
    }
    if (contact.birthdate !== undefined) {
      const birthdate = text(contact.birthdate);
      if (birthdate === null) patch.contact.birthdate = null;
      else {
        const date = birthdate === undefined ? undefined : normaliseDate(birthdate);
        if (date) patch.contact.birthdate = date;
        else violations.push({ field: `${path}.contact.birthdate`, rule: 'FORMAT', description: 'must be a date "YYYY-MM-DD"' });
      }
    }
    if (contact.phones && contact.phones.length > 0) {
      patch.contact.phones = contact.phones.map((item, i) => {
        const phone = (typeof item === 'string' ? item : item.phone).trim();
        if (!PHONE.test(phone)) violations.push({ field: `${path}.contact.phones[${i}]`, rule: 'FORMAT', description: 'must be a phone number' });
        return { phone, tag: (typeof item === 'string' ? 'UNTAGGED' : item.tag ?? 'UNTAGGED') };
      });
    }
    if (contact.emails && contact.emails.length > 0) {
      patch.contact.emails = contact.emails.map((item, i) => {
        const email = (typeof item === 'string' ? item : item.email).trim();
        if (!isEmail(email)) violations.push({ field: `${path}.contact.emails[${i}]`, rule: 'FORMAT', description: 'must be an e-mail address' });
        return { email, tag: (typeof item === 'string' ? 'UNTAGGED' : item.tag ?? 'UNTAGGED') };
      });
    }
    if (contact.addresses && contact.addresses.length > 0) patch.contact.addresses = contact.addresses.map(address);
    if (contact.customFields && Object.keys(contact.customFields).length > 0) patch.contact.customFields = contact.customFields;
  }
  return { patch, violations };
}

function setOrClear<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined): void {
  if (value === undefined) return;
  if (value === null) delete target[key];
  else target[key] = value;
}

/**
 * Applies a patch: only the fields sent change. `customFields` holds checked values (null clears);
 * new addresses get ids from `newId`.
 */
export function applyPatch(
  member: Member,
  patch: MemberPatch,
  customFields: Record<string, string | number | null>,
  newId: () => string,
): { profile: Profile; contact: Contact } {
  const profile: Profile = { ...member.profile };
  setOrClear(profile, 'nickname', patch.profile.nickname);
  setOrClear(profile, 'title', patch.profile.title);
  setOrClear(profile, 'photo', patch.profile.photo);
  setOrClear(profile, 'cover', patch.profile.cover);
  const contact: Contact = { ...member.contact, customFields: { ...member.contact.customFields } };
  setOrClear(contact, 'firstName', patch.contact.firstName);
  setOrClear(contact, 'lastName', patch.contact.lastName);
  setOrClear(contact, 'company', patch.contact.company);
  setOrClear(contact, 'jobTitle', patch.contact.jobTitle);
  setOrClear(contact, 'birthdate', patch.contact.birthdate);
  if (patch.contact.phones) contact.phones = patch.contact.phones;
  if (patch.contact.emails) contact.emails = patch.contact.emails;
  if (patch.contact.addresses) contact.addresses = patch.contact.addresses.map((a) => ({ ...a, id: a.id ?? newId() }));
  for (const [key, value] of Object.entries(customFields)) {
    if (value === null) delete contact.customFields[key];
    else contact.customFields[key] = value;
  }
  return { profile, contact };
}
