/**
 * HTTP for the members APIs at the official paths, both as the SDK sends them to www/edge
 * (`/members/v…`) and to a custom host (`/_api/members/v…`); member reports have one form.
 * Bodega addition: `POST …/members/{id}/role {role}` (owners and API keys change roles) and
 * `POST /members/v1/member-reports/members/{memberId}/mark-as-reviewed`.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as s from './schemas.js';
import { SerialisedPage, type MemberPage, type MembersServices } from './service.js';
import { ListMembersResponse, MemberResponse } from './wire-schemas.js';
import * as F from './social-wire-schemas.js';


function both(path: string): string[] {
  return [path, `/_api${path}`];
}

/** A page already written as JSON goes out as its text (Fastify sends a JSON-typed string unchanged). */
function sendPage(reply: FastifyReply, page: MemberPage | SerialisedPage): MemberPage | FastifyReply {
  return page instanceof SerialisedPage ? reply.type('application/json; charset=utf-8').send(page.json) : page;
}


export function membersRoutes(services: MembersServices) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { members, customFields, badges, followers, reports, abouts } = services;
    // ─── members ───────────────────────────────────────────────────────────────────────────────
    for (const p of both('/members/v1/members')) {
      const byId = { params: s.IdParams };
      app.post(`${p}/my/slug`, { schema: { body: s.SlugBody, response: { 200: MemberResponse } }, config: { access: 'self' } },
        async (req) => members.updateMySlug(req.ctx, req.body.slug));
      app.post(`${p}/:id/slug`, { schema: { ...byId, body: s.SlugBody, response: { 200: MemberResponse } }, config: { access: 'staff' } },
        async (req) => members.updateMemberSlug(req.ctx, req.params.id, req.body.slug));
      app.post(`${p}/join-community`, { schema: { body: s.EmptyBody, response: { 200: MemberResponse } }, config: { access: 'self' } },
        async (req) => members.joinCommunity(req.ctx));
      app.post(`${p}/leave-community`, { schema: { body: s.EmptyBody, response: { 200: MemberResponse } }, config: { access: 'self' } },
        async (req) => members.leaveCommunity(req.ctx));
      // A visitor may ask (the docs admit visitor or member auth): the answer has no member.
      app.get(`${p}/my`, { schema: { querystring: s.FieldsetQuery, response: { 200: MemberResponse } }, config: { access: 'self-or-visitor' } },
        async (req) => req.ctx.caller.kind === 'ANONYMOUS_VISITOR' ? {} : members.getMyMember(req.ctx, req.query.fieldsets));
      app.get(`${p}/:id`, { schema: { ...byId, querystring: s.FieldsetQuery, response: { 200: MemberResponse } }, config: { access: 'shop' } },
        async (req) => members.getMember(req.ctx, req.params.id, req.query.fieldsets));
      app.get(p, { schema: { querystring: s.ListMembersQuery, response: { 200: ListMembersResponse } }, config: { access: 'shop' } },
        async (req, reply) => sendPage(reply, await members.listMembers(req.ctx, req.query)));
      app.post(`${p}/query`, { schema: { body: s.QueryMembersBody, response: { 200: ListMembersResponse } }, config: { access: 'shop' } },
        async (req, reply) => sendPage(reply, await members.queryMembers(req.ctx, req.body)));
      for (const action of ['mute', 'unmute', 'approve', 'block', 'disconnect'] as const) {
        app.post(`${p}/:id/${action}`, { schema: { ...byId, body: s.IdBody, response: { 200: MemberResponse } }, config: { access: 'staff' } },
          async (req) => members.moderate(req.ctx, req.params.id, action));
      }
      app.post(`${p}/:id/role`, { schema: { ...byId, body: s.RoleBody, response: { 200: MemberResponse } }, config: { access: 'owner' } },
        async (req) => members.changeRole(req.ctx, req.params.id, req.body.role));
      app.delete(`${p}/my`, { schema: { querystring: s.DeleteMyMemberQuery }, config: { access: 'self' } },
        async (req) => members.deleteMyMember(req.ctx, req.query.contentAssigneeId));
      app.delete(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery }, config: { access: 'staff' } },
        async (req) => members.deleteMember(req.ctx, req.params.id));
      app.post(`${p}/bulk/delete`, { schema: { body: s.BulkDeleteBody }, config: { access: 'staff' } },
        async (req) => members.bulkDeleteMembers(req.ctx, req.body.memberIds));
      app.post(`${p}/bulk/delete-by-filter`, { schema: { body: s.BulkByFilterBody }, config: { access: 'staff' } },
        async (req) => members.bulkDeleteMembersByFilter(req.ctx, req.body));
      app.post(`${p}/bulk/approve-by-filter`, { schema: { body: s.FilterOnlyBody }, config: { access: 'staff' } },
        async (req) => members.bulkModerate(req.ctx, req.body.filter, 'approve'));
      app.post(`${p}/bulk/block-by-filter`, { schema: { body: s.FilterOnlyBody }, config: { access: 'staff' } },
        async (req) => members.bulkModerate(req.ctx, req.body.filter, 'block'));
      app.post(p, { schema: { body: s.CreateMemberBody, response: { 200: MemberResponse } }, config: { access: 'staff' } },
        async (req) => members.createMember(req.ctx, req.body.member));
      app.patch(`${p}/:id`, { schema: { ...byId, body: s.UpdateMemberBody, response: { 200: MemberResponse } }, config: { access: 'self-or-staff' } },
        async (req) => members.updateMember(req.ctx, req.params.id, req.body.member));
      for (const list of ['phones', 'emails', 'addresses'] as const) {
        app.delete(`${p}/:id/${list}`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: MemberResponse } }, config: { access: 'self-or-staff' } },
          async (req) => members.clearContactList(req.ctx, req.params.id, list));
      }
    }

    // ─── custom field definitions ──────────────────────────────────────────────────────────────
    for (const p of both('/members/v1/custom-fields')) {
      const byId = { params: s.IdParams };
      app.post(p, { schema: { body: s.CustomFieldBody, response: { 200: F.CustomFieldResponse } }, config: { access: 'staff' } },
        async (req) => ({ field: await customFields.create(req.ctx, req.body.field) }));
      app.post(`${p}/order`, { schema: { body: s.FieldOrderBody, response: { 200: F.CustomFieldsOrder } }, config: { access: 'staff' } },
        async (req) => customFields.reorder(req.ctx, req.body.fieldIds, req.body.section));
      app.get(p, { schema: { querystring: s.PagingQuery, response: { 200: F.CustomFieldsPage } }, config: { access: 'shop' } },
        async (req) => customFields.list(req.ctx, req.query.paging));
      app.get(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: F.CustomFieldResponse } }, config: { access: 'shop' } },
        async (req) => ({ field: await customFields.get(req.ctx, req.params.id) }));
      app.patch(`${p}/:id`, { schema: { ...byId, body: s.CustomFieldBody, response: { 200: F.CustomFieldResponse } }, config: { access: 'staff' } },
        async (req) => ({ field: await customFields.update(req.ctx, req.params.id, req.body.field) }));
      app.delete(`${p}/:id`, { schema: { ...byId, querystring: s.RevisionQuery, response: { 200: F.Empty } }, config: { access: 'staff' } },
        async (req) => {
          await customFields.delete(req.ctx, req.params.id, req.query.revision);
          return {};
        });
      app.post(`${p}/:id/hide`, { schema: { ...byId, body: s.RevisionBody, response: { 200: F.Empty } }, config: { access: 'staff' } },
        async (req) => {
          await customFields.hide(req.ctx, req.params.id, req.body.revision);
          return {};
        });
    }

    // ─── badges ────────────────────────────────────────────────────────────────────────────────
    for (const p of both('/members/v3/badges')) {
      const byId = { params: s.IdParams };
      app.post(p, { schema: { body: s.BadgeBody, response: { 200: F.BadgeResponse } }, config: { access: 'staff' } },
        async (req) => badges.create(req.ctx, req.body.badge));
      app.get(p, { schema: { querystring: s.PagingQuery, response: { 200: F.BadgesPage } }, config: { access: 'shop' } },
        async (req) => badges.list(req.ctx, req.query.paging));
      app.post(`${p}/members`, { schema: { body: s.MemberIdsBody, response: { 200: F.MemberBadgeIds } }, config: { access: 'shop' } },
        async (req) => badges.badgesPerMember(req.ctx, req.body.memberIds));
      app.get(`${p}/members/count`, { schema: { response: { 200: F.BadgeMemberCounts } }, config: { access: 'shop' } },
        async (req) => badges.memberCounts(req.ctx));
      app.patch(`${p}/order`, { schema: { body: s.BadgeOrderBody, response: { 200: F.BadgesOrder } }, config: { access: 'staff' } },
        async (req) => badges.reorder(req.ctx, req.body.badgeIds));
      app.get(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: F.BadgeResponse } }, config: { access: 'shop' } },
        async (req) => badges.get(req.ctx, req.params.id));
      app.patch(`${p}/:id`, { schema: { ...byId, body: s.BadgeBody, response: { 200: F.BadgeResponse } }, config: { access: 'staff' } },
        async (req) => badges.update(req.ctx, req.params.id, req.body.badge));
      app.delete(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: F.Empty } }, config: { access: 'staff' } },
        async (req) => badges.delete(req.ctx, req.params.id));
      app.post(`${p}/:id/members`, { schema: { ...byId, body: s.MemberIdsBody, response: { 200: F.BadgeMemberIds } }, config: { access: 'staff' } },
        async (req) => badges.assign(req.ctx, req.params.id, req.body.memberIds));
      app.delete(`${p}/:id/members`, { schema: { ...byId, querystring: s.MemberIdsQuery, response: { 200: F.Empty } }, config: { access: 'staff' } },
        async (req) => badges.unassign(req.ctx, req.params.id, req.query.memberIds));
      app.get(`${p}/:id/members`, { schema: { ...byId, querystring: s.BadgeMembersQuery, response: { 200: F.BadgeMembersPage } }, config: { access: 'shop' } },
        async (req) => badges.listMembers(req.ctx, req.params.id, req.query.paging));
    }

    // ─── followers ─────────────────────────────────────────────────────────────────────────────
    for (const p of both('/members/v3/followers')) {
      const byMember = { params: s.MemberIdParams };
      app.get(`${p}/my`, { schema: { querystring: s.FollowQuery, response: { 200: F.FollowersPage } }, config: { access: 'self' } },
        async (req) => followers.list(req.ctx, 'my', 'followers', req.query.paging));
      app.get(`${p}/my/following`, { schema: { querystring: s.FollowQuery, response: { 200: F.FollowersPage } }, config: { access: 'self' } },
        async (req) => followers.list(req.ctx, 'my', 'following', req.query.paging));
      app.post(`${p}/my/connections`, { schema: { body: s.ConnectionsBody, response: { 200: F.MemberConnections } }, config: { access: 'self' } },
        async (req) => followers.connections(req.ctx, 'my', req.body.connectedMemberIds));
      app.post(`${p}/:memberId`, { schema: { ...byMember, body: s.FollowBody, response: { 200: F.Empty } }, config: { access: 'self' } },
        async (req) => followers.follow(req.ctx, req.params.memberId));
      app.delete(`${p}/:memberId`, { schema: { ...byMember, querystring: s.FollowQuery, response: { 200: F.Empty } }, config: { access: 'self' } },
        async (req) => followers.unfollow(req.ctx, req.params.memberId));
      app.get(`${p}/:memberId`, { schema: { ...byMember, querystring: s.FollowQuery, response: { 200: F.FollowersPage } }, config: { access: 'shop' } },
        async (req) => followers.list(req.ctx, req.params.memberId, 'followers', req.query.paging));
      app.get(`${p}/:memberId/following`, { schema: { ...byMember, querystring: s.FollowQuery, response: { 200: F.FollowersPage } }, config: { access: 'shop' } },
        async (req) => followers.list(req.ctx, req.params.memberId, 'following', req.query.paging));
      app.post(`${p}/:memberId/connections`, { schema: { ...byMember, body: s.ConnectionsBody, response: { 200: F.MemberConnections } }, config: { access: 'shop' } },
        async (req) => followers.connections(req.ctx, req.params.memberId, req.body.connectedMemberIds));
    }

    // ─── member reports (one path form: the SDK maps none) ─────────────────────────────────────
    const r = '/members/v1/member-reports';
    app.post(r, { schema: { body: s.ReportBody, response: { 200: F.MemberReportResponse } }, config: { access: 'self' } },
      async (req) => reports.report(req.ctx, req.body));
    app.post(`${r}/query`, { schema: { body: s.CursorQueryBody, response: { 200: F.MemberReportsPage } }, config: { access: 'staff' } },
      async (req) => reports.query(req.ctx, req.body.query));
    app.get(`${r}/members`, { schema: { querystring: s.CursorPagingQuery, response: { 200: F.ReportedMembersPage } }, config: { access: 'staff' } },
      async (req) => reports.listReportedMembers(req.ctx, req.query.cursorPaging));
    app.post(`${r}/members/query`, { schema: { body: s.CursorQueryBody, response: { 200: F.ReportedMembersPage } }, config: { access: 'staff' } },
      async (req) => reports.reportedMembers(req.ctx, req.body.query));
    app.delete(`${r}/members/:memberId`, { schema: { params: s.MemberIdParams, querystring: s.FollowBody, response: { 200: F.Empty } }, config: { access: 'staff' } },
      async (req) => reports.deleteReports(req.ctx, req.params.memberId));
    app.post(`${r}/members/:memberId/mark-as-reviewed`, { schema: { params: s.MemberIdParams, body: s.FollowBody, response: { 200: F.ReportedMemberResponse } }, config: { access: 'staff' } },
      async (req) => reports.markReviewed(req.ctx, req.params.memberId));

    // ─── member abouts ─────────────────────────────────────────────────────────────────────────
    for (const p of both('/members/v2/abouts')) {
      const byId = { params: s.IdParams };
      app.post(p, { schema: { body: s.AboutBody, response: { 200: F.MemberAboutResponse } }, config: { access: 'self-or-staff' } },
        async (req) => abouts.create(req.ctx, req.body.memberAbout));
      app.post(`${p}/query`, { schema: { body: s.CursorQueryBody, response: { 200: F.MemberAboutsPage } }, config: { access: 'shop' } },
        async (req) => abouts.query(req.ctx, req.body.query));
      app.get(`${p}/my`, { schema: { response: { 200: F.MyMemberAboutResponse } }, config: { access: 'self' } },
        async (req) => abouts.getMy(req.ctx));
      app.get(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: F.MemberAboutResponse } }, config: { access: 'shop' } },
        async (req) => abouts.get(req.ctx, req.params.id));
      app.patch(`${p}/:id`, { schema: { ...byId, body: s.AboutBody, response: { 200: F.MemberAboutResponse } }, config: { access: 'self-or-staff' } },
        async (req) => abouts.update(req.ctx, req.params.id, req.body.memberAbout));
      app.delete(`${p}/:id`, { schema: { ...byId, querystring: s.DeleteMemberQuery, response: { 200: F.Empty } }, config: { access: 'self-or-staff' } },
        async (req) => abouts.delete(req.ctx, req.params.id));
    }
  };
}
