/**
 * SQL for members (the shared `members` table of 0400) and custom field definitions. Every query
 * is scoped by site_id. Rows written by the identity service are read tolerantly: phones and
 * e-mails may be plain strings, custom field values may be `{name, value}`.
 */
import type { SiteContext } from '../../platform/context.js';
import { prepared, type Row, type Sql, type Statement } from '../../platform/db.js';
import type {
  ActivityStatus, Address, AddressTag, Contact, CustomFieldDefinition, EmailTag, Image, Member,
  MemberRole, MemberStatus, PhoneTag, PrivacyStatus, Profile,
} from './model.js';
import { ADDRESS_TAGS, EMAIL_TAGS, MEMBER_ROLES, MEMBER_STATUSES, PHONE_TAGS, PRIVACY_STATUSES, ACTIVITY_STATUSES } from './model.js';
import { compileFilter, compileSearch, compileSort, type FieldMap } from './query-filter.js';

// ─── reading rows ──────────────────────────────────────────────────────────────────────────────

/** MEMBER_COLUMNS as read. */
interface MemberRow extends Row {
  member_id: string;
  login_email: string;
  status: MemberStatus;
  role: MemberRole;
  privacy_status: PrivacyStatus;
  activity_status: ActivityStatus;
  slug: string;
  profile: Record<string, unknown> | null;
  contact: Record<string, unknown> | null;
  created_at: number;
  updated_at: number;
  last_login_at: number | null;
}

/**
 * Milliseconds since the epoch: the driver's timestamp parsing costs more than the rest of a member
 * row. In float8 (date_part), not numeric (extract, several times dearer per row); truncated to the
 * millisecond first, so the product is within rounding of a whole number and round() gives it exactly.
 * Read as UTC wall time (AT TIME ZONE 'UTC'): the same instant, and every function immutable,
 * which Citus requires in an UPDATE's RETURNING (the timestamptz forms depend on the time zone).
 */
const epochMs = (column: string) => `round(date_part('epoch', date_trunc('milliseconds', ${column} AT TIME ZONE 'UTC')) * 1000)`;

const MEMBER_COLUMNS = `m.member_id, m.login_email, m.status, m.role, m.privacy_status, m.activity_status, m.slug,
  m.profile, m.contact, ${epochMs('m.created_at')} AS created_at, ${epochMs('m.updated_at')} AS updated_at,
  ${epochMs('m.last_login_at')} AS last_login_at`;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function readImage(value: unknown): Image | undefined {
  const r = record(value);
  if (Object.keys(r).length === 0) return undefined;
  const image: Image = {};
  if (str(r.id)) image.id = str(r.id);
  if (str(r.url)) image.url = str(r.url);
  for (const key of ['height', 'width', 'offsetX', 'offsetY'] as const) {
    const n = num(r[key]);
    if (n !== undefined) image[key] = n;
  }
  return image;
}

function readProfile(value: unknown): Profile {
  const r = record(value);
  const profile: Profile = {};
  if (str(r.nickname)) profile.nickname = str(r.nickname);
  if (str(r.title)) profile.title = str(r.title);
  const photo = readImage(r.photo);
  if (photo) profile.photo = photo;
  const cover = readImage(r.cover);
  if (cover) profile.cover = cover;
  return profile;
}

function readAddress(value: unknown, index: number): Address {
  const r = record(value);
  // An address stored by the identity service may wrap its fields in `address`.
  const a = Object.keys(record(r.address)).length > 0 ? { ...record(r.address), tag: r.tag, id: r.id } : r;
  const address: Address = { id: str(a.id) ?? `address-${index}`, tag: oneOf<AddressTag>(a.tag, ADDRESS_TAGS, 'UNTAGGED') };
  for (const key of ['addressLine', 'addressLine2', 'city', 'subdivision', 'country', 'postalCode'] as const) {
    const v = str(a[key]);
    if (v) address[key] = v;
  }
  const street = record(a.streetAddress);
  if (str(street.name) || str(street.number)) address.streetAddress = definedStreet(street);
  return address;
}

