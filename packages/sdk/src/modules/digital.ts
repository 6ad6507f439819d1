/**
 * Bodega's digital goods (`/bodega/v1/digital-products`, `/bodega/v1/downloads`): the back office's
 * files and link rules, a member's downloads with fresh links, and a guest's request for the links.
 */
import { enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

export interface DigitalFile {
  id: string;
  productId: string;
  /** Absent: every variant of the product delivers the file. */
  variantId?: string;
  fileName: string;
  contentType: string;
  /** Bytes. */
  size: number;
  createdDate: string;
}

export interface DownloadRules {
  /** Days a link works after it is issued (default 7). */
  linkDays: number;
  /** Downloads per order line and file (default 5). */
  maxDownloads: number;
}

export interface DigitalProduct {
  files: DigitalFile[];
  rules: DownloadRules;
  maxFileBytes: number;
  allowedTypes: string[];
}

export interface Download {
  orderId: string;
  orderNumber: number;
  lineItemId: string;
  productName: string;
  fileId: string;
  fileName: string;
  contentType: string;
  size: number;
  downloadsUsed: number;
  maxDownloads: number;
  /** A fresh signed link; absent when the file cannot be downloaded now (see `unavailable`). */
  url?: string;
  expirationDate?: string;
  unavailable?: { code: string; description: string };
}

const P = '/bodega/v1/digital-products';

export function digital(t: Transport) {
  return {
    /** A member's files, each with a fresh link. */
    myDownloads: async () => (await t.send<{ downloads: Download[] }>({ method: 'GET', path: '/bodega/v1/downloads/my' })).downloads,
    /** A guest's request: the links are mailed to the order's address if it is the one given; the answer is the same either way. */
    resendLinks: async (orderNumber: number, email: string) => {
      await t.send<Record<string, never>>({ method: 'POST', path: '/bodega/v1/downloads/resend', payload: { orderNumber, email } });
    },

    product: (productId: string) => t.send<DigitalProduct>({ method: 'GET', path: `${P}/${enc(productId)}` }),
    /** Uploads a file (the body is the file); `onProgress` reports the bytes sent. */
    attachFile: async (productId: string, file: Blob & { name?: string }, options: { fileName?: string; variantId?: string; onProgress?: (sent: number, total: number) => void } = {}) => {
      const query = new URLSearchParams({ fileName: options.fileName ?? file.name ?? 'file' });
      if (options.variantId) query.set('variantId', options.variantId);
      const answer = await t.upload<{ file: DigitalFile }>({
        path: `${P}/${enc(productId)}/files`, query: query.toString(), body: file, contentType: file.type || 'application/octet-stream',
        ...(options.onProgress && { onProgress: options.onProgress }),
      });
      return answer.file;
    },
    removeFile: async (productId: string, fileId: string) => {
      await t.send<Record<string, never>>({ method: 'DELETE', path: `${P}/${enc(productId)}/files/${enc(fileId)}` });
    },
    setRules: async (productId: string, rules: DownloadRules) =>
      (await t.send<{ rules: DownloadRules }>({ method: 'PUT', path: `${P}/${enc(productId)}/rules`, payload: { ...rules } })).rules,
  };
}

export type DigitalApi = ReturnType<typeof digital>;
