import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BACK_OFFICE } from '../../platform/caller.js';
import type { StoredMail } from '../../platform/mail.js';
import type { ApiKeyInfo } from '../sites/service.js';
import type { BackOfficeService } from './service.js';

export const PREFIX = '/bodega/v1';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParams = Type.Object({ id: Id });
const MailStatus = Type.Union(['STORED', 'QUEUED', 'SENDING', 'SENT', 'FAILED'].map((s) => Type.Literal(s as 'STORED' | 'QUEUED' | 'SENDING' | 'SENT' | 'FAILED')));
const MailQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(MailStatus),
}, { additionalProperties: false });
const CreateKeyBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

function wireKey(k: ApiKeyInfo) {
  return { id: k.id, name: k.name, ...(k.prefix ? { prefix: k.prefix } : {}), createdDate: k.createdDate.toISOString() };
}

function wireMailSummary(m: StoredMail) {
  return {
    id: m.mailId,
    kind: m.kind,
    to: m.to,
    subject: m.subject,
    status: m.status,
    createdDate: m.createdDate.toISOString(),
    ...(m.sentDate ? { sentDate: m.sentDate.toISOString() } : {}),
    ...(m.lastError ? { error: m.lastError } : {}),
  };
}

const tags = ['back office'];

export function backOfficeRoutes(backOffice: BackOfficeService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const config = { callers: BACK_OFFICE };

    app.get(`${PREFIX}/me`, { config, schema: { tags, summary: 'Who is signed in to the back office, their role and the site' } }, async (req) => backOffice.me(req.ctx));

    app.get(`${PREFIX}/api-keys`, { config, schema: { tags, summary: "The site's API keys (owner and API keys only)" } }, async (req) => ({
      apiKeys: (await backOffice.listApiKeys(req.ctx)).map(wireKey),
    }));
    app.post(`${PREFIX}/api-keys`, { config, schema: { tags, summary: 'Creates an API key; the answer holds the secret this once', body: CreateKeyBody } }, async (req) => {
      const { apiKey, key } = await backOffice.createApiKey(req.ctx, req.body.name);
      return { apiKey: wireKey(apiKey), key };
    });
    app.delete(`${PREFIX}/api-keys/:id`, { config, schema: { tags, summary: 'Revokes an API key', params: IdParams } }, async (req) => {
      await backOffice.revokeApiKey(req.ctx, req.params.id);
      return {};
    });

    app.get(`${PREFIX}/mail-outbox`, { config, schema: { tags, summary: "The site's mail, newest first", querystring: MailQuery } }, async (req) => {
      const page = await backOffice.listMails(req.ctx, { limit: req.query.limit ?? 50, cursor: req.query.cursor, status: req.query.status });
      return { mails: page.mails.map(wireMailSummary), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });
    app.get(`${PREFIX}/mail-outbox/:id`, { config, schema: { tags, summary: 'One mail with its text and HTML', params: IdParams } }, async (req) => {
      const mail = await backOffice.getMail(req.ctx, req.params.id);
      return { mail: { ...wireMailSummary(mail), text: mail.text, html: mail.html } };
    });
  };
}
