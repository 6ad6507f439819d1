/**
 * Request schemas of the members APIs (typebox → Ajv): shapes, types, lengths and enums. Rules that
 * need more than a schema (e-mail form, dates, custom field values, slugs) live in the service.
 * Read-only wire fields the SDK may send back (`id`, `status`, dates, …) are accepted and ignored.
 */
import { Type, type Static, type TSchema } from 'typebox';
import {
  ADDRESS_TAGS, CUSTOM_FIELD_TYPES, EMAIL_TAGS, FIELD_VISIBILITIES, FIELDSETS, MEMBER_ROLES, PHONE_TAGS,
  PRIVACY_STATUSES, REPORT_CATEGORIES, SOCIAL_NETWORKS,
} from './model.js';

const strict = { additionalProperties: false } as const;
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const Str = (maxLength: number, minLength = 0) => Type.String({ maxLength, minLength });
/** `"abc"`, `""` or `null`; the last two clear a field on update. */
const NStr = (maxLength: number) => Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength });
const NNum = () => Type.Unsafe<number | null>({ type: ['number', 'null'] });
const Id = Str(200, 1);
/** Ignored read-only values; any JSON. */
const ReadOnly = Type.Unknown();

export const FieldsetsQuery = Type.Array(Type.Enum([...FIELDSETS]), { maxItems: 3 });

export const ImageInput = Type.Object({
  id: Opt(Str(500)),
  url: Opt(Str(2048)),
  height: Opt(Type.Number({ minimum: 0 })),
  width: Opt(Type.Number({ minimum: 0 })),
  offsetX: Opt(NNum()),
  offsetY: Opt(NNum()),
  altText: Opt(NStr(500)),
  filename: Opt(NStr(500)),
}, strict);
export type ImageInput = Static<typeof ImageInput>;

const PhoneItem = Type.Union([
  Str(50, 1),
  Type.Object({ phone: Str(50, 1), tag: Opt(Type.Enum([...PHONE_TAGS])) }, strict),
]);
const EmailItem = Type.Union([
  Str(254, 3),
  Type.Object({ email: Str(254, 3), tag: Opt(Type.Enum([...EMAIL_TAGS])) }, strict),
]);

export const AddressInput = Type.Object({
  id: Opt(Str(200)),
  tag: Opt(Type.Enum([...ADDRESS_TAGS])),
  addressLine: Opt(NStr(200)),
  addressLine2: Opt(NStr(200)),
  streetAddress: Opt(Type.Object({ number: Opt(Str(100)), name: Opt(Str(200)) }, strict)),
  city: Opt(NStr(100)),
  subdivision: Opt(NStr(100)),
  country: Opt(NStr(2)),
  postalCode: Opt(NStr(50)),
}, strict);
export type AddressInput = Static<typeof AddressInput>;

export const ContactInput = Type.Object({
  firstName: Opt(NStr(100)),
  lastName: Opt(NStr(100)),
  phones: Opt(Type.Array(PhoneItem, { maxItems: 20 })),
  emails: Opt(Type.Array(EmailItem, { maxItems: 20 })),
  addresses: Opt(Type.Array(AddressInput, { maxItems: 20 })),
  birthdate: Opt(NStr(100)),
  company: Opt(NStr(100)),
  jobTitle: Opt(NStr(100)),
  customFields: Opt(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 })),
  taggedPhones: Opt(ReadOnly),
  taggedEmails: Opt(ReadOnly),
}, strict);
export type ContactInput = Static<typeof ContactInput>;

export const ProfileInput = Type.Object({
  nickname: Opt(NStr(255)),
  slug: Opt(NStr(255)),
  photo: Opt(Type.Union([ImageInput, Type.Null()])),
  cover: Opt(Type.Union([ImageInput, Type.Null()])),
  title: Opt(NStr(255)),
}, strict);
export type ProfileInput = Static<typeof ProfileInput>;

