// The member a new identity gets: its profile and contact in the members service's shapes.
import { newId } from '../../platform/ids.js';

/** A URL slug from a nickname or the e-mail's local part. */
export function slugBase(text: string): string {
  const slug = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return slug || 'member';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const ADDRESS_TAGS = ['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING'];

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Custom field values by name, as the members service keeps them (text, number or "YYYY-MM-DD"). */
function customFieldValues(fields: unknown): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const field of Array.isArray(fields) ? fields : []) {
    const { name, value } = record(field);
    const v = record(value);
    if (typeof name !== 'string') continue;
    if (typeof v.strValue === 'string') values[name] = v.strValue;
    else if (typeof v.numValue === 'number' && Number.isFinite(v.numValue)) values[name] = v.numValue;
    else if (typeof v.dateValue === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v.dateValue)) values[name] = v.dateValue.slice(0, 10);
  }
  return values;
}

/** The member's profile and contact (the members service's shapes) from the identity profile. */
export function memberShapes(email: string, profile: Record<string, unknown>): { profile: Record<string, unknown>; contact: Record<string, unknown> } {
  const nickname = text(profile.nickname) ?? ([text(profile.firstName), text(profile.lastName)].filter(Boolean).join(' ') || email.split('@')[0]);
  const picture = text(profile.picture);
  const otherEmails = Array.isArray(profile.emails) ? profile.emails.filter((e): e is string => typeof e === 'string' && e !== email) : [];
  const phones = Array.isArray(profile.phones) ? profile.phones.filter((p): p is string => typeof p === 'string') : [];
  const addresses = (Array.isArray(profile.addresses) ? profile.addresses : []).map((wrapper) => {
    const { address, tag } = record(wrapper);
    const a = record(address);
    return {
      id: newId(),
      tag: typeof tag === 'string' && ADDRESS_TAGS.includes(tag) ? tag : 'UNTAGGED',
      addressLine: text(a.addressLine) ?? text(a.addressLine1),
      addressLine2: text(a.addressLine2),
      city: text(a.city),
      subdivision: text(a.subdivision),
      country: text(a.country),
      postalCode: text(a.postalCode),
    };
  });
  const contact: Record<string, unknown> = {
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    emails: [{ email, tag: 'MAIN' }, ...otherEmails.map((e) => ({ email: e, tag: 'UNTAGGED' }))],
    phones: phones.map((phone, i) => ({ phone, tag: i === 0 ? 'MAIN' : 'UNTAGGED' })),
    addresses,
    company: text(profile.company),
    jobTitle: text(profile.position),
    birthdate: text(profile.birthdate)?.slice(0, 10),
    customFields: customFieldValues(profile.customFields),
  };
  return { profile: { nickname, ...(picture ? { photo: { url: picture } } : {}) }, contact };
}
