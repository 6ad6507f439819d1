import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../../platform/errors.js';
import type { OAuthService } from './service.js';
import { TokenRequest, type GrantHandler } from './grants.js';

function required(value: string | undefined, field: string): string {
  if (!value) throw ApiError.validation([{ field, rule: 'REQUIRED_FIELD', description: `${field} is required` }]);
  return value;
}

export function oauthRoutes(oauth: OAuthService, extraGrants: Map<string, GrantHandler>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of ['/oauth2/token', '/_api/oauth2/token']) {
      app.post(path, { schema: { body: TokenRequest } }, async (req) => {
        const body = req.body;
        const grantType = body.grantType ?? body.grant_type;
        const clientId = body.clientId ?? body.client_id;
        switch (grantType) {
          case 'anonymous':
            return oauth.anonymousGrant(required(clientId, 'clientId'));
          case 'refresh_token':
            return oauth.refreshGrant(clientId || undefined, required(body.refreshToken ?? body.refresh_token, 'refreshToken'));
          case undefined:
            throw ApiError.validation([{ field: 'grantType', rule: 'REQUIRED_FIELD', description: 'grantType is required' }]);
          default: {
            const handler = extraGrants.get(grantType);
            if (!handler) throw new ApiError(400, 'UNSUPPORTED_GRANT_TYPE', `Grant type "${grantType}" is not supported`);
            return handler(body, { authorization: req.headers.authorization, userAgent: req.headers['user-agent'] });
          }
        }
      });
    }
  };
}
