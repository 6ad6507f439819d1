import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewModerationStatus } from '@bodega/sdk';
import { useAdmin } from '../context.js';
import { adminKeys } from '../queries.js';

export const REVIEWS_LIMIT = 25;

export const reviewKeys = {
  all: adminKeys.reviews(),
  list: (status: ReviewModerationStatus | '', cursor: string | undefined) => [...reviewKeys.all, 'list', status, cursor ?? ''] as const,
  /** Product names by id: they do not change with a review, so outside the reviews' lists. */
  productNames: (ids: readonly string[]) => [...adminKeys.products(), 'names', ids] as const,
};

/** Every review of the store (any status), newest first, one cursor page at a time. */
export function useAdminReviews(status: ReviewModerationStatus | '', cursor: string | undefined) {
  const { api } = useAdmin();
  return useQuery({
    queryKey: reviewKeys.list(status, cursor),
    placeholderData: keepPreviousData,
    queryFn: () => api.reviews.queryReviews(
      cursor ? { cursorPaging: { cursor } } : {
        filter: status ? { 'moderation.moderationStatus': status } : {},
        sort: [{ fieldName: 'createdDate', order: 'DESC' }],
        cursorPaging: { limit: REVIEWS_LIMIT },
      },
      { returnPrivateReviews: true },
    ),
  });
}

/** Names of the reviewed products, by id. */
export function useProductNames(ids: readonly string[]) {
  const { api } = useAdmin();
  const unique = [...new Set(ids)].sort();
  return useQuery({
    queryKey: reviewKeys.productNames(unique),
    enabled: unique.length > 0,
    queryFn: async () => {
      const { products } = await api.products.queryProducts({ filter: { id: { $hasSome: unique } }, paging: { limit: 100 } });
      return new Map(products.map((p) => [p._id ?? '', p.name ?? '']));
    },
  });
}

type ReviewAction = { reviewId: string } & ({ kind: 'moderate'; status: 'APPROVED' | 'REJECTED' } | { kind: 'reply'; message: string } | { kind: 'remove-reply' });

/** Approve, reject, reply to or take back the reply of a review. */
export function useReviewAction() {
  const { api } = useAdmin();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: ReviewAction) => {
      if (action.kind === 'moderate') return api.reviews.moderate(action.reviewId, action.status);
      if (action.kind === 'reply') return api.reviews.setReply(action.reviewId, action.message);
      return api.reviews.removeReply(action.reviewId);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}
