import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { BodegaError } from '../core/errors.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { digital } from './digital.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () => createClient({ modules: { digital }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url });

describe('digital.attachFile', () => {
  it('sends the file as the raw body with its type, the name in the query, and reports the bytes sent', async () => {
    receiver.reply(() => ({ body: { file: { id: 'f1', fileName: 'guide.pdf' } } }));
    const sent: number[] = [];
    const file = new Blob(['%PDF-1.4 test'], { type: 'application/pdf' });
    const answer = await client().digital.attachFile('p 1', file, { fileName: 'guide.pdf', variantId: 'v1', onProgress: (bytes) => sent.push(bytes) });
    expect(answer).toMatchObject({ id: 'f1', fileName: 'guide.pdf' });
    const [request] = receiver.requests;
    expect([request.method, request.path, request.query.get('fileName'), request.query.get('variantId')]).toEqual(['POST', '/bodega/v1/digital-products/p%201/files', 'guide.pdf', 'v1']);
    expect(request.headers['content-type']).toBe('application/pdf');
    expect(request.headers.authorization).toBe('K');
    expect(request.rawBody).toBe('%PDF-1.4 test');
    expect(sent).toEqual([file.size]);
  });

  it('turns a refusal into the error shape of every other call', async () => {
    receiver.reply(() => ({ status: 415, body: { message: 'no', details: { applicationError: { code: 'FILE_TYPE_NOT_ALLOWED', description: 'no', data: {} } } } }));
    const error = await client().digital.attachFile('p1', new Blob(['MZ'], { type: 'application/x-msdownload' }), { fileName: 'a.exe' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodegaError);
    expect((error as BodegaError).code).toBe('FILE_TYPE_NOT_ALLOWED');
  });
});

describe('digital downloads', () => {
  it('reads a member\'s downloads and asks for a guest\'s links', async () => {
    receiver.reply((request) => ({ body: request.method === 'GET' ? { downloads: [{ fileId: 'f1', url: 'https://x/d' }] } : {} }));
    expect(await client().digital.myDownloads()).toEqual([{ fileId: 'f1', url: 'https://x/d' }]);
    await client().digital.resendLinks(10001, 'a@example.com');
    expect(receiver.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['GET', '/bodega/v1/downloads/my', undefined],
      ['POST', '/bodega/v1/downloads/resend', { orderNumber: 10001, email: 'a@example.com' }],
    ]);
  });
});