function definedStreet(street: Record<string, unknown>): { name?: string; number?: string } {
  const out: { name?: string; number?: string } = {};
  if (str(street.name)) out.name = str(street.name);
  if (str(street.number)) out.number = str(street.number);
  return out;
}

function readContact(value: unknown): Contact {
  const r = record(value);
  const contact: Contact = { phones: [], emails: [], addresses: [], customFields: {} };
  for (const key of ['firstName', 'lastName', 'birthdate', 'company', 'jobTitle'] as const) {
    const v = str(r[key]);
    if (v) contact[key] = v;
  }
  if (Array.isArray(r.phones)) {
    for (const item of r.phones) {
      const phone = typeof item === 'string' ? item : str(record(item).phone);
      if (phone) contact.phones.push({ phone, tag: oneOf<PhoneTag>(record(item).tag, PHONE_TAGS, 'UNTAGGED') });
    }
  }
  if (Array.isArray(r.emails)) {
    for (const item of r.emails) {
      const email = typeof item === 'string' ? item : str(record(item).email);
      if (email) contact.emails.push({ email, tag: oneOf<EmailTag>(record(item).tag, EMAIL_TAGS, 'UNTAGGED') });
    }
  }
  if (Array.isArray(r.addresses)) contact.addresses = r.addresses.map(readAddress);
  for (const [key, raw] of Object.entries(record(r.customFields))) {
    const v: unknown = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw).value : raw;
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) contact.customFields[key] = v;
  }
  return contact;
}

function date(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

function toMember(row: MemberRow): Member {
  return {
    memberId: row.member_id,
    loginEmail: row.login_email,
    status: oneOf(row.status, MEMBER_STATUSES, 'PENDING'),
    role: oneOf(row.role, MEMBER_ROLES, 'MEMBER'),
    privacyStatus: oneOf(row.privacy_status, PRIVACY_STATUSES, 'PRIVATE'),
    activityStatus: oneOf(row.activity_status, ACTIVITY_STATUSES, 'ACTIVE'),
    slug: row.slug,
    profile: readProfile(row.profile),
    contact: readContact(row.contact),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    lastLoginAt: row.last_login_at === null ? null : date(row.last_login_at),
  };
}

// ─── members ───────────────────────────────────────────────────────────────────────────────────

const FIND_MEMBER = prepared(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.site_id = $1 AND m.member_id = $2`);
const LOCK_MEMBER = prepared(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.site_id = $1 AND m.member_id = $2 FOR UPDATE`);

export async function findMember(ctx: SiteContext, memberId: string, forUpdate = false): Promise<Member | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<MemberRow>(forUpdate ? LOCK_MEMBER : FIND_MEMBER, [siteId, memberId]);
  return rows[0] && toMember(rows[0]);
}

