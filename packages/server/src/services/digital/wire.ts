// Digital files and downloads on the wire (the schemas are in wire-schemas.ts).
import type { Download, DigitalFile } from './service.js';

export function toWireFile(file: DigitalFile) {
  return {
    id: file.id, productId: file.productId, ...(file.variantId && { variantId: file.variantId }), fileName: file.fileName,
    contentType: file.contentType, size: file.size, createdDate: file.createdDate.toISOString(),
  };
}

export function toWireDownload(d: Download) {
  return {
    orderId: d.grant.orderId, orderNumber: d.grant.orderNumber, lineItemId: d.grant.lineItemId, productName: d.grant.productName,
    fileId: d.file.id, fileName: d.file.fileName, contentType: d.file.contentType, size: d.file.size,
    downloadsUsed: d.grant.downloads, maxDownloads: d.grant.maxDownloads,
    ...(d.url && { url: d.url }), ...(d.expiresAt && { expirationDate: d.expiresAt.toISOString() }),
    ...(d.blocked && { unavailable: { code: d.blocked.code, description: d.blocked.message } }),
  };
}
