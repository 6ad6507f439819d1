import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { readCookie } from '../../platform/cookies.js';
import { ApiError } from '../../platform/errors.js';
import { AUTHENTICATION_PREFIX, REMEMBER_DEVICE_MS, type IdentityService } from './service.js';
import { toWireOutcome } from './wire.js';
import { Done, FactorAdded, Reauthenticated, RecoveryCodes, SecurityOverview, SignedInSessions, StateMachineResponse, TotpEnrolment } from './wire-schemas.js';

/** The member's own sign-in security: factors, recovery codes, remembered devices. */
export const SECURITY_PREFIX = '/bodega/v1/my/security';

const Code = Type.Object({ code: Type.Optional(Type.String({ maxLength: 100 })) });
const VerifyBody = Type.Object({
  stateToken: Type.String({ minLength: 1, maxLength: 1000 }),
  factorType: Type.Optional(Type.String({ maxLength: 32 })),
  rememberThisDevice: Type.Optional(Type.Boolean()),
  smsData: Type.Optional(Type.Unknown()),
  callData: Type.Optional(Type.Unknown()),
  pushData: Type.Optional(Type.Unknown()),
  webauthnData: Type.Optional(Type.Object({
    challengeId: Type.Optional(Type.String({ maxLength: 100 })),
    credential: Type.Optional(Type.String({ maxLength: 8000, description: 'The PublicKeyCredential as JSON (`toJSON()`)' })),
  })),
  passwordData: Type.Optional(Type.Unknown()),
  emailData: Type.Optional(Code),
  totpData: Type.Optional(Code),
  recoveryCodeData: Type.Optional(Code),
});
const FactorType = Type.Object({ factorType: Type.String({ minLength: 1, maxLength: 32 }) });
const ConfirmBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 20 }) });
const FactorId = Type.Object({ factorId: Type.String({ minLength: 1, maxLength: 128 }) });
const DeviceId = Type.Object({ deviceId: Type.String({ minLength: 1, maxLength: 128 }) });
const Empty = Type.Object({});
const SessionId = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 128 }) });
const PasswordBody = Type.Object({ password: Type.String({ minLength: 1, maxLength: 1000 }) });

/** The remembered-device cookie of a site on the server's own origin (the hosted sign-in page). */
export function deviceCookieName(siteId: string): string {
  return `bodega_device_${siteId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/** A login's device token: the hosted page's cookie, or `clientMetaData.deviceToken` from an app. */
export function deviceTokenOf(req: FastifyRequest, siteId: string, clientMetaData: unknown): string | undefined {
  const fromApp = clientMetaData && typeof clientMetaData === 'object' ? (clientMetaData as Record<string, unknown>).deviceToken : undefined;
  if (typeof fromApp === 'string' && fromApp.length <= 200) return fromApp;
  return readCookie(req.headers.cookie, deviceCookieName(siteId));
}

function setDeviceCookie(reply: FastifyReply, siteId: string, token: string, secure: boolean): void {
  reply.header('set-cookie', [
    `${deviceCookieName(siteId)}=${encodeURIComponent(token)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax',
    `Max-Age=${REMEMBER_DEVICE_MS / 1000}`, ...(secure ? ['Secure'] : []),
  ].join('; '));
}

/**
 * `v2/{factorType}/verify` (the spec's path) and `v2/verify` with `factorType` in the body (the
 * official package's request builder), and the member's Security calls.
 */
export function registerFactorRoutes(app: FastifyInstance, identity: IdentityService, options: { secure: boolean; limited: object }): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const verify = async (req: FastifyRequest, reply: FastifyReply, factorType: string | undefined, body: Static<typeof VerifyBody>) => {
    const type = factorType ?? body.factorType;
    if (!type) throw ApiError.validation([{ field: 'factorType', rule: 'REQUIRED_FIELD', description: 'factorType is required' }]);
    const data = body.totpData ?? body.emailData ?? body.recoveryCodeData;
    const outcome = await identity.verifyFactor(req.ctx, {
      factorType: type, stateToken: body.stateToken, rememberThisDevice: body.rememberThisDevice, code: data?.code,
      deviceLabel: String(req.headers['user-agent'] ?? ''), webauthn: body.webauthnData, host: req.headers.host,
    });
    if (outcome.deviceToken) setDeviceCookie(reply, req.ctx.siteId, outcome.deviceToken, options.secure);
    return toWireOutcome(outcome);
  };
  typed.post(`${AUTHENTICATION_PREFIX}/v2/:factorType/verify`, { schema: { params: FactorType, body: VerifyBody, response: { 200: StateMachineResponse } }, config: { access: 'shop', ...options.limited } },
    async (req, reply) => verify(req, reply, req.params.factorType, req.body));
  typed.post(`${AUTHENTICATION_PREFIX}/v2/verify`, { schema: { body: VerifyBody, response: { 200: StateMachineResponse } }, config: { access: 'shop', ...options.limited } },
    async (req, reply) => verify(req, reply, undefined, req.body));

  typed.get(SECURITY_PREFIX, { schema: { response: { 200: SecurityOverview } }, config: { access: 'self' } }, async (req) => identity.securityOverview(req.ctx));
  typed.post(`${SECURITY_PREFIX}/totp`, { schema: { body: Empty, response: { 200: TotpEnrolment } }, config: { access: 'self', ...options.limited } }, async (req) => identity.startTotp(req.ctx));
  typed.post(`${SECURITY_PREFIX}/totp/confirm`, { schema: { body: ConfirmBody, response: { 200: FactorAdded } }, config: { access: 'self', ...options.limited } },
    async (req) => identity.confirmTotp(req.ctx, req.body.code));
  typed.post(`${SECURITY_PREFIX}/email`, { schema: { body: Empty, response: { 200: FactorAdded } }, config: { access: 'self' } }, async (req) => identity.enableEmailFactor(req.ctx));
  typed.delete(`${SECURITY_PREFIX}/factors/:factorId`, { schema: { params: FactorId, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
    await identity.removeFactor(req.ctx, req.params.factorId);
    return {};
  });
  typed.post(`${SECURITY_PREFIX}/recovery-codes`, { schema: { body: Empty, response: { 200: RecoveryCodes } }, config: { access: 'self' } }, async (req) => identity.regenerateRecoveryCodes(req.ctx));
  typed.delete(`${SECURITY_PREFIX}/devices/:deviceId`, { schema: { params: DeviceId, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
    await identity.forgetDevice(req.ctx, req.params.deviceId);
    return {};
  });
  typed.get(`${SECURITY_PREFIX}/sessions`, { schema: { response: { 200: SignedInSessions } }, config: { access: 'self' } }, async (req) => identity.listSessions(req.ctx));
  typed.delete(`${SECURITY_PREFIX}/sessions/:sessionId`, { schema: { params: SessionId, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
    await identity.endOwnSession(req.ctx, req.params.sessionId);
    return {};
  });
  typed.post(`${SECURITY_PREFIX}/reauthenticate`, { schema: { body: PasswordBody, response: { 200: Reauthenticated } }, config: { access: 'self', ...options.limited } },
    async (req) => identity.reauthenticate(req.ctx, req.body.password));
  typed.post(`${SECURITY_PREFIX}/sign-out-everywhere`, { schema: { body: Empty, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
    const caller = req.ctx.caller;
    if (caller?.kind !== 'MEMBER' && caller?.kind !== 'WIX_USER') throw ApiError.forbidden();
    await identity.endAllSessions(req.ctx, caller.subjectId);
    return {};
  });
}
