/**
 * Member reports: a member reports another (SPAM, IMPERSONATION, HARASSMENT, OTHER); one open
 * report per reporter and member, enforced by a partial unique index. Owners review or delete.
 */
import type { Static } from 'typebox';
import type { RequestContext } from '../../platform/caller.js';
import { withTransaction } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { currentViewer, memberNotFound, requireAdmin, requireSelf } from './actors.js';
import { canSee } from './access.js';
import { cursorMetadata, cursorPage, type CursorRequest } from './paging.js';
import type { CursorQueryInput, ReportBody } from './schemas.js';
import * as social from './social-store.js';
import { toWireReport, toWireReportedMember } from './social-wire.js';
import type { MemberReportResponse, MemberReportsPage, ReportedMemberResponse, ReportedMembersPage } from './social-wire-schemas.js';
import * as store from './store.js';

export class ReportsService {
  async report(ctx: RequestContext, body: ReportBody): Promise<Static<typeof MemberReportResponse>> {
    const self = await requireSelf(ctx, { active: true });
    const { reportedMemberId, reason } = body.memberReport;
    if (reportedMemberId === self.memberId) {
      throw new ApiError(400, 'SELF_REPORTING_FORBIDDEN', 'A member cannot report themself', { memberId: reportedMemberId });
    }
    const viewer = await currentViewer(ctx);
    const report = await withTransaction(ctx, async (tx) => {
      const target = await store.findMember(tx, reportedMemberId);
      if (target?.status === 'BLOCKED') {
        throw new ApiError(409, 'CANNOT_REPORT_BLOCKED_MEMBER', 'The member is already blocked', { memberId: reportedMemberId });
      }
      if (!target || !canSee(viewer, target)) throw memberNotFound(reportedMemberId);
      const created = await social.insertReport(tx, {
        reportId: newId(), reportedMemberId, reportingMemberId: self.memberId, category: reason.category,
        description: reason.description?.trim() || null, createdAt: ctx.now(), reviewedAt: null,
      });
      if (!created) {
        throw new ApiError(409, 'MEMBER_ALREADY_REPORTED', 'You have an open report on this member', { memberId: reportedMemberId });
      }
      await recordEvent(tx, { siteId: ctx.siteId, type: 'member_report.created', entityType: 'member_report', entityId: created.reportId, payload: { memberReport: toWireReport(created) } });
      if ((await social.countReports(tx, reportedMemberId)) === 1) {
        await recordEvent(tx, {
          siteId: ctx.siteId, type: 'member_report.reported_member_created', entityType: 'member_report', entityId: reportedMemberId,
          payload: { reportedMember: { reportedMemberId, reportCount: '1', reviewed: false, lastReportDate: created.createdAt.toISOString() } },
        });
      }
      return created;
    });
    return { memberReport: toWireReport(report) };
  }

  async query(ctx: RequestContext, query: CursorQueryInput | undefined): Promise<Static<typeof MemberReportsPage>> {
    await requireAdmin(ctx);
    const page = cursorPage(query?.cursorPaging ?? query?.paging, 'query.cursorPaging', { filter: query?.filter, sort: query?.sort ?? query?.sorting });
    const rows = await social.queryReports(ctx, { filter: page.filter, sort: page.sort, limit: page.limit, offset: page.offset });
    const { items, metadata } = cursorMetadata(page, rows);
    return { memberReports: items.map(toWireReport), pagingMetadata: metadata };
  }

  async reportedMembers(ctx: RequestContext, query: CursorQueryInput | undefined): Promise<Static<typeof ReportedMembersPage>> {
    await requireAdmin(ctx);
    const page = cursorPage(query?.cursorPaging ?? query?.paging, 'query.cursorPaging', { filter: query?.filter, sort: query?.sort ?? query?.sorting });
    const rows = await social.reportedMembers(ctx, { filter: page.filter, sort: page.sort, limit: page.limit, offset: page.offset });
    const { items, metadata } = cursorMetadata(page, rows);
    return { reportedMembers: items.map(toWireReportedMember), pagingMetadata: metadata };
  }

  async listReportedMembers(ctx: RequestContext, cursorPaging: CursorRequest | undefined): Promise<Static<typeof ReportedMembersPage>> {
    return this.reportedMembers(ctx, { cursorPaging: cursorPaging as CursorQueryInput['cursorPaging'] });
  }

  /** Closes a member's open reports, so their reporters may report again. */
  async markReviewed(ctx: RequestContext, memberId: string): Promise<Static<typeof ReportedMemberResponse>> {
    await requireAdmin(ctx);
    const reported = await withTransaction(ctx, async (tx) => {
      const reviewed = await social.markReportsReviewed(tx, memberId, ctx.now());
      const summary = await social.reportedMember(tx, memberId);
      if (!summary) throw ApiError.notFound('MEMBER_REPORTS_NOT_FOUND', `No reports on member ${memberId}`, { memberId });
      if (reviewed > 0) {
        await recordEvent(tx, { siteId: ctx.siteId, type: 'member_report.reviewed', entityType: 'member_report', entityId: memberId, payload: { reportedMember: toWireReportedMember(summary) } });
      }
      return summary;
    });
    return { reportedMember: toWireReportedMember(reported) };
  }

  async deleteReports(ctx: RequestContext, memberId: string): Promise<Record<string, never>> {
    await requireAdmin(ctx);
    await withTransaction(ctx, async (tx) => {
      const deleted = await social.deleteReports(tx, memberId);
      if (deleted > 0) {
        await recordEvent(tx, { siteId: ctx.siteId, type: 'member_report.reported_member_deleted', entityType: 'member_report', entityId: memberId, payload: { reportedMemberId: memberId, reportsDeleted: deleted } });
      }
    });
    return {};
  }
}
