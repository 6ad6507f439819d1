// The recommendations answers (@wix/ecom recommendations): they write the wire and document it.
import { Type } from 'typebox';
import { oneOf } from '../../platform/wire-schema.js';

export const AvailableAlgorithms = Type.Object({
  availableAlgorithms: Type.Array(Type.Object({
    config: Type.Object({
      name: Type.String(),
      description: Type.String(),
      algorithmType: oneOf(['RELATED_ITEMS', 'GLOBAL'] as const),
      algorithmId: Type.String(),
    }),
    appId: Type.String(),
    catalogAppIds: Type.Array(Type.String()),
  })),
}, { title: 'ListAvailableAlgorithmsResponse' });

export const RecommendationResponse = Type.Object({
  recommendation: Type.Object({
    items: Type.Array(Type.Object({ catalogItemId: Type.String(), appId: Type.String() })),
    algorithm: Type.Optional(Type.Object({ id: Type.String(), appId: Type.String() }, { description: 'The algorithm that found them; none when no algorithm found enough.' })),
  }),
}, { title: 'GetRecommendationResponse' });
