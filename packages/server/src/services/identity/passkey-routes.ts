import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { SECURITY_PREFIX } from './factor-routes.js';
import type { IdentityService } from './service.js';
import { toWireOutcome } from './wire.js';
import { PasskeyAdded, PasskeyCeremony, PasskeyInfo, PasskeyList } from './passkeys-wire-schemas.js';
import { Done, StateMachineResponse } from './wire-schemas.js';

/** The member's own passkeys. */
export const PASSKEYS_PREFIX = `${SECURITY_PREFIX}/passkeys`;
/** Sign-in with a passkey (the hosted sign-in page), beside the member's own security calls. */
export const PASSKEY_SIGN_IN_PREFIX = '/bodega/v1/passkey-sign-in';

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const B64 = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
const Opt = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** What `@simplewebauthn/browser` answers (`PublicKeyCredential.toJSON()`); the library checks the rest. */
const CredentialBase = {
  id: B64(1400),
  rawId: B64(1400),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
  clientExtensionResults: Type.Object({
    appid: Type.Optional(Type.Boolean()),
    credProps: Type.Optional(Type.Object({ rk: Type.Optional(Type.Boolean()) })),
    hmacCreateSecret: Type.Optional(Type.Boolean()),
  }),
};
const RegistrationCredential = Type.Object({
  ...CredentialBase,
  response: Type.Object({
    clientDataJSON: B64(4000),
    attestationObject: B64(20_000),
    authenticatorData: Opt(20_000),
    transports: Type.Optional(Type.Array(Type.Union(TRANSPORTS.map((t) => Type.Literal(t))), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Opt(4000),
  }),
});
const AuthenticationCredential = Type.Object({
  ...CredentialBase,
  response: Type.Object({
    clientDataJSON: B64(4000),
    authenticatorData: B64(4000),
    signature: B64(1000),
    userHandle: Opt(200),
  }),
});

const ChallengeId = Type.String({ minLength: 1, maxLength: 100 });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const PasskeyId = Type.Object({ passkeyId: B64(1400) });
const Empty = Type.Object({});

export function registerPasskeyRoutes(app: FastifyInstance, identity: IdentityService, options: { limited: object }): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(PASSKEYS_PREFIX, { schema: { response: { 200: PasskeyList } }, config: { access: 'self' } }, async (req) => identity.listPasskeys(req.ctx));
  typed.post(`${PASSKEYS_PREFIX}/options`, { schema: { body: Empty, response: { 200: PasskeyCeremony } }, config: { access: 'self', ...options.limited } },
    async (req) => identity.passkeyRegistrationOptions(req.ctx, req.headers.host));
  typed.post(PASSKEYS_PREFIX, {
    schema: { body: Type.Object({ challengeId: ChallengeId, name: Name, credential: RegistrationCredential }), response: { 200: PasskeyAdded } },
    config: { access: 'self', ...options.limited },
  }, async (req) => ({ passkey: await identity.registerPasskey(req.ctx, req.body) }));
  typed.patch(`${PASSKEYS_PREFIX}/:passkeyId`, {
    schema: { params: PasskeyId, body: Type.Object({ name: Name }), response: { 200: Type.Object({ passkey: PasskeyInfo }) } }, config: { access: 'self' },
  }, async (req) => ({ passkey: await identity.renamePasskey(req.ctx, req.params.passkeyId, req.body.name) }));
  typed.delete(`${PASSKEYS_PREFIX}/:passkeyId`, { schema: { params: PasskeyId, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
    await identity.removePasskey(req.ctx, req.params.passkeyId);
    return {};
  });

  typed.post(`${PASSKEY_SIGN_IN_PREFIX}/options`, { schema: { body: Empty, response: { 200: PasskeyCeremony } }, config: { access: 'shop', ...options.limited } },
    async (req) => identity.passkeySignInOptions(req.ctx, req.headers.host));
  typed.post(`${PASSKEY_SIGN_IN_PREFIX}/verify`, {
    schema: { body: Type.Object({ challengeId: ChallengeId, credential: AuthenticationCredential }), response: { 200: StateMachineResponse } },
    config: { access: 'shop', ...options.limited },
  }, async (req) => {
    if (req.ctx.caller === undefined) throw ApiError.unauthenticated();
    return toWireOutcome(await identity.signInWithPasskey(req.ctx, req.body));
  });
}
