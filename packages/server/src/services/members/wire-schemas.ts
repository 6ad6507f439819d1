// The member answers of @wix/members (get, my, list, query, create, update, moderate, slug, role,
// community): they write the wire and are the SDK's Member. The public list pages written in SQL
// (store.queryPublicPage) go out as their text; this schema documents them too.
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';
import { ACTIVITY_STATUSES, ADDRESS_TAGS, EMAIL_TAGS, MEMBER_ROLES, MEMBER_STATUSES, PHONE_TAGS, PRIVACY_STATUSES } from './model.js';

export const ProfileImage = Type.Object({
  id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  height: Type.Optional(Type.Number()),
  width: Type.Optional(Type.Number()),
  offsetX: Type.Optional(Type.Number()),
  offsetY: Type.Optional(Type.Number()),
}, { title: 'ProfileImage' });

export const MemberProfile = Type.Object({
  nickname: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  photo: Type.Optional(ProfileImage),
  cover: Type.Optional(ProfileImage),
  title: Type.Optional(Type.String()),
}, { title: 'MemberProfile' });

export const MemberAddress = Type.Object({
  id: Type.String(),
  tag: oneOf(ADDRESS_TAGS),
  addressLine: Type.Optional(Type.String()),
  addressLine2: Type.Optional(Type.String()),
  streetAddress: Type.Optional(Type.Object({ number: Type.Optional(Type.String()), name: Type.Optional(Type.String()) })),
  city: Type.Optional(Type.String()),
  subdivision: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  postalCode: Type.Optional(Type.String()),
}, { title: 'MemberAddress' });

export const CustomField = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.String(), Type.Number()]),
}, { title: 'CustomField', description: "A custom field's value, under its key; only fields the viewer may see." });

export const MemberContact = Type.Object({
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  phones: Type.Optional(Type.Array(Type.String())),
  emails: Type.Optional(Type.Array(Type.String())),
  addresses: Type.Optional(Type.Array(MemberAddress)),
  birthdate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  company: Type.Optional(Type.String()),
  jobTitle: Type.Optional(Type.String()),
  customFields: Type.Optional(Type.Record(Type.String(), CustomField)),
  taggedPhones: Type.Optional(Type.Array(Type.Object({ phone: Type.String(), tag: oneOf(PHONE_TAGS) }), { description: 'Bodega addition: the phones with their tags.' })),
  taggedEmails: Type.Optional(Type.Array(Type.Object({ email: Type.String(), tag: oneOf(EMAIL_TAGS) }), { description: 'Bodega addition: the e-mails with their tags.' })),
}, { title: 'MemberContact' });

export const Member = Type.Object({
  id: Type.String(),
  contactId: Type.String(),
  status: oneOf(['UNKNOWN', ...MEMBER_STATUSES] as const),
  privacyStatus: oneOf(['UNKNOWN', ...PRIVACY_STATUSES] as const),
  activityStatus: oneOf(['UNKNOWN', ...ACTIVITY_STATUSES] as const),
  profile: MemberProfile,
  createdDate: Timestamp,
  updatedDate: Timestamp,
  loginEmail: Type.Optional(Type.String()),
  contact: Type.Optional(MemberContact),
  lastLoginDate: Type.Optional(Timestamp),
  role: Type.Optional(oneOf(MEMBER_ROLES, { description: "Bodega addition: the member's role, shown to the site's admins and to the member." })),
}, { title: 'Member', description: 'PUBLIC: id, dates and profile, statuses UNKNOWN; EXTENDED adds the login e-mail and the statuses; FULL adds contact and last login.' });

export const MemberResponse = Type.Object({ member: Type.Optional(Member) }, { title: 'MemberResponse', description: 'A visitor asking for their own member gets no member.' });
export const ListMembersResponse = Type.Object({
  members: Type.Array(Member),
  metadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), tooManyToCount: Type.Boolean() }),
}, { title: 'ListMembersResponse' });
