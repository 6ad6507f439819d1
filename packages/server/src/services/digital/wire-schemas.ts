// The answers of /bodega/v1/digital-products and /bodega/v1/downloads (wire.ts, routes.ts).
import { Type } from 'typebox';
import { Timestamp } from '../../platform/wire-schema.js';

export const DigitalFile = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  variantId: Type.Optional(Type.String({ description: 'Absent: every variant of the product delivers the file.' })),
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ description: 'Bytes.' }),
  createdDate: Timestamp,
});

export const LinkRules = Type.Object({
  linkDays: Type.Integer({ description: 'How many days a download link works after it is issued.' }),
  maxDownloads: Type.Integer({ description: 'How many times each order line may download each file.' }),
});

export const DigitalProductAnswer = Type.Object({ files: Type.Array(DigitalFile), rules: LinkRules, maxFileBytes: Type.Integer(), allowedTypes: Type.Array(Type.String()) });
export const DigitalFileAnswer = Type.Object({ file: DigitalFile });
export const LinkRulesAnswer = Type.Object({ rules: LinkRules });
export const Empty = Type.Object({});

export const Download = Type.Object({
  orderId: Type.String(),
  orderNumber: Type.Integer(),
  lineItemId: Type.String(),
  productName: Type.String(),
  fileId: Type.String(),
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  downloadsUsed: Type.Integer(),
  maxDownloads: Type.Integer(),
  url: Type.Optional(Type.String({ description: 'A fresh signed link; absent when the file cannot be downloaded now.' })),
  expirationDate: Type.Optional(Timestamp),
  unavailable: Type.Optional(Type.Object({ code: Type.String(), description: Type.String() })),
});

export const DownloadList = Type.Object({ downloads: Type.Array(Download) });
