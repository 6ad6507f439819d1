// The site's own settings for its owner or an API key (Bodega's call): name, currency, sign-up, captcha, domains.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { recordAudit, settingsChange } from '../../platform/audit.js';
import { ApiError } from '../../platform/errors.js';
import { SITE_SETTINGS_LIMITS } from '../../platform/field-limits.js';
import { MAX_DOMAINS_PER_SITE } from './domains.js';
import { isValidCurrency, type SitesService } from './service.js';
import { SiteSettingsAnswer, VerifiedDomain } from './wire-schemas.js';

export const SITE_SETTINGS_PATH = '/_api/bodega/v1/site-settings';
export const VERIFY_DOMAIN_PATH = '/_api/bodega/v1/site-settings/domains/verify';

const VerifyBody = Type.Object({ domain: Type.String({ minLength: 1, maxLength: SITE_SETTINGS_LIMITS.domain }) }, { additionalProperties: false });

const SettingsBody = Type.Object({
  settings: Type.Object({
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SITE_SETTINGS_LIMITS.domain }), { maxItems: MAX_DOMAINS_PER_SITE })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: SITE_SETTINGS_LIMITS.name })),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3 })),
    signupPolicy: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('email-verification'), Type.Literal('owner-approval')])),
    captchaRequired: Type.Optional(Type.Boolean()),
    /** Owners and contributors must sign in with a second factor (e-mail codes until they set one up). */
    staffSecondFactorRequired: Type.Optional(Type.Boolean()),
  }, { additionalProperties: false }),
});

export function siteSettingsRoutes(sites: SitesService) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;

    const view = async (ctx: SiteContext) => {
      const site = await sites.activeSite(ctx);
      return {
        settings: {
          name: site.name,
          signupPolicy: site.settings.signupPolicy,
          currency: site.settings.currency,
          captchaRequired: site.settings.captchaRequired === true,
          staffSecondFactorRequired: site.settings.staffSecondFactorRequired === true,
          domains: await sites.domains(ctx),
          domainStatus: await sites.domainStatuses(ctx),
        },
      };
    };

    typed.get(SITE_SETTINGS_PATH, { config, schema: { response: { 200: SiteSettingsAnswer } } }, async (req) => view(req.ctx));

    typed.patch(SITE_SETTINGS_PATH, { config: { access: 'owner' }, schema: { body: SettingsBody, response: { 200: SiteSettingsAnswer } } }, async (req) => {
      const { domains, name, currency, signupPolicy, captchaRequired, staffSecondFactorRequired } = req.body.settings;
      if (currency !== undefined && !isValidCurrency(currency.toUpperCase())) {
        throw ApiError.validation([{ field: 'settings.currency', rule: 'FORMAT', description: 'not an ISO 4217 currency code' }]);
      }
      const patch = {
        ...(currency !== undefined && { currency: currency.toUpperCase() }),
        ...(signupPolicy !== undefined && { signupPolicy }),
        ...(captchaRequired !== undefined && { captchaRequired }),
        ...(staffSecondFactorRequired !== undefined && { staffSecondFactorRequired }),
      };
      // One transaction with its audit entry: the settings before, and after as written.
      await withTransaction(req.ctx, async (ctx) => {
        const before = (await view(ctx)).settings;
        const after: Record<string, unknown> = { ...before, ...patch };
        if (domains !== undefined) after.domains = await sites.setDomains(ctx, domains);
        if (name !== undefined && name.trim()) await sites.rename(ctx, (after.name = name.trim()));
        if (Object.keys(patch).length) await sites.updateSettings(ctx, patch);
        const changed = settingsChange(before, after);
        if (changed) await recordAudit(ctx, { action: 'site_settings.updated', objectType: 'site_settings', objectId: ctx.siteId, ...changed });
      });
      return view(req.ctx);
    });

    // Checks a PENDING domain's proof now; the answer says whether it is VERIFIED or what the check found.
    typed.post(VERIFY_DOMAIN_PATH, { config: { access: 'owner' }, schema: { body: VerifyBody, response: { 200: VerifiedDomain } } }, async (req) => ({
      domainStatus: await sites.verifyDomain(req.ctx, req.body.domain),
    }));
  };
}
