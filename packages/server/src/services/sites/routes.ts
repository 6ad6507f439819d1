// The site's own settings for its owner or an API key (Bodega's call): today, its domains.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BACK_OFFICE } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { MAX_DOMAINS_PER_SITE } from './domains.js';
import type { SitesService } from './service.js';

export const SITE_SETTINGS_PATH = '/_api/bodega/v1/site-settings';

const SettingsBody = Type.Object({
  settings: Type.Object({
    domains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: MAX_DOMAINS_PER_SITE })),
  }, { additionalProperties: false }),
});

export function siteSettingsRoutes(sites: SitesService) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    const config = { callers: BACK_OFFICE };

    const view = async (ctx: SiteContext) => {
      const site = await sites.activeSite(ctx);
      return {
        settings: {
          name: site.name,
          signupPolicy: site.settings.signupPolicy,
          currency: site.settings.currency,
          domains: await sites.domains(ctx),
        },
      };
    };

    typed.get(SITE_SETTINGS_PATH, { config }, async (req) => view(req.ctx));

    typed.patch(SITE_SETTINGS_PATH, { config, schema: { body: SettingsBody } }, async (req) => {
      const { domains } = req.body.settings;
      if (domains !== undefined) await sites.setDomains(req.ctx, domains);
      return view(req.ctx);
    });
  };
}