export const MemberInput = Type.Object({
  id: Opt(ReadOnly),
  loginEmail: Opt(NStr(254)),
  loginEmailVerified: Opt(ReadOnly),
  status: Opt(ReadOnly),
  contactId: Opt(ReadOnly),
  contact: Opt(ContactInput),
  profile: Opt(ProfileInput),
  privacyStatus: Opt(Type.Enum([...PRIVACY_STATUSES, 'UNKNOWN'])),
  activityStatus: Opt(ReadOnly),
  createdDate: Opt(ReadOnly),
  updatedDate: Opt(ReadOnly),
  lastLoginDate: Opt(ReadOnly),
  role: Opt(ReadOnly),
}, strict);
export type MemberInput = Static<typeof MemberInput>;

export const CreateMemberBody = Type.Object({ member: Opt(MemberInput) }, strict);
export const UpdateMemberBody = Type.Object({ member: MemberInput }, strict);
export const SlugBody = Type.Object({ id: Opt(Str(200)), slug: Str(255) }, strict);
export const IdBody = Type.Object({ id: Opt(Str(200)) }, strict);
export const EmptyBody = Type.Object({}, strict);
export const RoleBody = Type.Object({ id: Opt(Str(200)), role: Type.Enum([...MEMBER_ROLES]) }, strict);

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

const PagingInput = Type.Object({ limit: Opt(Type.Integer()), offset: Opt(Type.Integer()) }, strict);
const SortingInput = Type.Array(Type.Object({
  fieldName: Str(512, 1),
  order: Opt(Type.Enum(['ASC', 'DESC'])),
}, strict), { maxItems: 5 });
const SearchInput = Type.Object({
  expression: Opt(NStr(100)),
  fields: Opt(Type.Array(Str(100), { maxItems: 6 })),
}, strict);

export const FieldsetQuery = Type.Object({ id: Opt(Str(200)), fieldsets: Opt(FieldsetsQuery) }, strict);
export type FieldsetQuery = Static<typeof FieldsetQuery>;

export const ListMembersQuery = Type.Object({
  paging: Opt(PagingInput),
  fieldsets: Opt(FieldsetsQuery),
  sorting: Opt(SortingInput),
}, strict);
export type ListMembersQuery = Static<typeof ListMembersQuery>;

export const QueryMembersBody = Type.Object({
  query: Opt(Type.Object({
    filter: Opt(Type.Unknown()),
    paging: Opt(PagingInput),
    sort: Opt(SortingInput),
    sorting: Opt(SortingInput),
  }, strict)),
  fieldsets: Opt(FieldsetsQuery),
  search: Opt(SearchInput),
}, strict);
export type QueryMembersBody = Static<typeof QueryMembersBody>;

export const DeleteMyMemberQuery = Type.Object({ contentAssigneeId: Opt(Str(200)) }, strict);
export const DeleteMemberQuery = Type.Object({ id: Opt(Str(200)) }, strict);
export const BulkDeleteBody = Type.Object({ memberIds: Type.Array(Id, { minItems: 1, maxItems: 100 }) }, strict);
export const BulkByFilterBody = Type.Object({
  filter: Type.Unknown(),
  contentAssigneeId: Opt(Str(200)),
  search: Opt(SearchInput),
}, strict);
export type BulkByFilterBody = Static<typeof BulkByFilterBody>;
export const FilterOnlyBody = Type.Object({ filter: Type.Unknown() }, strict);

// ─── custom fields ─────────────────────────────────────────────────────────────────────────────

export const CustomFieldInput = Type.Object({
  id: Opt(ReadOnly),
  name: Opt(Str(150, 1)),
  key: Opt(ReadOnly),
  defaultPrivacy: Opt(Type.Enum([...FIELD_VISIBILITIES])),
  fieldType: Opt(Type.Enum([...CUSTOM_FIELD_TYPES])),
  socialType: Opt(Type.Enum([...SOCIAL_NETWORKS, 'UNKNOWN'])),
  fieldOrigin: Opt(ReadOnly),
  appliesTo: Opt(ReadOnly),
  section: Opt(ReadOnly),
  createdDate: Opt(ReadOnly),
  updatedDate: Opt(ReadOnly),
  revision: Opt(Type.Unsafe<string | number>({ type: ['string', 'integer'] })),
}, strict);
export type CustomFieldInput = Static<typeof CustomFieldInput>;
export const CustomFieldBody = Type.Object({ field: CustomFieldInput }, strict);
export const RevisionQuery = Type.Object({ id: Opt(Str(200)), revision: Opt(Str(20)) }, strict);
export const RevisionBody = Type.Object({ id: Opt(Str(200)), revision: Opt(Type.Unsafe<string | number>({ type: ['string', 'integer'] })) }, strict);
export const PagingQuery = Type.Object({ paging: Opt(PagingInput) }, strict);
export const FieldOrderBody = Type.Object({
  fieldIds: Type.Array(Id, { minItems: 1, maxItems: 100 }),
  section: Opt(Type.Enum(['GENERAL', 'SOCIAL', 'DISPLAY_INFO', 'ADDRESS'])),
}, strict);

