import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { OAuthService } from './service.js';

const TokenRequest = Type.Object({
  grantType: Type.Optional(Type.String({ maxLength: 64 })),
  grant_type: Type.Optional(Type.String({ maxLength: 64 })),
  clientId: Type.Optional(Type.String({ maxLength: 128 })),
  client_id: Type.Optional(Type.String({ maxLength: 128 })),
  refreshToken: Type.Optional(Type.String({ maxLength: 512 })),
  refresh_token: Type.Optional(Type.String({ maxLength: 512 })),
  code: Type.Optional(Type.String({ maxLength: 512 })),
  codeVerifier: Type.Optional(Type.String({ maxLength: 512 })),
  redirectUri: Type.Optional(Type.String({ maxLength: 2048 })),
  scope: Type.Optional(Type.String({ maxLength: 256 })),
  member_id: Type.Optional(Type.String({ maxLength: 128 })),
  session_token: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type TokenRequest = Static<typeof TokenRequest>;

/** Extra grants (authorization_code, authorized_client) registered by the identity service. */
export type GrantHandler = (body: TokenRequest, headers: { authorization?: string }) => Promise<unknown>;

function required(value: string | undefined, field: string): string {
  if (!value) throw ApiError.validation([{ field, rule: 'REQUIRED_FIELD', description: `${field} is required` }]);
  return value;
}

export function oauthRoutes(oauth: OAuthService, extraGrants: Map<string, GrantHandler>) {
  return async (app: FastifyInstance) => {
    for (const path of ['/oauth2/token', '/_api/oauth2/token']) {
      app.post(path, { schema: { body: TokenRequest } }, async (req) => {
        const body = req.body as TokenRequest;
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
            return handler(body, { authorization: req.headers.authorization });
          }
        }
      });
    }
  };
}