/** Members by id, locked when asked, in no particular order. */
export async function findMembers(ctx: SiteContext, memberIds: readonly string[], forUpdate = false): Promise<Member[]> {
  const { db: db, siteId } = ctx;
  if (memberIds.length === 0) return [];
  const rows = await db.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members m WHERE m.site_id = $1 AND m.member_id = ANY($2::text[])
     ORDER BY m.member_id${forUpdate ? ' FOR UPDATE' : ''}`,
    [siteId, memberIds],
  );
  return rows.map(toMember);
}

export interface MemberChange {
  status?: MemberStatus;
  role?: MemberRole;
  privacyStatus?: PrivacyStatus;
  activityStatus?: ActivityStatus;
  slug?: string;
  profile?: Profile;
  contact?: Contact;
  updatedAt: Date;
}

export async function updateMember(ctx: SiteContext, memberId: string, change: MemberChange): Promise<Member | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<MemberRow>(
    `UPDATE members AS m SET
       status = COALESCE($3, status), role = COALESCE($4, role), privacy_status = COALESCE($5, privacy_status),
       activity_status = COALESCE($6, activity_status), slug = COALESCE($7, slug),
       profile = COALESCE($8::jsonb, profile), contact = COALESCE($9::jsonb, contact), updated_at = $10
     WHERE site_id = $1 AND member_id = $2
     RETURNING ${MEMBER_COLUMNS}`,
    [
      siteId, memberId, change.status ?? null, change.role ?? null, change.privacyStatus ?? null, change.activityStatus ?? null,
      change.slug ?? null, change.profile ? JSON.stringify(change.profile) : null, change.contact ? JSON.stringify(change.contact) : null,
      change.updatedAt,
    ],
  );
  return rows[0] && toMember(rows[0]);
}

/** One status (or activity, or privacy) for many members at once. */
export async function updateMembersState(ctx: SiteContext, memberIds: readonly string[],
  change: { status?: MemberStatus; activityStatus?: ActivityStatus; privacyStatus?: PrivacyStatus }, now: Date,
): Promise<void> {
  const { db: tx, siteId } = ctx;
  if (memberIds.length === 0) return;
  await tx.query(
    `UPDATE members SET status = COALESCE($3, status), activity_status = COALESCE($4, activity_status),
       privacy_status = COALESCE($5, privacy_status), updated_at = $6
     WHERE site_id = $1 AND member_id = ANY($2::text[])`,
    [siteId, memberIds, change.status ?? null, change.activityStatus ?? null, change.privacyStatus ?? null, now],
  );
}

/** Deletes members and everything of theirs in this service's tables. */
export async function deleteMembers(ctx: SiteContext, memberIds: readonly string[]): Promise<string[]> {
  const { db: tx, siteId } = ctx;
  if (memberIds.length === 0) return [];
  const rows = await tx.query<{ member_id: string }>(
    'DELETE FROM members WHERE site_id = $1 AND member_id = ANY($2::text[]) RETURNING member_id', [siteId, memberIds]);
  const deleted = rows.map((r) => r.member_id);
  if (deleted.length === 0) return deleted;
  await tx.query('DELETE FROM member_follows WHERE site_id = $1 AND (follower_id = ANY($2::text[]) OR member_id = ANY($2::text[]))', [siteId, deleted]);
  await tx.query('DELETE FROM member_badge_assignments WHERE site_id = $1 AND member_id = ANY($2::text[])', [siteId, deleted]);
  await tx.query('DELETE FROM member_abouts WHERE site_id = $1 AND member_id = ANY($2::text[])', [siteId, deleted]);
  await tx.query('DELETE FROM member_reports WHERE site_id = $1 AND reported_member_id = ANY($2::text[])', [siteId, deleted]);
  return deleted;
}

export async function loginEmailTaken(ctx: SiteContext, loginEmail: string): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query('SELECT 1 FROM members WHERE site_id = $1 AND lower(login_email) = lower($2) LIMIT 1', [siteId, loginEmail]);
  return rows.length > 0;
}

/** Serialises creations of one login e-mail on one site for the rest of the transaction. */
export async function lockLoginEmail(ctx: SiteContext, loginEmail: string): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`member-email:${siteId}:${loginEmail.toLowerCase()}`]);
}

export async function slugTaken(ctx: SiteContext, slug: string): Promise<boolean> {
  const { db: db, siteId } = ctx;
  const rows = await db.query('SELECT 1 FROM members WHERE site_id = $1 AND slug = $2', [siteId, slug]);
  return rows.length > 0;
}

export async function countOwners(ctx: SiteContext): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM members WHERE site_id = $1 AND role = 'OWNER'", [siteId]);
  return rows[0].n;
}

/** Locks the site's owner rows, so two owner removals at once cannot both see "another owner left". */
export async function lockOwners(ctx: SiteContext): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query("SELECT member_id FROM members WHERE site_id = $1 AND role = 'OWNER' ORDER BY member_id FOR UPDATE", [siteId]);
}

// ─── lists and queries ─────────────────────────────────────────────────────────────────────────

const STATUS_FIELD = { kind: 'enum', public: true, sortable: true } as const;

/** The wire fields of a member that filters, sorts and searches may name. */
export const MEMBER_FIELDS: FieldMap = {
  id: { sql: 'm.member_id', kind: 'text', public: true, sortable: true },
  contactId: { sql: 'm.member_id', kind: 'text', public: true },
  loginEmail: { sql: 'm.login_email', kind: 'text', caseInsensitive: true, sortable: true, searchable: true },
  status: { ...STATUS_FIELD, sql: 'm.status', values: MEMBER_STATUSES },
  privacyStatus: { ...STATUS_FIELD, sql: 'm.privacy_status', values: PRIVACY_STATUSES },
  activityStatus: { sql: 'm.activity_status', kind: 'enum', values: ACTIVITY_STATUSES, sortable: true },
  role: { sql: 'm.role', kind: 'enum', values: MEMBER_ROLES, sortable: true },
  'contact.firstName': { sql: "(m.contact->>'firstName')", kind: 'text', sortable: true, searchable: true },
  'contact.lastName': { sql: "(m.contact->>'lastName')", kind: 'text', sortable: true, searchable: true },
  'profile.nickname': { sql: "(m.profile->>'nickname')", kind: 'text', public: true, sortable: true, searchable: true, foldedSql: 'm.nickname_key' },
  'profile.slug': { sql: 'm.slug', kind: 'text', public: true, sortable: true, searchable: true },
  'profile.title': { sql: "(m.profile->>'title')", kind: 'text', public: true, sortable: true, searchable: true },
  createdDate: { sql: 'm.created_at', kind: 'timestamp', public: true, sortable: true },
  updatedDate: { sql: 'm.updated_at', kind: 'timestamp', public: true, sortable: true },
  lastLoginDate: { sql: 'm.last_login_at', kind: 'timestamp', sortable: true },
};

export interface MemberQuery {
  filter?: unknown;
  sort?: unknown;
  search?: unknown;
  /** Admins see everyone; others see approved public members and themselves. */
  admin: boolean;
  selfId?: string;
  limit: number;
  offset: number;
  /** Wire paths for error messages. */
  paths: { filter: string; sort: string; search: string };
}

function memberWhere(siteId: string, q: Pick<MemberQuery, 'filter' | 'search' | 'admin' | 'selfId' | 'paths'>, params: unknown[]): string {
  params.push(siteId);
  const conditions = ['m.site_id = $1'];
  if (!q.admin) {
    if (q.selfId) {
      params.push(q.selfId);
      conditions.push(`((m.status = 'APPROVED' AND m.privacy_status = 'PUBLIC') OR m.member_id = $${params.length})`);
    } else {
      conditions.push("m.status = 'APPROVED' AND m.privacy_status = 'PUBLIC'");
    }
  }
  const filter = compileFilter(q.filter, MEMBER_FIELDS, params, { admin: q.admin, path: q.paths.filter });
  if (filter !== 'TRUE') conditions.push(filter);
  const search = compileSearch(q.search, MEMBER_FIELDS, params, { admin: q.admin, path: q.paths.search }, ['profile.nickname']);
  if (search !== 'TRUE') conditions.push(search);
  return conditions.join(' AND ');
}

/**
 * Query shapes (filter, sort and columns; the values are parameters) each get a named statement,
 * so PostgreSQL plans a shape once per connection rather than on every page. Callers choose the
 * shapes, so only the first MAX_PREPARED_QUERY_SHAPES are named; any other runs as plain SQL.
 */
export const MAX_PREPARED_QUERY_SHAPES = 64;
const queryShapes = new Map<string, Statement>();

export function queryStatement(text: string): Sql {
  const known = queryShapes.get(text);
  if (known) return known;
  if (queryShapes.size >= MAX_PREPARED_QUERY_SHAPES) return text;
  const statement = prepared(text);
  queryShapes.set(text, statement);
  return statement;
}

/** How many query shapes are named now (for the bound's test). */
export function preparedQueryShapes(): number {
  return queryShapes.size;
}

/**
 * One page and the total that matches, in one statement (the count is an uncorrelated subquery,
 * run once); only a page past the end needs a second query for the total.
 */
export async function queryMembers(ctx: SiteContext, q: MemberQuery): Promise<{ members: Member[]; total: number }> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [];
  const where = memberWhere(siteId, q, params);
  const orderBy = memberOrder(q);
  const rows = await db.query<MemberRow & { total: number }>(
    queryStatement(`SELECT ${MEMBER_COLUMNS}, (SELECT count(*)::int FROM members m WHERE ${where}) AS total
     FROM members m WHERE ${where} ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`),
    [...params, q.limit, q.offset],
  );
  if (rows.length > 0) return { members: rows.map(toMember), total: rows[0].total };
  if (q.offset === 0) return { members: [], total: 0 };
  const count = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM members m WHERE ${where}`, params);
  return { members: [], total: count[0].total };
}

