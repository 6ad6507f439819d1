// The answer of /bodega/v1/reviews/ratings: it writes the wire, documents it and is the SDK's type.
import { Type } from 'typebox';

export const RatingSummary = Type.Object({
  entityId: Type.String(),
  count: Type.Integer(),
  average: Type.String({ description: 'A decimal string to one place (`"4.5"`, `"0"` with none).' }),
}, { title: 'RatingSummary', description: "An entity's APPROVED ratings." });
export const Ratings = Type.Object({ ratings: Type.Array(RatingSummary) });
