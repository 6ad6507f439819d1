import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { registerPerIpLimit } from '../../platform/limits.js';
import { AUTHENTICATION_PREFIX, type CallerContext, type IdentityService } from './service.js';
import { toWireIdentity, toWireOutcome } from './wire.js';
import { deviceTokenOf, registerFactorRoutes } from './factor-routes.js';
import { registerPasskeyRoutes } from './passkey-routes.js';
import { Done, IdentityResponse, SignOnResponse, StartVerificationResponse, StateMachineResponse } from './wire-schemas.js';

export const VERIFICATION_PREFIX = '/_api/iam/verification/v1';
/** Recovery is served at the www.wixapis.com path and the custom-host one (wire-surface §1.2). */
export const RECOVERY_PREFIXES = ['/_api/iam/recovery/v1', '/_iam/recovery/v1'];

const Text = (maxLength: number) => Type.String({ maxLength });

const CustomValue = Type.Object({
  strValue: Type.Optional(Text(10_000)),
  numValue: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 32 })])),
  dateValue: Type.Optional(Text(64)),
  boolValue: Type.Optional(Type.Boolean()),
  listValue: Type.Optional(Type.Unknown()),
  mapValue: Type.Optional(Type.Unknown()),
});

const Address = Type.Object({
  country: Type.Optional(Text(100)),
  subdivision: Type.Optional(Text(100)),
  city: Type.Optional(Text(200)),
  postalCode: Type.Optional(Text(50)),
  addressLine: Type.Optional(Text(500)),
  addressLine1: Type.Optional(Text(500)),
  addressLine2: Type.Optional(Text(500)),
});

/** `identityProfile` as register and sign-on accept it; unknown keys are kept as sent. */
export const IdentityProfile = Type.Object({
  firstName: Type.Optional(Text(200)),
  lastName: Type.Optional(Text(200)),
  nickname: Type.Optional(Text(200)),
  picture: Type.Optional(Text(2048)),
  emails: Type.Optional(Type.Array(Text(254), { maxItems: 20 })),
  phones: Type.Optional(Type.Array(Text(50), { maxItems: 20 })),
  labels: Type.Optional(Type.Array(Text(200), { maxItems: 50 })),
  language: Type.Optional(Text(20)),
  privacyStatus: Type.Optional(Type.Union([Type.Literal('UNDEFINED'), Type.Literal('PUBLIC'), Type.Literal('PRIVATE')])),
  customFields: Type.Optional(Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), value: Type.Optional(CustomValue) }), { maxItems: 100 })),
  addresses: Type.Optional(Type.Array(Type.Object({ address: Type.Optional(Address), tag: Type.Optional(Text(32)) }), { maxItems: 20 })),
  company: Type.Optional(Text(200)),
  position: Type.Optional(Text(200)),
  birthdate: Type.Optional(Text(32)),
  slug: Type.Optional(Text(100)),
  subscription: Type.Optional(Type.Boolean()),
  vatId: Type.Optional(Text(50)),
});

const LoginId = Type.Object({ email: Type.Optional(Type.Unknown()) });
const CaptchaTokens = Type.Array(Type.Unknown(), { maxItems: 10 });

const RegisterBody = Type.Object({
  loginId: Type.Optional(LoginId),
  password: Type.Optional(Type.Unknown()),
  profile: Type.Optional(IdentityProfile),
  captchaTokens: Type.Optional(CaptchaTokens),
  clientMetaData: Type.Optional(Type.Unknown()),
});

const LoginBody = Type.Object({
  loginId: Type.Optional(LoginId),
  password: Type.Optional(Type.String({ maxLength: 4096 })),
  captchaTokens: Type.Optional(CaptchaTokens),
  clientMetaData: Type.Optional(Type.Unknown()),
  stateToken: Type.Optional(Text(512)),
});

const ChangePasswordBody = Type.Object({ newPassword: Type.Optional(Type.Unknown()) });
const SignOnBody = Type.Object({
  loginId: Type.Optional(LoginId),
  profile: Type.Optional(IdentityProfile),
  verifyEmail: Type.Optional(Type.Boolean()),
  mergeExistingContact: Type.Optional(Type.Boolean()),
});

const VerifyDuringAuthBody = Type.Object({ code: Type.String({ maxLength: 32 }), stateToken: Type.String({ minLength: 1, maxLength: 512 }) });
const ResendBody = Type.Object({ stateToken: Type.String({ minLength: 1, maxLength: 512 }) });
const StartBody = Type.Object({ identityId: Type.String({ minLength: 1, maxLength: 128 }), target: Type.Optional(Type.Literal('EMAIL')) });
const VerifyBody = Type.Object({ verificationId: Type.String({ minLength: 1, maxLength: 128 }), code: Type.String({ maxLength: 32 }) });

const SendEmailBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  language: Type.Optional(Text(20)),
  redirect: Type.Optional(Type.Object({ url: Type.Optional(Text(2048)), clientId: Type.Optional(Text(128)) })),
});
const RecoverBody = Type.Object({ recoveryToken: Type.String({ minLength: 1, maxLength: 512 }), password: Type.Optional(Type.Unknown()) });
const ActivationBody = Type.Object({ identityId: Type.String({ minLength: 1, maxLength: 128 }), emailOptions: Type.Optional(Type.Unknown()) });