function memberOrder(q: Pick<MemberQuery, 'sort' | 'admin' | 'paths'>): string {
  return compileSort(q.sort, MEMBER_FIELDS, { admin: q.admin, path: q.paths.sort }, 'm.member_id', 'm.created_at DESC, m.member_id DESC');
}

/**
 * A PUBLIC page shows every member alike whoever asks (see projectionFor): id, statuses UNKNOWN,
 * profile and dates. Each member's wire JSON for it is kept written in members.public_wire
 * (migration 0406), so the page is their texts joined in page order, with how many members the
 * page holds and the total that matches, in one statement (the aggregate answers one row even past
 * the end). Undefined when a member on the page has no text (see members_public_wire): that page is
 * written in JS.
 */
export async function queryPublicPage(ctx: SiteContext, q: MemberQuery): Promise<{ members: string; count: number; total: number } | undefined> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [];
  const where = memberWhere(siteId, q, params);
  const orderBy = memberOrder(q);
  const [row] = await db.query<{ members: string | null; count: number; ready: number; total: number }>(
    queryStatement(`SELECT string_agg(p.wire, ',' ORDER BY p.n) AS members, count(*)::int AS count, count(p.wire)::int AS ready,
       (SELECT count(*)::int FROM members m WHERE ${where}) AS total
     FROM (SELECT m.public_wire AS wire, row_number() OVER (ORDER BY ${orderBy}) AS n
       FROM members m WHERE ${where} ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}) p`),
    [...params, q.limit, q.offset],
  );
  if (row.ready < row.count) return undefined;
  return { members: row.members ?? '', count: row.count, total: row.total };
}

