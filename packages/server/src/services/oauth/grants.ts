import { Type, type Static } from 'typebox';

/** The token endpoint's body, in both spellings the official SDKs send. */
export const TokenRequest = Type.Object({
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
export type GrantHandler = (body: TokenRequest, headers: { authorization?: string; userAgent?: string }) => Promise<unknown>;

