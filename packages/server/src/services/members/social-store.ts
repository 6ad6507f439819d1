/** SQL for badges, follows, member reports and member abouts; every query scoped by site_id. */
import type { SiteContext } from '../../platform/context.js';
import type { Row } from '../../platform/db.js';
import type { Badge, MemberAbout, MemberReport, ReportedMember } from './model.js';
import { compileFilter, compileSort, type FieldMap } from './query-filter.js';

function date(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Approved public members, or everyone when `admin`, or also `selfId`: the member-list rule. */
function visibleMember(alias: string, column: string, admin: boolean, selfParam: string | undefined): string {
  if (admin) return 'TRUE';
  const visible = `EXISTS (SELECT 1 FROM members v WHERE v.site_id = ${alias}.site_id AND v.member_id = ${alias}.${column}
    AND v.status = 'APPROVED' AND v.privacy_status = 'PUBLIC')`;
  return selfParam ? `(${alias}.${column} = ${selfParam} OR ${visible})` : visible;
}

// ─── badges ────────────────────────────────────────────────────────────────────────────────────

interface BadgeRow extends Row {
  badge_id: string;
  title: string;
  description: string | null;
  slug: string;
  background_color: string;
  text_color: string;
  icon: string | null;
  permissions_enabled: boolean;
  position: number;
  created_at: Date | string;
  updated_at: Date | string;
}

const BADGE_COLUMNS = 'badge_id, title, description, slug, background_color, text_color, icon, permissions_enabled, position, created_at, updated_at';

function toBadge(row: BadgeRow): Badge {
  return {
    badgeId: row.badge_id,
    title: row.title,
    description: row.description,
    slug: row.slug,
    backgroundColor: row.background_color,
    textColor: row.text_color,
    icon: row.icon,
    permissionsEnabled: row.permissions_enabled,
    position: row.position,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export async function findBadge(ctx: SiteContext, badgeId: string, forUpdate = false): Promise<Badge | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<BadgeRow>(
    `SELECT ${BADGE_COLUMNS} FROM member_badges WHERE site_id = $1 AND badge_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, badgeId]);
  return rows[0] && toBadge(rows[0]);
}

export async function listBadges(ctx: SiteContext, limit: number, offset: number): Promise<{ badges: Badge[]; total: number }> {
  const { db: db, siteId } = ctx;
  const [rows, count] = await Promise.all([
    db.query<BadgeRow>(
      `SELECT ${BADGE_COLUMNS} FROM member_badges WHERE site_id = $1 ORDER BY position, created_at, badge_id LIMIT $2 OFFSET $3`,
      [siteId, limit, offset]),
    db.query<{ total: number }>('SELECT count(*)::int AS total FROM member_badges WHERE site_id = $1', [siteId]),
  ]);
  return { badges: rows.map(toBadge), total: count[0].total };
}

export async function badgeSlugsLike(ctx: SiteContext, base: string): Promise<Set<string>> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<{ slug: string }>(
    "SELECT slug FROM member_badges WHERE site_id = $1 AND (slug = $2 OR slug LIKE $3)", [siteId, base, `${base}-%`]);
  return new Set(rows.map((r) => r.slug));
}

/** Inserts unless the slug is taken (then undefined). */
export async function insertBadge(ctx: SiteContext, badge: Badge): Promise<Badge | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<BadgeRow>(
    `INSERT INTO member_badges (site_id, badge_id, title, description, slug, background_color, text_color, icon, permissions_enabled,
       position, created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce(max(position), -1) + 1, $10, $11
       FROM member_badges WHERE site_id = $1
     ON CONFLICT (site_id, slug) DO NOTHING
     RETURNING ${BADGE_COLUMNS}`,
    [
      siteId, badge.badgeId, badge.title, badge.description, badge.slug, badge.backgroundColor, badge.textColor, badge.icon,
      badge.permissionsEnabled, badge.createdAt, badge.updatedAt,
    ],
  );
  return rows[0] && toBadge(rows[0]);
}

export async function updateBadge(ctx: SiteContext, badge: Badge): Promise<Badge | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<BadgeRow>(
    `UPDATE member_badges SET title = $3, description = $4, slug = $5, background_color = $6, text_color = $7, icon = $8,
       permissions_enabled = $9, updated_at = $10
     WHERE site_id = $1 AND badge_id = $2
     RETURNING ${BADGE_COLUMNS}`,
    [siteId, badge.badgeId, badge.title, badge.description, badge.slug, badge.backgroundColor, badge.textColor, badge.icon,
      badge.permissionsEnabled, badge.updatedAt],
  );
  return rows[0] && toBadge(rows[0]);
}

export async function deleteBadge(ctx: SiteContext, badgeId: string): Promise<string[]> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query('DELETE FROM member_badges WHERE site_id = $1 AND badge_id = $2 RETURNING badge_id', [siteId, badgeId]);
  if (rows.length === 0) return [];
  const holders = await tx.query<{ member_id: string }>(
    'DELETE FROM member_badge_assignments WHERE site_id = $1 AND badge_id = $2 RETURNING member_id', [siteId, badgeId]);
  return holders.map((r) => r.member_id);
}

export async function setBadgePositions(ctx: SiteContext, badgeIds: readonly string[], now: Date): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE member_badges b SET position = o.ord::int - 1, updated_at = $3
     FROM unnest($2::text[]) WITH ORDINALITY AS o(badge_id, ord)
     WHERE b.site_id = $1 AND b.badge_id = o.badge_id`,
    [siteId, badgeIds, now],
  );
}

/** Assigns; returns the members who did not hold the badge before. */
export async function assignBadge(ctx: SiteContext, badgeId: string, memberIds: readonly string[], now: Date): Promise<string[]> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ member_id: string }>(
    `INSERT INTO member_badge_assignments (site_id, badge_id, member_id, assigned_at)
     SELECT $1, $2, id, $4 FROM unnest($3::text[]) AS id
     ON CONFLICT DO NOTHING RETURNING member_id`,
    [siteId, badgeId, memberIds, now],
  );
  return rows.map((r) => r.member_id);
}

export async function unassignBadge(ctx: SiteContext, badgeId: string, memberIds: readonly string[]): Promise<string[]> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ member_id: string }>(
    'DELETE FROM member_badge_assignments WHERE site_id = $1 AND badge_id = $2 AND member_id = ANY($3::text[]) RETURNING member_id',
    [siteId, badgeId, memberIds],
  );
  return rows.map((r) => r.member_id);
}

