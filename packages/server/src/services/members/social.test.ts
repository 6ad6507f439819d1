/**
 * The social parts through the official `@wix/members` modules: badges, member followers,
 * member reports and members about.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../test/harness.js';
import {
  eventTypes, failure, membersTestApp, newMember, newSite, setRole, signIn, visitorClient, type MembersClient, type SignedInMember,
} from '../../test/members.js';

const t = membersTestApp();

describe('badges', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('defines, updates, lists, reorders and deletes badges', async () => {
    const gold = await admin.badges.createBadge({ title: 'Gold Baker', backgroundColor: '#ffd700', textColor: '#000000', description: 'Top', icon: 'https://icons.example/gold.svg' });
    expect(gold).toMatchObject({ title: 'Gold Baker', slug: 'gold-baker', backgroundColor: '#FFD700', textColor: '#000000', permissionsEnabled: false });
    expect(gold._createdDate).toBeInstanceOf(Date);
    const silver = await admin.badges.createBadge({ title: 'Silver', backgroundColor: '#C0C0C0', textColor: '#FFFFFF' });
    const twin = await admin.badges.createBadge({ title: 'Silver', backgroundColor: '#C0C0C0', textColor: '#FFFFFF' });
    expect(twin.slug).toBe('silver-2');
    const renamed = await admin.badges.updateBadge(silver._id as string, { title: 'Silver Star', permissionsEnabled: true });
    expect(renamed).toMatchObject({ title: 'Silver Star', slug: 'silver-star', backgroundColor: '#C0C0C0', permissionsEnabled: true });
    expect(await admin.badges.getBadge(gold._id as string)).toMatchObject({ _id: gold._id, title: 'Gold Baker' });
    const ordered = await admin.badges.updateBadgesDisplayOrder([twin._id as string, gold._id as string]);
    expect(ordered.badges?.map((b) => b._id)).toEqual([twin._id, gold._id, silver._id]);
    const listed = await visitorClient(site).badges.listBadges({ paging: { limit: 2 } });
    expect(listed.badges?.map((b) => b._id)).toEqual([twin._id, gold._id]);
    expect(listed.metadata).toMatchObject({ total: 3, count: 2 });
    await admin.badges.deleteBadge(twin._id as string);
    expect(await failure(admin.badges.getBadge(twin._id as string))).toMatchObject({ status: 404, code: 'BADGE_NOT_FOUND' });
    expect(await eventTypes(t, site, { entityType: 'badge' })).toEqual(expect.arrayContaining(['badge.created', 'badge.updated', 'badge.deleted']));
  });

  it('refuses a badge without a title or with a bad colour', async () => {
    expect(await failure(admin.badges.createBadge({ title: '', backgroundColor: '#FFFFFF', textColor: '#000000' }))).toMatchObject({ status: 400 });
    expect(await failure(admin.badges.createBadge({ title: 'X', backgroundColor: 'red', textColor: '#000000' }))).toMatchObject({ status: 400 });
  });

  it('assigns, lists and unassigns a badge', async () => {
    const badge = await admin.badges.createBadge({ title: 'Helper', backgroundColor: '#00AA00', textColor: '#FFFFFF' });
    const id = badge._id as string;
    const a = await newMember(admin);
    const b = await newMember(admin);
    const hidden = await newMember(admin, { public: false });
    expect((await admin.badges.assignBadge(id, [a, b, hidden])).memberIds).toEqual([a, b, hidden]);
    // Holders assigned together come in id order.
    expect((await admin.badges.listMembersByBadge(id)).memberIds).toEqual([a, b, hidden].sort());
    // A visitor sees only holders they may see.
    expect((await visitorClient(site).badges.listMembersByBadge(id)).memberIds).toEqual([a, b].sort());
    const perMember = await admin.badges.listBadgesPerMember([a, hidden]);
    expect(perMember.memberBadgeIds).toEqual([{ memberId: a, badgeIds: [id] }, { memberId: hidden, badgeIds: [id] }]);
    expect((await visitorClient(site).badges.listBadgesPerMember([a, hidden])).memberBadgeIds?.map((m) => m.memberId)).toEqual([a]);
    const counts = await admin.badges.getMemberCountsPerBadge();
    expect(counts.badgeMemberCounts?.find((c) => c.badgeId === id)?.memberCount).toBe(3);
    await admin.badges.unassignBadge(id, [b]);
    expect((await admin.badges.listMembersByBadge(id, { paging: { limit: 1, offset: 1 } })).memberIds).toEqual([[a, hidden].sort()[1]]);
    expect(await failure(admin.badges.assignBadge(id, ['00000000-0000-0000-0000-000000000009']))).toMatchObject({ status: 404, code: 'MEMBER_NOT_FOUND' });
    expect(await eventTypes(t, site, { entityType: 'badge' })).toEqual(expect.arrayContaining(['badge.assigned', 'badge.unassigned']));
  });

  it('lets only admins define or assign badges', async () => {
    const member = await signIn(t, site, await newMember(admin));
    expect(await failure(member.client.badges.createBadge({ title: 'Self-made', backgroundColor: '#FFFFFF', textColor: '#000000' }))).toMatchObject({ status: 403 });
    const badge = await admin.badges.createBadge({ title: 'Guarded', backgroundColor: '#FFFFFF', textColor: '#000000' });
    expect(await failure(member.client.badges.assignBadge(badge._id as string, [member.memberId]))).toMatchObject({ status: 403 });
    const contributorId = await newMember(admin);
    await setRole(t, site, contributorId, 'CONTRIBUTOR');
    const contributor = await signIn(t, site, contributorId, 'CONTRIBUTOR');
    expect((await contributor.client.badges.assignBadge(badge._id as string, [member.memberId])).memberIds).toEqual([member.memberId]);
  });
});

describe('followers', () => {
  let site: TestSite;
  let admin: MembersClient;
  let ann: SignedInMember;
  let bob: SignedInMember;
  let cat: SignedInMember;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
    ann = await signIn(t, site, await newMember(admin, { nickname: 'Ann' }));
    bob = await signIn(t, site, await newMember(admin, { nickname: 'Bob' }));
    cat = await signIn(t, site, await newMember(admin, { nickname: 'Cat' }));
  });

  it('follows and unfollows, with followers and following lists', async () => {
    await ann.client.memberFollowers.followMember(bob.memberId);
    await cat.client.memberFollowers.followMember(bob.memberId);
    await ann.client.memberFollowers.followMember(bob.memberId); // again: still one follow
    await bob.client.memberFollowers.followMember(ann.memberId);
    const bobsFollowers = await bob.client.memberFollowers.listCurrentMemberFollowers();
    expect(bobsFollowers.memberIds.sort()).toEqual([ann.memberId, cat.memberId].sort());
    expect((await ann.client.memberFollowers.listCurrentMemberFollowing()).memberIds).toEqual([bob.memberId]);
    expect((await visitorClient(site).memberFollowers.listMemberFollowers(bob.memberId)).memberIds).toHaveLength(2);
    expect((await visitorClient(site).memberFollowers.listMemberFollowing(ann.memberId)).memberIds).toEqual([bob.memberId]);
    await cat.client.memberFollowers.unfollowMember(bob.memberId);
    await cat.client.memberFollowers.unfollowMember(bob.memberId);
    expect((await admin.memberFollowers.listMemberFollowers(bob.memberId)).memberIds).toEqual([ann.memberId]);
    const types = await eventTypes(t, site, { entityType: 'follow' });
    expect(types.filter((e) => e === 'follow.member_followed')).toHaveLength(3);
    expect(types.filter((e) => e === 'follow.member_unfollowed')).toHaveLength(1);
  });

  it('pages follower lists by cursor', async () => {
    const star = await signIn(t, site, await newMember(admin, { nickname: 'Star' }));
    const fans: string[] = [];
    for (let i = 0; i < 5; i++) {
      const fan = await signIn(t, site, await newMember(admin));
      await fan.client.memberFollowers.followMember(star.memberId);
      fans.push(fan.memberId);
    }
    const seen: string[] = [];
    let page = await admin.memberFollowers.listMemberFollowers(star.memberId, { paging: { limit: 2 } });
    seen.push(...page.memberIds);
    while (page.metadata?.cursors?.next) {
      page = await admin.memberFollowers.listMemberFollowers(star.memberId, { paging: { limit: 2, cursor: page.metadata.cursors.next } });
      seen.push(...page.memberIds);
    }
    expect(seen.sort()).toEqual(fans.sort());
  });

  it('tells connections both ways', async () => {
    const res = await ann.client.memberFollowers.queryCurrentMemberConnections([bob.memberId, cat.memberId]);
    expect(res.connectedMembers).toEqual([
      { connectedMemberId: bob.memberId, followedByMember: true, followingMember: true },
      { connectedMemberId: cat.memberId, followedByMember: false, followingMember: false },
    ]);
    const theirs = await visitorClient(site).memberFollowers.queryMemberConnections(bob.memberId, [ann.memberId]);
    expect(theirs.connectedMembers).toEqual([{ connectedMemberId: ann.memberId, followedByMember: true, followingMember: true }]);
  });

  it('refuses following oneself or someone one cannot see', async () => {
    expect(await failure(ann.client.memberFollowers.followMember(ann.memberId))).toMatchObject({ status: 400, code: 'SELF_FOLLOW_FORBIDDEN' });
    const hidden = await newMember(admin, { public: false });
    expect(await failure(ann.client.memberFollowers.followMember(hidden))).toMatchObject({ status: 404 });
    expect(await failure(visitorClient(site).memberFollowers.listMemberFollowers(hidden))).toMatchObject({ status: 404 });
    expect(await failure(visitorClient(site).memberFollowers.followMember(ann.memberId))).toMatchObject({ status: 403 });
  });
});

describe('member reports', () => {
  let site: TestSite;
  let admin: MembersClient;
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('reports a member once while the report is open, for each reason', async () => {
    const reporter = await signIn(t, site, await newMember(admin));
    const target = await newMember(admin);
    for (const category of ['SPAM', 'IMPERSONATION', 'HARASSMENT', 'OTHER'] as const) {
      const someone = await signIn(t, site, await newMember(admin));
      const { memberReport } = await someone.client.memberReport.reportMember({ reportedMemberId: target, reason: { category, description: `${category} seen` } });
      expect(memberReport).toMatchObject({ reportedMemberId: target, reportingMemberId: someone.memberId, reason: { category } });
    }
    await reporter.client.memberReport.reportMember({ reportedMemberId: target, reason: { category: 'SPAM' } });
    expect(await failure(reporter.client.memberReport.reportMember({ reportedMemberId: target, reason: { category: 'OTHER' } })))
      .toMatchObject({ status: 409, code: 'MEMBER_ALREADY_REPORTED' });
    // Once reviewed, the report is closed and the member may be reported again.
    const reviewed = await t.app.inject({ method: 'POST', url: `/members/v1/member-reports/members/${target}/mark-as-reviewed`, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload: {} });
    expect(reviewed.json().reportedMember).toMatchObject({ reportedMemberId: target, reportCount: '5', reviewed: true });
    await reporter.client.memberReport.reportMember({ reportedMemberId: target, reason: { category: 'OTHER' } });
    expect(await eventTypes(t, site, { entityType: 'member_report' })).toEqual(expect.arrayContaining(['member_report.created', 'member_report.reported_member_created']));
  });

  it('refuses reporting oneself, a blocked member or an unknown category', async () => {
    const me = await signIn(t, site, await newMember(admin));
    expect(await failure(me.client.memberReport.reportMember({ reportedMemberId: me.memberId, reason: { category: 'SPAM' } }))).toMatchObject({ status: 400, code: 'SELF_REPORTING_FORBIDDEN' });
    const blocked = await newMember(admin);
    await admin.members.blockMember(blocked);
    expect(await failure(me.client.memberReport.reportMember({ reportedMemberId: blocked, reason: { category: 'SPAM' } }))).toMatchObject({ status: 409, code: 'CANNOT_REPORT_BLOCKED_MEMBER' });
    const target = await newMember(admin);
    expect(await failure(me.client.memberReport.reportMember({ reportedMemberId: target, reason: { category: 'UNKNOWN' } }))).toMatchObject({ status: 400 });
    expect(await failure(visitorClient(site).memberReport.reportMember({ reportedMemberId: target, reason: { category: 'SPAM' } }))).toMatchObject({ status: 403 });
  });

  it('lets admins query reports and reported members, and delete a member\'s reports', async () => {
    const { site: s, admin: a } = await newSite(t);
    const target = await newMember(a);
    const other = await newMember(a);
    for (let i = 0; i < 3; i++) {
      const reporter = await signIn(t, s, await newMember(a));
      await reporter.client.memberReport.reportMember({ reportedMemberId: target, reason: { category: 'SPAM' } });
    }
    const reporter = await signIn(t, s, await newMember(a));
    await reporter.client.memberReport.reportMember({ reportedMemberId: other, reason: { category: 'HARASSMENT' } });
    const first = await a.memberReport.queryMemberReports().eq('reportedMemberId', target).limit(2).find();
    expect(first.items).toHaveLength(2);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items).toHaveLength(1);
    expect(second.hasNext()).toBe(false);
    const reported = await a.memberReport.listReportedMembers();
    expect(reported.reportedMembers?.map((r) => [r.reportedMemberId, r.reportCount])).toEqual(expect.arrayContaining([[target, '3'], [other, '1']]));
    const queried = await a.memberReport.queryReportedMembers({ query: { filter: { reportedMemberId: other } } });
    expect(queried.reportedMembers).toHaveLength(1);
    await a.memberReport.deleteMemberReports(target);
    expect((await a.memberReport.queryMemberReports().eq('reportedMemberId', target).find()).items).toHaveLength(0);
    expect(await failure(reporter.client.memberReport.queryMemberReports().find())).toMatchObject({ status: 403 });
  });
});

describe('members about', () => {
  let site: TestSite;
  let admin: MembersClient;
  const doc = (text: string) => ({ nodes: [{ type: 'PARAGRAPH' as const, id: 'p1', nodes: [{ type: 'TEXT' as const, id: 't1', nodes: [], textData: { text, decorations: [] } }] }] });
  beforeAll(async () => {
    ({ site, admin } = await newSite(t));
  });

  it('a member writes, revises and deletes their about; others read it', async () => {
    const me = await signIn(t, site, await newMember(admin));
    const created = await me.client.membersAbout.createMemberAbout({ content: doc('Hello') });
    expect(created).toMatchObject({ memberId: me.memberId, revision: '1' });
    expect(JSON.stringify(created.content)).toContain('Hello');
    expect(await failure(me.client.membersAbout.createMemberAbout({ content: doc('Again') }))).toMatchObject({ status: 409, code: 'MEMBER_ABOUT_ALREADY_EXISTS' });
    const updated = await me.client.membersAbout.updateMemberAbout(created._id as string, { revision: '1', content: doc('Hello again') });
    expect(updated.revision).toBe('2');
    expect(await failure(me.client.membersAbout.updateMemberAbout(created._id as string, { revision: '1', content: doc('Stale') }))).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });
    expect(JSON.stringify((await visitorClient(site).membersAbout.getMemberAbout(created._id as string)).content)).toContain('Hello again');
    expect((await me.client.membersAbout.getMyMemberAbout()).memberAbout?._id).toBe(created._id);
    const found = await visitorClient(site).membersAbout.queryMemberAbouts().eq('memberId', me.memberId).find();
    expect(found.items.map((a) => a._id)).toEqual([created._id]);
    const other = await signIn(t, site, await newMember(admin));
    expect(await failure(other.client.membersAbout.updateMemberAbout(created._id as string, { revision: '2', content: doc('Mine now') }))).toMatchObject({ status: 403 });
    expect(await failure(other.client.membersAbout.deleteMemberAbout(created._id as string))).toMatchObject({ status: 403 });
    await me.client.membersAbout.deleteMemberAbout(created._id as string);
    expect((await me.client.membersAbout.getMyMemberAbout()).memberAbout).toBeUndefined();
    expect(await eventTypes(t, site, { entityType: 'member_about' })).toEqual(['member_about.created', 'member_about.updated', 'member_about.deleted']);
  });

  it('hides a private member\'s about from others and refuses bad documents', async () => {
    const hiddenId = await newMember(admin, { public: false });
    const about = await admin.membersAbout.createMemberAbout({ memberId: hiddenId, content: doc('Quiet') });
    expect(await failure(visitorClient(site).membersAbout.getMemberAbout(about._id as string))).toMatchObject({ status: 404 });
    expect((await visitorClient(site).membersAbout.queryMemberAbouts().eq('memberId', hiddenId).find()).items).toHaveLength(0);
    const me = await signIn(t, site, await newMember(admin));
    expect(await failure(me.client.membersAbout.createMemberAbout({ content: { nodes: [{ id: 'no-type' }] } }))).toMatchObject({ status: 400 });
    expect(await failure(me.client.membersAbout.createMemberAbout({ memberId: hiddenId, content: doc('Not mine') }))).toMatchObject({ status: 403 });
  });
});
