import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const MEMBERS_PAGE_SIZE = 25;

export const memberKeys = {
  all: adminKeys.members(),
  pending: (q: string) => [...memberKeys.all, 'pending', q] as const,
  list: (q: string, offset: number) => [...memberKeys.all, 'list', q, offset] as const,
};

const searchFor = (q: string) => (q ? { search: { expression: q } } : {});

/** Members waiting for the owner's approval (at most 50), under the search. */
export function usePendingMembers(q: string) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: memberKeys.pending(q),
    queryFn: () => api.members.queryMembers({ filter: { status: 'PENDING' }, paging: { limit: 50 } }, { fieldsets: ['FULL'], ...searchFor(q) }),
  });
}

/** One page of every member under the search. */
export function useMembers(q: string, offset: number) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: memberKeys.list(q, offset),
    placeholderData: keepPreviousData,
    queryFn: () => api.members.queryMembers({ paging: { limit: MEMBERS_PAGE_SIZE, offset } }, { fieldsets: ['FULL'], ...searchFor(q) }),
  });
}

export type MemberRole = 'MEMBER' | 'CONTRIBUTOR' | 'OWNER';
export type MemberAction = 'approve' | 'block' | 'mute' | 'unmute' | 'delete' | `role:${MemberRole}`;

/** Approve, block, mute, unmute, delete or change the role of a member. */
export function useMemberAction() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ member, action }: { member: Member; action: MemberAction }) => {
      const id = member._id ?? '';
      const m = api.members;
      if (action === 'approve') await m.approveMember(id);
      else if (action === 'block') await m.blockMember(id);
      else if (action === 'mute') await m.muteMember(id);
      else if (action === 'unmute') await m.unmuteMember(id);
      else if (action === 'delete') await m.deleteMember(id);
      else await m.changeMemberRole(id, action.slice(5) as MemberRole);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}