export async function badgeHolders(ctx: SiteContext, badgeId: string, page: { limit: number; offset: number; admin: boolean; selfId?: string },
): Promise<{ memberIds: string[]; total: number }> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [siteId, badgeId];
  let selfParam: string | undefined;
  // An admin sees everyone: no self clause, so no unused parameter (PostgreSQL cannot type one).
  if (page.selfId && !page.admin) {
    params.push(page.selfId);
    selfParam = `$${params.length}`;
  }
  const where = `a.site_id = $1 AND a.badge_id = $2 AND ${visibleMember('a', 'member_id', page.admin, selfParam)}`;
  const [rows, count] = await Promise.all([
    db.query<{ member_id: string }>(
      `SELECT a.member_id FROM member_badge_assignments a WHERE ${where} ORDER BY a.assigned_at, a.member_id
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset]),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM member_badge_assignments a WHERE ${where}`, params),
  ]);
  return { memberIds: rows.map((r) => r.member_id), total: count[0].total };
}

export async function badgesOfMembers(ctx: SiteContext, memberIds: readonly string[]): Promise<Map<string, string[]>> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<{ member_id: string; badge_id: string }>(
    `SELECT a.member_id, a.badge_id FROM member_badge_assignments a JOIN member_badges b ON b.site_id = a.site_id AND b.badge_id = a.badge_id
     WHERE a.site_id = $1 AND a.member_id = ANY($2::text[]) ORDER BY b.position, b.created_at, a.badge_id`,
    [siteId, memberIds],
  );
  const byMember = new Map<string, string[]>();
  for (const row of rows) byMember.set(row.member_id, [...(byMember.get(row.member_id) ?? []), row.badge_id]);
  return byMember;
}