export interface IdentityRoutesOptions {
  /** Requests per minute per IP on each sign-in call; read per request, 0 turns it off. */
  rateLimitPerMinute: () => number;
  /** Cookies carry Secure (PUBLIC_URL is https). */
  secure: boolean;
}

/** Register, login, verification and recovery (wire-surface §3). */
export function identityRoutes(identity: IdentityService, options: IdentityRoutesOptions) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    await registerPerIpLimit(app, options.rateLimitPerMinute, 'requests');
    const limited = { rateLimit: {} };

    app.post(`${AUTHENTICATION_PREFIX}/v2/register`, { schema: { body: RegisterBody, response: { 200: StateMachineResponse } }, config: { access: 'shop', ...limited } }, async (req) => {
      const body = req.body;
      return toWireOutcome(await identity.register(req.ctx, {
        email: body.loginId?.email, password: body.password, profile: body.profile, captchaTokens: body.captchaTokens,
      }));
    });

    // Login never answers a validationError (the official SDK crashes on one): schema failures
    // become an application error.
    app.post(`${AUTHENTICATION_PREFIX}/v2/login`, { schema: { body: LoginBody, response: { 200: StateMachineResponse } }, attachValidation: true, config: { access: 'shop', ...limited } }, async (req) => {
      if (req.validationError) throw new ApiError(400, 'INVALID_ARGUMENT', `Invalid login request: ${req.validationError.message}`);
      const body = req.body;
      return toWireOutcome(await identity.login(req.ctx, {
        email: body.loginId?.email, password: body.password, captchaTokens: body.captchaTokens,
        deviceToken: deviceTokenOf(req, req.ctx.siteId, body.clientMetaData),
      }));
    });
    registerFactorRoutes(app, identity, { secure: options.secure, limited });
    registerPasskeyRoutes(app, identity, { limited });

    app.post(`${AUTHENTICATION_PREFIX}/v2/change-password`, { schema: { body: ChangePasswordBody, response: { 200: Done } }, config: { access: 'self' } }, async (req) => {
      await identity.changePassword(req.ctx, req.body.newPassword);
      return {};
    });

    // An API key alone (with wix-site-id), or `<accessToken>,<apiKey>` as the official SDK sends it.
    app.post(`${AUTHENTICATION_PREFIX}/v2/sign-on`, { schema: { body: SignOnBody, response: { 200: SignOnResponse } } }, async (req) => {
      const body = req.body;
      let ctx: CallerContext;
      if (req.caller?.kind === 'APP') {
        ctx = req.ctx;
      } else {
        const { ctx: site, claims } = await identity.resolveTokenAndApiKey(req.headers.authorization);
        ctx = {
          ...site,
          caller: claims.role === 'visitor' ? { kind: 'ANONYMOUS_VISITOR', siteId: site.siteId, subjectId: claims.subjectId } : null,
        };
      }
      const result = await identity.signOn(ctx, { email: body.loginId?.email, profile: body.profile, verifyEmail: body.verifyEmail });
      return { sessionToken: result.sessionToken, identity: toWireIdentity(result.identity) };
    });

    app.post(`${VERIFICATION_PREFIX}/auth/verify`, { schema: { body: VerifyDuringAuthBody, response: { 200: StateMachineResponse } }, config: { access: 'shop', ...limited } }, async (req) => {
      const body = req.body;
      return toWireOutcome(await identity.verifyDuringAuthentication(req.ctx, { code: body.code.trim(), stateToken: body.stateToken }));
    });
    app.post(`${VERIFICATION_PREFIX}/auth/resend`, { schema: { body: ResendBody, response: { 200: StateMachineResponse } }, config: { access: 'shop', ...limited } }, async (req) =>
      toWireOutcome(await identity.resendCode(req.ctx, req.body.stateToken)));
    for (const path of [`${VERIFICATION_PREFIX}/start`, `${VERIFICATION_PREFIX}/Start`]) {
      app.post(path, { schema: { body: StartBody, response: { 200: StartVerificationResponse } }, config: { access: 'self-or-staff', ...limited } }, async (req) =>
        identity.startVerification(req.ctx, req.body.identityId));
    }
    app.post(`${VERIFICATION_PREFIX}/verify`, { schema: { body: VerifyBody, response: { 200: Done } }, config: { access: 'self-or-staff', ...limited } }, async (req) => {
      const body = req.body;
      await identity.verify(req.ctx, { verificationId: body.verificationId, code: body.code.trim() });
      return {};
    });

    for (const prefix of RECOVERY_PREFIXES) {
      app.post(`${prefix}/send-email`, { schema: { body: SendEmailBody, response: { 200: Done } }, config: { access: 'shop', ...limited } }, async (req) => {
        const body = req.body;
        await identity.sendRecoveryEmail(req.ctx, { email: body.email, redirect: body.redirect });
        return {};
      });
      // Public: the token names its site, so the reset page needs no sign-in.
      app.post(`${prefix}/recover`, { schema: { body: RecoverBody, response: { 200: IdentityResponse } }, config: limited }, async (req) => {
        const body = req.body;
        return { identity: toWireIdentity(await identity.recover(req.caller ? req.ctx : null, { recoveryToken: body.recoveryToken, password: body.password })) };
      });
      app.post(`${prefix}/activation-email`, { schema: { body: ActivationBody, response: { 200: Done } }, config: { access: 'staff', ...limited } }, async (req) => {
        await identity.sendActivationEmail(req.ctx, req.body.identityId);
        return {};
      });
    }
  };
}
