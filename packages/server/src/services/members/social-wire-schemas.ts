// The custom field definition answers of @wix/members (create, get, list, update, reorder; delete
// and hide answer {}): the schemas they are written through and documented by.
import { Type, type Static } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';
import { CUSTOM_FIELD_ORIGINS, CUSTOM_FIELD_TYPES, FIELD_SECTIONS, FIELD_VISIBILITIES, REPORT_CATEGORIES, SOCIAL_NETWORKS } from './model.js';

export const CustomFieldDefinition = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String(),
  defaultPrivacy: oneOf(FIELD_VISIBILITIES),
  fieldType: oneOf(CUSTOM_FIELD_TYPES),
  socialType: oneOf(['UNKNOWN', ...SOCIAL_NETWORKS] as const),
  fieldOrigin: oneOf(CUSTOM_FIELD_ORIGINS),
  appliesTo: oneOf(['ALL_MEMBERS'] as const),
  section: oneOf(FIELD_SECTIONS),
  hidden: Type.Boolean(),
  createdDate: Timestamp,
  updatedDate: Timestamp,
  revision: Type.String({ description: 'int64 as a decimal string' }),
}, { title: 'CustomFieldDefinition' });
export type WireCustomField = Static<typeof CustomFieldDefinition>;

const OffsetMetadata = Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), tooManyToCount: Type.Boolean() });

export const CustomFieldResponse = Type.Object({ field: CustomFieldDefinition });
export const CustomFieldsPage = Type.Object({ fields: Type.Array(CustomFieldDefinition), metadata: OffsetMetadata });
export const CustomFieldsOrder = Type.Object({ fields: Type.Array(CustomFieldDefinition), section: oneOf(FIELD_SECTIONS) });
export const Empty = Type.Object({});

// The badge answers of @wix/members (badges).
export const Badge = Type.Object({
  id: Type.String(),
  title: Type.String(),
  slug: Type.String(),
  backgroundColor: Type.String(),
  textColor: Type.String(),
  permissionsEnabled: Type.Boolean(),
  createdDate: Timestamp,
  updatedDate: Timestamp,
  description: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
}, { title: 'Badge' });
export type WireBadge = Static<typeof Badge>;

export const BadgeResponse = Type.Object({ badge: Badge });
export const BadgesPage = Type.Object({ badges: Type.Array(Badge), metadata: OffsetMetadata });
export const BadgesOrder = Type.Object({ badges: Type.Array(Badge) });
export const BadgeMemberIds = Type.Object({ memberIds: Type.Array(Type.String()) });
export const BadgeMembersPage = Type.Object({ memberIds: Type.Array(Type.String()), metadata: OffsetMetadata });
export const MemberBadgeIds = Type.Object({ memberBadgeIds: Type.Array(Type.Object({ memberId: Type.String(), badgeIds: Type.Array(Type.String()) })) });
export const BadgeMemberCounts = Type.Object({ badgeMemberCounts: Type.Array(Type.Object({ badgeId: Type.String(), memberCount: Type.Integer() })) });

// The member about answers of @wix/members (abouts): the content is rich content, written as stored.
export const MemberAbout = Type.Object({
  id: Type.String(),
  memberId: Type.String(),
  revision: Type.String({ description: 'int64 as a decimal string' }),
  content: Type.Record(Type.String(), Type.Unknown(), { description: 'Rich content (Ricos), as the member wrote it.' }),
  createdDate: Timestamp,
  updatedDate: Timestamp,
}, { title: 'MemberAbout' });
export type WireAbout = Static<typeof MemberAbout>;

const CursorMetadata = Type.Object({
  count: Type.Integer(),
  cursors: Type.Object({ next: Type.Optional(Type.String()), prev: Type.Optional(Type.String()) }),
  hasNext: Type.Boolean(),
});
export const MemberAboutResponse = Type.Object({ memberAbout: MemberAbout });
export const MyMemberAboutResponse = Type.Object({ memberAbout: Type.Optional(MemberAbout) });
export const MemberAboutsPage = Type.Object({ memberAbouts: Type.Array(MemberAbout), metadata: CursorMetadata });

// The follow answers of @wix/members (followers): member ids page by cursor; follow and unfollow answer {}.
export const FollowersPage = Type.Object({ memberIds: Type.Array(Type.String()), pagingMetadata: CursorMetadata });
export const MemberConnections = Type.Object({
  connectedMembers: Type.Array(Type.Object({
    connectedMemberId: Type.String(),
    followedByMember: Type.Boolean(),
    followingMember: Type.Boolean(),
  }, { title: 'ConnectedMember' })),
});

// The member report answers (owners review reports; a member files one); deleting answers {}.
export const MemberReport = Type.Object({
  id: Type.String(),
  reportedMemberId: Type.String(),
  reportingMemberId: Type.String(),
  reason: Type.Object({ category: oneOf(REPORT_CATEGORIES), description: Type.Optional(Type.String()) }, { title: 'ReportReason' }),
  createdDate: Timestamp,
}, { title: 'MemberReport' });
export type WireReport = Static<typeof MemberReport>;

export const ReportedMember = Type.Object({
  reportedMemberId: Type.String(),
  reportCount: Type.String({ description: 'int64 as a decimal string' }),
  reviewed: Type.Boolean(),
  lastReportDate: Timestamp,
}, { title: 'ReportedMember' });
export type WireReportedMember = Static<typeof ReportedMember>;

export const MemberReportResponse = Type.Object({ memberReport: MemberReport });
export const MemberReportsPage = Type.Object({ memberReports: Type.Array(MemberReport), pagingMetadata: CursorMetadata });
export const ReportedMemberResponse = Type.Object({ reportedMember: ReportedMember });
export const ReportedMembersPage = Type.Object({ reportedMembers: Type.Array(ReportedMember), pagingMetadata: CursorMetadata });