export async function badgeMemberCounts(ctx: SiteContext): Promise<{ badgeId: string; memberCount: number }[]> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<{ badge_id: string; n: number }>(
    `SELECT b.badge_id, count(a.member_id)::int AS n FROM member_badges b
     LEFT JOIN member_badge_assignments a ON a.site_id = b.site_id AND a.badge_id = b.badge_id
     WHERE b.site_id = $1 GROUP BY b.badge_id, b.position, b.created_at ORDER BY b.position, b.created_at, b.badge_id`,
    [siteId],
  );
  return rows.map((r) => ({ badgeId: r.badge_id, memberCount: r.n }));
}

// ─── follows ───────────────────────────────────────────────────────────────────────────────────

/** True when the follow is new. */
export async function follow(ctx: SiteContext, followerId: string, memberId: string, now: Date): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query(
    `INSERT INTO member_follows (site_id, follower_id, member_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING member_id`,
    [siteId, followerId, memberId, now],
  );
  return rows.length === 1;
}

/** True when there was a follow to end. */
export async function unfollow(ctx: SiteContext, followerId: string, memberId: string): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query(
    'DELETE FROM member_follows WHERE site_id = $1 AND follower_id = $2 AND member_id = $3 RETURNING member_id', [siteId, followerId, memberId]);
  return rows.length === 1;
}

/**
 * `direction` followers: who follows memberId; following: whom memberId follows. Newest first;
 * limit + 1 rows so the caller knows whether a next page exists.
 */
export async function followList(ctx: SiteContext, memberId: string, direction: 'followers' | 'following',
  page: { limit: number; offset: number; admin: boolean; selfId?: string },
): Promise<string[]> {
  const { db: db, siteId } = ctx;
  const [match, other] = direction === 'followers' ? ['member_id', 'follower_id'] : ['follower_id', 'member_id'];
  const params: unknown[] = [siteId, memberId];
  let selfParam: string | undefined;
  // An admin sees everyone: no self clause, so no unused parameter (PostgreSQL cannot type one).
  if (page.selfId && !page.admin) {
    params.push(page.selfId);
    selfParam = `$${params.length}`;
  }
  const rows = await db.query<{ id: string }>(
    `SELECT f.${other} AS id FROM member_follows f
     WHERE f.site_id = $1 AND f.${match} = $2 AND ${visibleMember('f', other, page.admin, selfParam)}
     ORDER BY f.created_at DESC, f.${other} DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit + 1, page.offset],
  );
  return rows.map((r) => r.id);
}

export async function connections(ctx: SiteContext, memberId: string, others: readonly string[],
): Promise<{ followedBy: Set<string>; following: Set<string> }> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<{ follower_id: string; member_id: string }>(
    `SELECT follower_id, member_id FROM member_follows
     WHERE site_id = $1 AND ((follower_id = $2 AND member_id = ANY($3::text[])) OR (member_id = $2 AND follower_id = ANY($3::text[])))`,
    [siteId, memberId, others],
  );
  const followedBy = new Set<string>();
  const following = new Set<string>();
  for (const row of rows) {
    if (row.follower_id === memberId) followedBy.add(row.member_id);
    else following.add(row.follower_id);
  }
  return { followedBy, following };
}

// ─── reports ───────────────────────────────────────────────────────────────────────────────────

interface ReportRow extends Row {
  report_id: string;
  reported_member_id: string;
  reporting_member_id: string;
  category: MemberReport['category'];
  description: string | null;
  created_at: Date | string;
  reviewed_at: Date | string | null;
}

const REPORT_COLUMNS = 'report_id, reported_member_id, reporting_member_id, category, description, created_at, reviewed_at';

function toReport(row: ReportRow): MemberReport {
  return {
    reportId: row.report_id,
    reportedMemberId: row.reported_member_id,
    reportingMemberId: row.reporting_member_id,
    category: row.category,
    description: row.description,
    createdAt: date(row.created_at),
    reviewedAt: row.reviewed_at ? date(row.reviewed_at) : null,
  };
}

/** Inserts unless the reporter already has an open report on the member (then undefined). */
export async function insertReport(ctx: SiteContext, report: MemberReport): Promise<MemberReport | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<ReportRow>(
    `INSERT INTO member_reports (site_id, report_id, reported_member_id, reporting_member_id, category, description, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (site_id, reported_member_id, reporting_member_id) WHERE reviewed_at IS NULL DO NOTHING
     RETURNING ${REPORT_COLUMNS}`,
    [siteId, report.reportId, report.reportedMemberId, report.reportingMemberId, report.category, report.description, report.createdAt],
  );
  return rows[0] && toReport(rows[0]);
}

export async function countReports(ctx: SiteContext, memberId: string): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM member_reports WHERE site_id = $1 AND reported_member_id = $2', [siteId, memberId]);
  return rows[0].n;
}

export const REPORT_FIELDS: FieldMap = {
  id: { sql: 'r.report_id', kind: 'text', sortable: true },
  reportedMemberId: { sql: 'r.reported_member_id', kind: 'text', sortable: true },
  reportingMemberId: { sql: 'r.reporting_member_id', kind: 'text', sortable: true },
  'reason.category': { sql: 'r.category', kind: 'enum', values: ['SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'], sortable: true },
  createdDate: { sql: 'r.created_at', kind: 'timestamp', sortable: true },
};

export async function queryReports(ctx: SiteContext, q: { filter: unknown; sort: unknown; limit: number; offset: number },
): Promise<MemberReport[]> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [siteId];
  const where = compileFilter(q.filter, REPORT_FIELDS, params, { admin: true, path: 'query.filter' });
  const orderBy = compileSort(q.sort, REPORT_FIELDS, { admin: true, path: 'query.sort' }, 'r.report_id', 'r.created_at DESC, r.report_id DESC');
  const rows = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM member_reports r WHERE r.site_id = $1 AND ${where} ORDER BY ${orderBy}
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit + 1, q.offset],
  );
  return rows.map(toReport);
}

export const REPORTED_MEMBER_FIELDS: FieldMap = {
  reportedMemberId: { sql: 'g.reported_member_id', kind: 'text', sortable: true },
  lastReportDate: { sql: 'g.last_report_at', kind: 'timestamp', sortable: true },
};

/** Reported members with their count of reports, newest report first; limit + 1 rows. */
export async function reportedMembers(ctx: SiteContext, q: { filter: unknown; sort: unknown; limit: number; offset: number },
): Promise<ReportedMember[]> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [siteId];
  const where = compileFilter(q.filter, REPORTED_MEMBER_FIELDS, params, { admin: true, path: 'query.filter' });
  const orderBy = compileSort(q.sort, REPORTED_MEMBER_FIELDS, { admin: true, path: 'query.sort' }, 'g.reported_member_id',
    'g.last_report_at DESC, g.reported_member_id DESC');
  const rows = await db.query<{ reported_member_id: string; n: number; open: number; last_report_at: Date | string }>(
    `SELECT * FROM (
       SELECT reported_member_id, count(*)::int AS n, count(*) FILTER (WHERE reviewed_at IS NULL)::int AS open,
         max(created_at) AS last_report_at
       FROM member_reports WHERE site_id = $1 GROUP BY reported_member_id
     ) g WHERE ${where} ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit + 1, q.offset],
  );
  return rows.map((r) => ({ reportedMemberId: r.reported_member_id, reportCount: r.n, reviewed: r.open === 0, lastReportAt: date(r.last_report_at) }));
}

