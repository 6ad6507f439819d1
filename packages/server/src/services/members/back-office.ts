// Reads for the back office (services/backoffice): the command palette's search and the CSV
// export's batches. SQL on the members table only, scoped to the context's site.
import type { SiteContext } from '../../platform/context.js';

export interface MemberRecord {
  id: string;
  loginEmail: string;
  nickname?: string;
  firstName?: string;
  lastName?: string;
  status: string;
  role: string;
  privacyStatus: string;
  activityStatus: string;
  createdDate: Date;
  lastLoginDate: Date | null;
}

interface Row {
  member_id: string;
  login_email: string;
  nickname: string | null;
  first_name: string | null;
  last_name: string | null;
  status: string;
  role: string;
  privacy_status: string;
  activity_status: string;
  created_at: Date;
  last_login_at: Date | null;
  [key: string]: unknown;
}

const COLUMNS = `m.member_id, m.login_email, m.profile->>'nickname' AS nickname, m.contact->>'firstName' AS first_name,
  m.contact->>'lastName' AS last_name, m.status, m.role, m.privacy_status, m.activity_status, m.created_at, m.last_login_at`;

function toRecord(r: Row): MemberRecord {
  return {
    id: r.member_id,
    loginEmail: r.login_email,
    ...(r.nickname ? { nickname: r.nickname } : {}),
    ...(r.first_name ? { firstName: r.first_name } : {}),
    ...(r.last_name ? { lastName: r.last_name } : {}),
    status: r.status,
    role: r.role,
    privacyStatus: r.privacy_status,
    activityStatus: r.activity_status,
    createdDate: new Date(r.created_at),
    lastLoginDate: r.last_login_at ? new Date(r.last_login_at) : null,
  };
}

/** Members whose e-mail or nickname starts with `q`. */
export async function findMembersBrief(ctx: SiteContext, q: string, limit: number): Promise<MemberRecord[]> {
  const rows = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM members m
      WHERE m.site_id = $1 AND (lower(m.login_email) LIKE $2 OR lower(m.profile->>'nickname') LIKE $2)
      ORDER BY m.created_at DESC, m.member_id LIMIT $3`,
    [ctx.siteId, `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
  );
  return rows.map(toRecord);
}

/** Every member, oldest first, a batch at a time (keyset paging). */
export async function* membersForExport(ctx: SiteContext, batch = 1000): AsyncGenerator<MemberRecord[]> {
  let after: { created: Date; id: string } | undefined;
  for (;;) {
    const params: unknown[] = [ctx.siteId, batch];
    const where = after ? `AND (m.created_at, m.member_id) > ($${params.push(after.created)}, $${params.push(after.id)})` : '';
    const rows = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM members m WHERE m.site_id = $1 ${where} ORDER BY m.created_at, m.member_id LIMIT $2`, params);
    const members = rows.map(toRecord);
    if (members.length) yield members;
    if (members.length < batch) return;
    const last = members[members.length - 1];
    after = { created: last.createdDate, id: last.id };
  }
}
