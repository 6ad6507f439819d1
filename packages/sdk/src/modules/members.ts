/** `@wix/members` members. */
import { call, callVoid, enc } from '../core/generated.js';
import { MEMBERS as P } from '../core/paths.js';
import { PlatformQueryBuilder } from '../core/platform-query.js';
import type { Transport } from '../core/transport.js';
import type {
  Fieldset, ListMembersResponse, Member, MemberInput, MemberResponse, MembersOptions, SortingEntry,
} from '../types.js';

const ID = { id: '_id', '*': 'options' };
const OPTIONS = { '*': 'options' };
const member = (_id: string, suffix = ''): string => `${P}/${enc(_id)}${suffix}`;

export interface ListMembersOptions {
  paging?: { limit?: number; offset?: number };
  fieldsets?: Fieldset[];
  sorting?: SortingEntry[];
}
export interface QueryMembersRequest {
  filter?: Record<string, unknown>;
  sort?: SortingEntry[];
  paging?: { limit?: number; offset?: number };
}
type Filter = Record<string, unknown>;

export function members(t: Transport) {
  function queryMembers(): PlatformQueryBuilder<Member>;
  function queryMembers(options: MembersOptions & { search?: Record<string, unknown> }): PlatformQueryBuilder<Member>;
  function queryMembers(
    query: QueryMembersRequest,
    options?: MembersOptions & { search?: Record<string, unknown> },
  ): Promise<ListMembersResponse>;
  function queryMembers(
    first?: QueryMembersRequest | (MembersOptions & { search?: Record<string, unknown> }),
    options?: MembersOptions & { search?: Record<string, unknown> },
  ): PlatformQueryBuilder<Member> | Promise<ListMembersResponse> {
    const isQuery = first !== undefined && ('filter' in first || 'sort' in first || 'paging' in first);
    if (isQuery) {
      return call<ListMembersResponse>(t, 'POST', `${P}/query`, { query: first, ...options }, {
        args: { query: 'query', '*': 'options' },
      });
    }
    return new PlatformQueryBuilder<Member>(async (query) => {
      const body = await call<ListMembersResponse>(t, 'POST', `${P}/query`, { query, ...first }, { args: OPTIONS });
      return { items: body.members ?? [], total: body.metadata?.total };
    });
  }

  return {
    getCurrentMember: (options: MembersOptions = {}) =>
      call<MemberResponse>(t, 'GET', `${P}/my`, { ...options }, { args: OPTIONS }),
    getMember: (_id: string, options: MembersOptions = {}) =>
      call<Member>(t, 'GET', member(_id), { id: _id, ...options }, { args: ID, pick: 'member' }),
    listMembers: (options: ListMembersOptions = {}) =>
      call<ListMembersResponse>(t, 'GET', P, { ...options }, { args: OPTIONS, complex: true }),
    queryMembers,
    updateCurrentMemberSlug: (slug: string) => call<MemberResponse>(t, 'POST', `${P}/my/slug`, { slug }),
    updateMemberSlug: (_id: string, slug: string) =>
      call<MemberResponse>(t, 'POST', member(_id, '/slug'), { id: _id, slug }, { args: { id: '_id' } }),
    joinCommunity: () => call<MemberResponse>(t, 'POST', `${P}/join-community`),
    leaveCommunity: () => call<MemberResponse>(t, 'POST', `${P}/leave-community`),
    muteMember: (_id: string) => call<MemberResponse>(t, 'POST', member(_id, '/mute'), { id: _id }, { args: ID }),
    unmuteMember: (_id: string) => call<MemberResponse>(t, 'POST', member(_id, '/unmute'), { id: _id }, { args: ID }),
    approveMember: (_id: string) =>
      call<MemberResponse>(t, 'POST', member(_id, '/approve'), { id: _id }, { args: ID }),
    blockMember: (_id: string) => call<MemberResponse>(t, 'POST', member(_id, '/block'), { id: _id }, { args: ID }),
    /** Bodega addition (`POST …/members/{id}/role`): owners and API keys change roles. */
    changeMemberRole: (_id: string, role: 'MEMBER' | 'CONTRIBUTOR' | 'OWNER') =>
      call<MemberResponse>(t, 'POST', member(_id, '/role'), { role }),
    disconnectMember: (_id: string) =>
      call<MemberResponse>(t, 'POST', member(_id, '/disconnect'), { id: _id }, { args: ID }),
    deleteMember: (_id: string) => callVoid(t, 'DELETE', member(_id), { id: _id }, { args: ID }),
    deleteMyMember: (options: { contentAssigneeId?: string } = {}) =>
      callVoid(t, 'DELETE', `${P}/my`, { ...options }, { args: OPTIONS }),
    bulkDeleteMembers: (memberIds: string[]) =>
      call<{ results?: Record<string, unknown>[] }>(t, 'POST', `${P}/bulk/delete`, { memberIds }),
    bulkDeleteMembersByFilter: (
      filter: Filter,
      options: { contentAssigneeId?: string; search?: Record<string, unknown> } = {},
    ) =>
      call<{ jobId?: string }>(t, 'POST', `${P}/bulk/delete-by-filter`, { filter, ...options }, {
        args: { filter: 'filter', '*': 'options' },
      }),
    bulkApproveMembers: (filter: Filter) =>
      call<{ jobId?: string }>(t, 'POST', `${P}/bulk/approve-by-filter`, { filter }),
    bulkBlockMembers: (filter: Filter) => call<{ jobId?: string }>(t, 'POST', `${P}/bulk/block-by-filter`, { filter }),
    createMember: (options: { member?: MemberInput } = {}) =>
      call<Member>(t, 'POST', P, { ...options }, { args: OPTIONS, pick: 'member' }),
    updateMember: (_id: string, update: MemberInput) =>
      call<Member>(t, 'PATCH', member(_id), { member: { ...update, id: _id } }, {
        args: { 'member.id': '_id' },
        pick: 'member',
      }),
    deleteMemberPhones: (_id: string) =>
      call<MemberResponse>(t, 'DELETE', member(_id, '/phones'), { id: _id }, { args: ID }),
    deleteMemberEmails: (_id: string) =>
      call<MemberResponse>(t, 'DELETE', member(_id, '/emails'), { id: _id }, { args: ID }),
    deleteMemberAddresses: (_id: string) =>
      call<MemberResponse>(t, 'DELETE', member(_id, '/addresses'), { id: _id }, { args: ID }),
  };
}