// ─── badges ────────────────────────────────────────────────────────────────────────────────────

export const BadgeInput = Type.Object({
  id: Opt(ReadOnly),
  title: Opt(NStr(100)),
  description: Opt(NStr(500)),
  backgroundColor: Opt(NStr(7)),
  textColor: Opt(NStr(7)),
  icon: Opt(NStr(2048)),
  permissionsEnabled: Opt(Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] })),
  slug: Opt(ReadOnly),
  createdDate: Opt(ReadOnly),
  updatedDate: Opt(ReadOnly),
}, strict);
export type BadgeInput = Static<typeof BadgeInput>;
export const BadgeBody = Type.Object({ badge: BadgeInput }, strict);
export const MemberIdsBody = Type.Object({ id: Opt(Str(200)), memberIds: Type.Array(Id, { minItems: 1, maxItems: 100 }) }, strict);
export const MemberIdsQuery = Type.Object({ id: Opt(Str(200)), memberIds: Type.Array(Id, { minItems: 1, maxItems: 100 }) }, strict);
export const BadgeMembersQuery = Type.Object({ id: Opt(Str(200)), paging: Opt(PagingInput) }, strict);
export const BadgeOrderBody = Type.Object({ badgeIds: Type.Array(Id, { minItems: 1, maxItems: 1000 }) }, strict);

// ─── followers ─────────────────────────────────────────────────────────────────────────────────

const CursorPagingInput = Type.Object({ limit: Opt(Type.Integer()), cursor: Opt(NStr(16000)) }, strict);
export const MemberIdParams = Type.Object({ memberId: Id });
export type MemberIdParams = Static<typeof MemberIdParams>;
export const FollowBody = Type.Object({ memberId: Opt(Str(200)) }, strict);
export const FollowQuery = Type.Object({ memberId: Opt(Str(200)), paging: Opt(CursorPagingInput) }, strict);
export type FollowQuery = Static<typeof FollowQuery>;
export const ConnectionsBody = Type.Object({
  memberId: Opt(Str(200)),
  connectedMemberIds: Type.Array(Id, { maxItems: 100 }),
}, strict);

// ─── reports ───────────────────────────────────────────────────────────────────────────────────

export const ReportBody = Type.Object({
  memberReport: Type.Object({
    id: Opt(ReadOnly),
    reportedMemberId: Id,
    reportingMemberId: Opt(ReadOnly),
    reason: Type.Object({
      category: Type.Enum([...REPORT_CATEGORIES]),
      description: Opt(NStr(1000)),
    }, strict),
    createdDate: Opt(ReadOnly),
  }, strict),
}, strict);
export type ReportBody = Static<typeof ReportBody>;

const CursorQueryInput = Type.Object({
  filter: Opt(Type.Unknown()),
  sort: Opt(SortingInput),
  sorting: Opt(SortingInput),
  cursorPaging: Opt(CursorPagingInput),
  paging: Opt(CursorPagingInput),
}, strict);
export type CursorQueryInput = Static<typeof CursorQueryInput>;
export const CursorQueryBody = Type.Object({ query: Opt(CursorQueryInput) }, strict);
export const CursorPagingQuery = Type.Object({ cursorPaging: Opt(CursorPagingInput) }, strict);

// ─── about ─────────────────────────────────────────────────────────────────────────────────────

const AboutInput = Type.Object({
  id: Opt(ReadOnly),
  revision: Opt(Type.Unsafe<string | number | null>({ type: ['string', 'integer', 'null'] })),
  memberId: Opt(NStr(200)),
  content: Opt(Type.Record(Type.String(), Type.Unknown())),
}, strict);
export type AboutInput = Static<typeof AboutInput>;
export const AboutBody = Type.Object({ memberAbout: AboutInput }, strict);
