/** The members service's domain: names from the spec (§3, §4, §6), no wire or SQL shapes. */
import type { MemberRole } from '../../platform/caller.js';

export type { MemberRole } from '../../platform/caller.js';
export const MEMBER_ROLES: readonly MemberRole[] = ['MEMBER', 'CONTRIBUTOR', 'OWNER'];

export const MEMBER_STATUSES = ['PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const PRIVACY_STATUSES = ['PRIVATE', 'PUBLIC'] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];
export const ACTIVITY_STATUSES = ['ACTIVE', 'MUTED'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const FIELDSETS = ['PUBLIC', 'EXTENDED', 'FULL'] as const;
export type Fieldset = (typeof FIELDSETS)[number];

export const PHONE_TAGS = ['UNTAGGED', 'MAIN', 'HOME', 'MOBILE', 'WORK', 'FAX'] as const;
export type PhoneTag = (typeof PHONE_TAGS)[number];
export const EMAIL_TAGS = ['UNTAGGED', 'MAIN', 'HOME', 'WORK'] as const;
export type EmailTag = (typeof EMAIL_TAGS)[number];
export const ADDRESS_TAGS = ['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING'] as const;
export type AddressTag = (typeof ADDRESS_TAGS)[number];

export interface Image {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  offsetX?: number;
  offsetY?: number;
}

export interface Profile {
  nickname?: string;
  photo?: Image;
  cover?: Image;
  title?: string;
}

export interface TaggedPhone {
  phone: string;
  tag: PhoneTag;
}

export interface TaggedEmail {
  email: string;
  tag: EmailTag;
}

export interface StreetAddress {
  number?: string;
  name?: string;
}

export interface Address {
  id: string;
  tag: AddressTag;
  addressLine?: string;
  addressLine2?: string;
  streetAddress?: StreetAddress;
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
}

/** A custom field's value: TEXT, URL and SOCIAL hold text, NUMBER a number, DATE "YYYY-MM-DD". */
export type CustomFieldValue = string | number;

export interface Contact {
  firstName?: string;
  lastName?: string;
  phones: TaggedPhone[];
  emails: TaggedEmail[];
  addresses: Address[];
  /** "YYYY-MM-DD". */
  birthdate?: string;
  company?: string;
  jobTitle?: string;
  /** By custom field key. */
  customFields: Record<string, CustomFieldValue>;
}

export interface Member {
  memberId: string;
  loginEmail: string;
  status: MemberStatus;
  role: MemberRole;
  privacyStatus: PrivacyStatus;
  activityStatus: ActivityStatus;
  slug: string;
  profile: Profile;
  contact: Contact;
  createdAt: Date;
  updatedAt: Date;
  lastLoginAt: Date | null;
}

// ─── custom field definitions ──────────────────────────────────────────────────────────────────

export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'URL', 'SOCIAL'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const CUSTOM_FIELD_ORIGINS = ['CUSTOM', 'CONTACT', 'SYSTEM'] as const;
export type CustomFieldOrigin = (typeof CUSTOM_FIELD_ORIGINS)[number];
export const FIELD_VISIBILITIES = ['PUBLIC', 'PRIVATE'] as const;
export type FieldVisibility = (typeof FIELD_VISIBILITIES)[number];
export const FIELD_SECTIONS = ['GENERAL', 'SOCIAL', 'DISPLAY_INFO', 'ADDRESS'] as const;
export type FieldSection = (typeof FIELD_SECTIONS)[number];
export const SOCIAL_NETWORKS = [
  'FACEBOOK', 'INSTAGRAM', 'LINKEDIN', 'TWITTER', 'YOUTUBE', 'PINTEREST', 'TIKTOK',
  'DEVIANTART', 'SOUNDCLOUD', 'TUMBLR', 'VIMEO', 'VKONTAKTE', 'ODNOKLASSNIKI', 'OTHER',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export interface CustomFieldDefinition {
  fieldId: string;
  key: string;
  name: string;
  fieldType: CustomFieldType;
  socialType: SocialNetwork | null;
  origin: CustomFieldOrigin;
  visibility: FieldVisibility;
  section: FieldSection;
  position: number;
  hidden: boolean;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

// ─── the social parts ──────────────────────────────────────────────────────────────────────────

export interface Badge {
  badgeId: string;
  title: string;
  description: string | null;
  slug: string;
  backgroundColor: string;
  textColor: string;
  icon: string | null;
  permissionsEnabled: boolean;
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

export const REPORT_CATEGORIES = ['SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export interface MemberReport {
  reportId: string;
  reportedMemberId: string;
  reportingMemberId: string;
  category: ReportCategory;
  description: string | null;
  createdAt: Date;
  reviewedAt: Date | null;
}

export interface ReportedMember {
  reportedMemberId: string;
  reportCount: number;
  reviewed: boolean;
  lastReportAt: Date;
}

export interface MemberAbout {
  aboutId: string;
  memberId: string;
  revision: number;
  content: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}
