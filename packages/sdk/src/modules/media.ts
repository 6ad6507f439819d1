/**
 * Bodega's uploaded pictures (`POST /bodega/v1/media`, the back office): the file's bytes are the
 * body; the answer names the picture by its bytes, with its real size. A size of it is the URL
 * with `?w=` (160, 320, 640, 960, 1280 or 1920), in AVIF or WebP as the browser accepts.
 */
import { BodegaError, errorFromResponse } from '../core/errors.js';
import type { Transport } from '../core/transport.js';

import type { UploadedMedia } from '../generated/back-office.js';

export type { UploadedMedia };

export interface UploadOptions {
  fileName?: string;
  /** Called as the bytes go out, with the share sent (0 to 1); uses XMLHttpRequest where there is one. */
  onProgress?: (sent: number) => void;
}

function answer(status: number, statusText: string, text: string): UploadedMedia {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (status !== 200) throw errorFromResponse(status, statusText, undefined, parsed);
  const media = (parsed as { media?: UploadedMedia } | undefined)?.media;
  if (!media) throw new BodegaError('System error occurred: the upload answered no picture', { code: 'UNKNOWN' });
  return media;
}

export function media(t: Transport) {
  return {
    /** Uploads one picture (JPEG, PNG, WebP, AVIF or GIF; the server reads the type from the bytes). */
    async upload(file: Blob, options: UploadOptions = {}): Promise<UploadedMedia> {
      const url = `${t.baseUrl}/bodega/v1/media${options.fileName ? `?fileName=${encodeURIComponent(options.fileName)}` : ''}`;
      const contentType = file.type.startsWith('image/') ? file.type : 'application/octet-stream';
      const onProgress = options.onProgress;
      if (!onProgress || typeof XMLHttpRequest === 'undefined') {
        const response = await t.fetchWithAuth(url, { method: 'POST', headers: { 'Content-Type': contentType }, body: file });
        return answer(response.status, response.statusText, await response.text());
      }
      const headers = await t.requestHeaders();
      return new Promise<UploadedMedia>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', url);
        for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
        xhr.setRequestHeader('Content-Type', contentType);
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) onProgress(e.loaded / e.total);
        };
        xhr.onload = () => {
          try {
            resolve(answer(xhr.status, xhr.statusText, xhr.responseText));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        };
        xhr.onerror = () => reject(new BodegaError('System error occurred: the upload did not reach the server', { code: 'UNKNOWN' }));
        xhr.send(file);
      });
    },
  };
}

export type MediaApi = ReturnType<typeof media>;