/** Every member a bulk call's filter matches (admins only), locked for the change. */
export async function lockMembersMatching(ctx: SiteContext, filter: unknown, search: unknown, limit: number): Promise<Member[]> {
  const { db: tx, siteId } = ctx;
  const params: unknown[] = [];
  const where = memberWhere(siteId, { filter, search, admin: true, paths: { filter: 'filter', sort: 'sort', search: 'search' } }, params);
  const rows = await tx.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members m WHERE ${where} ORDER BY m.member_id LIMIT $${params.length + 1} FOR UPDATE`,
    [...params, limit],
  );
  return rows.map(toMember);
}

// ─── custom field definitions ──────────────────────────────────────────────────────────────────

interface FieldRow extends Row {
  field_id: string;
  key: string;
  name: string;
  field_type: CustomFieldDefinition['fieldType'];
  social_type: CustomFieldDefinition['socialType'];
  origin: CustomFieldDefinition['origin'];
  visibility: CustomFieldDefinition['visibility'];
  section: CustomFieldDefinition['section'];
  position: number;
  hidden: boolean;
  revision: number;
  created_at: Date | string;
  updated_at: Date | string;
}

const FIELD_COLUMNS = 'field_id, key, name, field_type, social_type, origin, visibility, section, position, hidden, revision, created_at, updated_at';

function toDefinition(row: FieldRow): CustomFieldDefinition {
  return {
    fieldId: row.field_id,
    key: row.key,
    name: row.name,
    fieldType: row.field_type,
    socialType: row.social_type,
    origin: row.origin,
    visibility: row.visibility,
    section: row.section,
    position: row.position,
    hidden: row.hidden,
    revision: row.revision,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export async function listFields(ctx: SiteContext): Promise<CustomFieldDefinition[]> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<FieldRow>(
    `SELECT ${FIELD_COLUMNS} FROM member_custom_fields WHERE site_id = $1 ORDER BY section, position, created_at, field_id`, [siteId]);
  return rows.map(toDefinition);
}

export async function findField(ctx: SiteContext, fieldId: string, forUpdate = false): Promise<CustomFieldDefinition | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<FieldRow>(
    `SELECT ${FIELD_COLUMNS} FROM member_custom_fields WHERE site_id = $1 AND field_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, fieldId]);
  return rows[0] && toDefinition(rows[0]);
}

