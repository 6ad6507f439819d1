// Review → @wix/reviews wire (REST names: `id`, `createdDate`; the SDK renames them).
import type { Review } from './store.js';

export function toWireReview(r: Review) {
  return {
    id: r.id,
    namespace: r.namespace,
    entityId: r.entityId,
    content: { ...(r.title !== null ? { title: r.title } : {}), ...(r.body !== null ? { body: r.body } : {}), media: r.media, rating: r.rating },
    createdDate: r.createdDate.toISOString(),
    updatedDate: r.updatedDate.toISOString(),
    author: { contactId: r.author.id, ...(r.author.name !== null ? { authorName: r.author.name } : {}) },
    ...(r.reply ? { reply: { message: r.reply.message, createdDate: r.reply.createdDate.toISOString(), updatedDate: r.reply.updatedDate.toISOString() } } : {}),
    foundHelpful: 0,
    foundUnhelpful: 0,
    helpfulness: 0,
    moderation: { moderationStatus: r.status, manuallyChanged: r.manuallyChanged },
    revision: String(r.revision),
    verified: r.verified,
    origin: { type: 'ORGANIC' as const },
    reviewDate: r.createdDate.toISOString(),
    publishCount: r.status === 'APPROVED' ? 1 : 0,
  };
}
