import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { DIGITAL_RULE_LIMITS } from '../../platform/field-limits.js';
import { escapeHtml } from '../../platform/mail.js';
import { registerPerIpLimit } from '../../platform/limits.js';
import { currentBuyer } from '../commerce/buyer.js';
import { ALLOWED_TYPES, MAX_FILE_BYTES, type DigitalService } from './service.js';
import { contentDisposition, parseRange } from './links.js';
import { toWireDownload, toWireFile } from './wire.js';
import { DigitalFileAnswer, DigitalProductAnswer, DownloadList, Empty, LinkRulesAnswer } from './wire-schemas.js';

const PRODUCTS = '/bodega/v1/digital-products';
const DOWNLOADS = '/bodega/v1/downloads';
const Id = Type.String({ minLength: 1, maxLength: 100 });
const ProductParams = Type.Object({ productId: Id });
const FileParams = Type.Object({ productId: Id, fileId: Id });
const UploadQuery = Type.Object({ fileName: Type.String({ minLength: 1, maxLength: 200 }), variantId: Type.Optional(Id) });
const RulesBody = Type.Object({
  linkDays: Type.Integer({ minimum: 1, maximum: DIGITAL_RULE_LIMITS.linkDays }),
  maxDownloads: Type.Integer({ minimum: 1, maximum: DIGITAL_RULE_LIMITS.maxDownloads }),
});
const ResendBody = Type.Object({ orderNumber: Type.Integer({ minimum: 1, maximum: 1e12 }), email: Type.String({ minLength: 3, maxLength: 254, format: 'email' }) });
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 400 }) });

export interface DigitalRoutesOptions {
  /** Re-requests per minute per IP, as for sign-in; read per request, 0 turns it off. */
  rateLimitPerMinute: () => number;
}

/** The back office's files and link rules, the buyer's downloads, and the download itself. */
export function digitalRoutes(digital: DigitalService, options: DigitalRoutesOptions) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const staff = { access: 'staff' } as const;

    app.get(`${PRODUCTS}/:productId`, { config: staff, schema: { params: ProductParams, response: { 200: DigitalProductAnswer } } }, async (req) => {
      const { files, rules } = await digital.productFiles(req.ctx, req.params.productId);
      return { files: files.map(toWireFile), rules, maxFileBytes: MAX_FILE_BYTES, allowedTypes: Object.keys(ALLOWED_TYPES) };
    });

    app.put(`${PRODUCTS}/:productId/rules`, { config: staff, schema: { params: ProductParams, body: RulesBody, response: { 200: LinkRulesAnswer } } }, async (req) => ({
      rules: await digital.setRules(req.ctx, req.params.productId, req.body),
    }));

    app.delete(`${PRODUCTS}/:productId/files/:fileId`, { config: staff, schema: { params: FileParams, response: { 200: Empty } } }, async (req) => {
      await digital.removeFile(req.ctx, req.params.productId, req.params.fileId);
      return {};
    });

    await app.register(uploadRoute(digital));

    app.get(`${DOWNLOADS}/my`, { config: { access: 'self' }, schema: { response: { 200: DownloadList } } }, async (req) => ({
      downloads: (await digital.myDownloads(req.ctx, currentBuyer(req.ctx))).map(toWireDownload),
    }));

    await app.register(async (scope) => {
      await registerPerIpLimit(scope, options.rateLimitPerMinute, 'download link requests');
      scope.withTypeProvider<TypeBoxTypeProvider>().post(`${DOWNLOADS}/resend`, {
        config: { access: 'shop', rateLimit: {} }, schema: { body: ResendBody, response: { 200: Empty } },
      }, async (req) => {
        // The same answer whether or not the order exists or the address is its buyer's.
        await digital.resendLinks(req.ctx, req.body.orderNumber, req.body.email);
        return {};
      });
    });

    // Public: a mailed link is opened in a browser without a token; the signed link is the credential.
    app.get(`${DOWNLOADS}/:token`, { compress: false, schema: { params: TokenParams, response: { 200: FileBody, 206: FileBody } } }, async (req, reply) => {
      try {
        return await sendDownload(digital, req, reply, req.params.token);
      } catch (error) {
        if (error instanceof ApiError && wantsHtml(req)) return sendRefusalPage(reply, error);
        throw error;
      }
    });
  };
}

/** A refused link opened in a browser: the reason as a page (an API client gets the JSON error). */
function sendRefusalPage(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.status(error.status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(errorPage(error));
}

/** A download's body: the file's bytes, streamed (documented for OpenAPI; a stream is sent as it is). */
const FileBody = Type.String({ format: 'binary', description: 'The file, or the range of it the request asked for (206)' });

/** The raw upload: the body is the file itself (its type in Content-Type), streamed to storage. */
function uploadRoute(digital: DigitalService) {
  return async (scope: FastifyInstance) => {
    const bodies = new WeakMap<FastifyRequest, Readable>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (req, payload, done) => {
      bodies.set(req, payload);
      done(null, undefined);
    });
    scope.withTypeProvider<TypeBoxTypeProvider>().post(`${PRODUCTS}/:productId/files`, {
      config: { access: 'staff' }, schema: { params: ProductParams, querystring: UploadQuery, response: { 200: DigitalFileAnswer } },
    }, async (req) => {
      const body = bodies.get(req);
      const length = req.headers['content-length'];
      if (!body) throw ApiError.validation([{ field: 'file', rule: 'MIN_SIZE', description: 'the request carries no file' }]);
      const file = await digital.attachFile(req.ctx, req.params.productId, {
        fileName: req.query.fileName,
        contentType: (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
        variantId: req.query.variantId ?? null,
        declaredSize: length === undefined ? undefined : Number(length),
        body,
      });
      return { file: toWireFile(file) };
    });
  };
}

async function sendDownload(digital: DigitalService, req: FastifyRequest, reply: FastifyReply, token: string) {
  const { file, storage } = await digital.open(token, req.method !== 'HEAD');
  const range = parseRange(req.headers.range, file.size);
  reply
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', 'bytes')
    .header('content-disposition', contentDisposition(file.fileName))
    .header('x-content-type-options', 'nosniff')
    .type(file.contentType);
  if (range.kind === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${file.size}`).type('application/json').send(
      new ApiError(416, 'RANGE_NOT_SATISFIABLE', `The file has ${file.size} bytes`).toBody());
  }
  if (range.kind === 'part') {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`).header('content-length', range.end - range.start + 1);
    return reply.send(storage.read(file.storageKey, { start: range.start, end: range.end }));
  }
  reply.header('content-length', file.size);
  return reply.send(file.size === 0 ? '' : storage.read(file.storageKey));
}

function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html');
}

/** The page a browser shows for a link that no longer works: what happened and what to do. */
function errorPage(error: ApiError): string {
  const title = error.status === 410 ? 'This download link no longer works' : 'This download is not available';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}a{color:#0b57d0}</style></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(error.message)}.</p>
<p>Signed-in buyers get fresh links on their <a href="/account/downloads">Downloads page</a>; guests can <a href="/downloads">ask for the links again</a> with the order number and e-mail.</p>
<p><small>Code: ${escapeHtml(error.code)}</small></p>
</main></body></html>
`;
}