/** Inserts unless the key is taken (then undefined); built-in fields use ON CONFLICT to seed once. */
export async function insertField(ctx: SiteContext, field: CustomFieldDefinition): Promise<CustomFieldDefinition | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<FieldRow>(
    `INSERT INTO member_custom_fields (site_id, field_id, key, name, field_type, social_type, origin, visibility, section, position,
       hidden, revision, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (site_id, key) DO NOTHING
     RETURNING ${FIELD_COLUMNS}`,
    [
      siteId, field.fieldId, field.key, field.name, field.fieldType, field.socialType, field.origin, field.visibility, field.section,
      field.position, field.hidden, field.revision, field.createdAt, field.updatedAt,
    ],
  );
  return rows[0] && toDefinition(rows[0]);
}

export async function nextFieldPosition(ctx: SiteContext, section: string): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ n: number }>(
    'SELECT coalesce(max(position), -1)::int + 1 AS n FROM member_custom_fields WHERE site_id = $1 AND section = $2', [siteId, section]);
  return rows[0].n;
}

/** Writes a changed definition if its revision is still `expectedRevision` (optimistic lock). */
export async function updateField(ctx: SiteContext, field: CustomFieldDefinition, expectedRevision: number,
): Promise<CustomFieldDefinition | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<FieldRow>(
    `UPDATE member_custom_fields SET name = $4, visibility = $5, social_type = $6, hidden = $7, position = $8,
       revision = revision + 1, updated_at = $9
     WHERE site_id = $1 AND field_id = $2 AND revision = $3
     RETURNING ${FIELD_COLUMNS}`,
    [siteId, field.fieldId, expectedRevision, field.name, field.visibility, field.socialType, field.hidden, field.position, field.updatedAt],
  );
  return rows[0] && toDefinition(rows[0]);
}

export async function deleteField(ctx: SiteContext, fieldId: string, expectedRevision: number): Promise<CustomFieldDefinition | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<FieldRow>(
    `DELETE FROM member_custom_fields WHERE site_id = $1 AND field_id = $2 AND revision = $3 RETURNING ${FIELD_COLUMNS}`,
    [siteId, fieldId, expectedRevision],
  );
  return rows[0] && toDefinition(rows[0]);
}

/** Drops a deleted field's values from every member of the site that has one. */
export async function removeCustomFieldValues(ctx: SiteContext, key: string, now: Date): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query(
    `UPDATE members SET contact = contact #- ARRAY['customFields', $2::text], updated_at = $3
     WHERE site_id = $1 AND contact->'customFields' ? $2 RETURNING member_id`,
    [siteId, key, now],
  );
  return rows.length;
}

export async function setFieldPositions(ctx: SiteContext, fieldIds: readonly string[], now: Date): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE member_custom_fields f SET position = o.ord::int - 1, revision = revision + 1, updated_at = $3
     FROM unnest($2::text[]) WITH ORDINALITY AS o(field_id, ord)
     WHERE f.site_id = $1 AND f.field_id = o.field_id`,
    [siteId, fieldIds, now],
  );
}
