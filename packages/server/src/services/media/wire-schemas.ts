// The answer of POST /bodega/v1/media (routes.ts): it writes the wire and documents it (openapi.json).
import { Type } from 'typebox';
import { Timestamp } from '../../platform/wire-schema.js';

export const UploadedMedia = Type.Object({
  id: Type.String({ description: 'The SHA-256 of the bytes.' }),
  url: Type.String({ description: 'The original; add `?w=` (160, 320, 640, 960, 1280, 1920) for a size in AVIF or WebP.' }),
  width: Type.Integer(),
  height: Type.Integer(),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
  fileName: Type.String(),
  createdDate: Timestamp,
}, { title: 'UploadedMedia' });

export const UploadedMediaAnswer = Type.Object({ media: UploadedMedia });