export async function reportedMember(ctx: SiteContext, memberId: string): Promise<ReportedMember | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<{ n: number; open: number; last_report_at: Date | string | null }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE reviewed_at IS NULL)::int AS open, max(created_at) AS last_report_at
     FROM member_reports WHERE site_id = $1 AND reported_member_id = $2`,
    [siteId, memberId],
  );
  const row = rows[0];
  if (!row || row.n === 0 || !row.last_report_at) return undefined;
  return { reportedMemberId: memberId, reportCount: row.n, reviewed: row.open === 0, lastReportAt: date(row.last_report_at) };
}

export async function markReportsReviewed(ctx: SiteContext, memberId: string, now: Date): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query(
    'UPDATE member_reports SET reviewed_at = $3 WHERE site_id = $1 AND reported_member_id = $2 AND reviewed_at IS NULL RETURNING report_id',
    [siteId, memberId, now],
  );
  return rows.length;
}

export async function deleteReports(ctx: SiteContext, memberId: string): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query('DELETE FROM member_reports WHERE site_id = $1 AND reported_member_id = $2 RETURNING report_id', [siteId, memberId]);
  return rows.length;
}

// ─── abouts ────────────────────────────────────────────────────────────────────────────────────

interface AboutRow extends Row {
  about_id: string;
  member_id: string;
  revision: number;
  content: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

const ABOUT_COLUMNS = 'a.about_id, a.member_id, a.revision, a.content, a.created_at, a.updated_at';

function toAbout(row: AboutRow): MemberAbout {
  return {
    aboutId: row.about_id,
    memberId: row.member_id,
    revision: row.revision,
    content: row.content,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export async function findAbout(ctx: SiteContext, aboutId: string, forUpdate = false): Promise<MemberAbout | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<AboutRow>(
    `SELECT ${ABOUT_COLUMNS} FROM member_abouts a WHERE a.site_id = $1 AND a.about_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, aboutId]);
  return rows[0] && toAbout(rows[0]);
}

export async function findAboutOfMember(ctx: SiteContext, memberId: string): Promise<MemberAbout | undefined> {
  const { db: db, siteId } = ctx;
  const rows = await db.query<AboutRow>(`SELECT ${ABOUT_COLUMNS} FROM member_abouts a WHERE a.site_id = $1 AND a.member_id = $2`, [siteId, memberId]);
  return rows[0] && toAbout(rows[0]);
}

/** Inserts unless the member already has an about (then undefined). */
export async function insertAbout(ctx: SiteContext, about: MemberAbout): Promise<MemberAbout | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<AboutRow>(
    `INSERT INTO member_abouts AS a (site_id, about_id, member_id, revision, content, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
     ON CONFLICT (site_id, member_id) DO NOTHING RETURNING ${ABOUT_COLUMNS}`,
    [siteId, about.aboutId, about.memberId, about.revision, JSON.stringify(about.content), about.createdAt, about.updatedAt],
  );
  return rows[0] && toAbout(rows[0]);
}

/** Writes new content if the revision is still `expectedRevision` (optimistic lock). */
export async function updateAbout(ctx: SiteContext, aboutId: string, expectedRevision: number, content: Record<string, unknown>, now: Date,
): Promise<MemberAbout | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<AboutRow>(
    `UPDATE member_abouts AS a SET content = $4::jsonb, revision = revision + 1, updated_at = $5
     WHERE site_id = $1 AND about_id = $2 AND revision = $3 RETURNING ${ABOUT_COLUMNS}`,
    [siteId, aboutId, expectedRevision, JSON.stringify(content), now],
  );
  return rows[0] && toAbout(rows[0]);
}

export async function deleteAbout(ctx: SiteContext, aboutId: string): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query('DELETE FROM member_abouts WHERE site_id = $1 AND about_id = $2 RETURNING about_id', [siteId, aboutId]);
  return rows.length === 1;
}

export const ABOUT_FIELDS: FieldMap = {
  id: { sql: 'a.about_id', kind: 'text', public: true, sortable: true },
  memberId: { sql: 'a.member_id', kind: 'text', public: true, sortable: true },
  createdDate: { sql: 'a.created_at', kind: 'timestamp', public: true, sortable: true },
  updatedDate: { sql: 'a.updated_at', kind: 'timestamp', public: true, sortable: true },
};

/** Abouts of members the viewer may see; limit + 1 rows. */
export async function queryAbouts(ctx: SiteContext, q: { filter: unknown; sort: unknown; limit: number; offset: number; admin: boolean; selfId?: string },
): Promise<MemberAbout[]> {
  const { db: db, siteId } = ctx;
  const params: unknown[] = [siteId];
  let selfParam: string | undefined;
  if (q.selfId && !q.admin) {
    params.push(q.selfId);
    selfParam = `$${params.length}`;
  }
  const where = compileFilter(q.filter, ABOUT_FIELDS, params, { admin: q.admin, path: 'query.filter' });
  const orderBy = compileSort(q.sort, ABOUT_FIELDS, { admin: q.admin, path: 'query.sort' }, 'a.about_id', 'a.created_at DESC, a.about_id DESC');
  const rows = await db.query<AboutRow>(
    `SELECT ${ABOUT_COLUMNS} FROM member_abouts a
     WHERE a.site_id = $1 AND ${visibleMember('a', 'member_id', q.admin, selfParam)} AND ${where}
     ORDER BY ${orderBy} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit + 1, q.offset],
  );
  return rows.map(toAbout);
}
