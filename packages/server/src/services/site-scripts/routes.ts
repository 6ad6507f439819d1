import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_SCRIPT_HTML, MAX_SCRIPTS, SCRIPT_POSITIONS, type SiteScriptsService } from './service.js';
import { SiteScripts } from './wire-schemas.js';

/** `listSiteScripts` of `@wix/headless-site-assets` (what `@wix/astro` calls): edge path, then the `/_api` mapping. */
export const LIST_SITE_SCRIPTS_PATHS = ['/assets/scripts/v1/site-scripts', '/_api/site-scripts/v1/site-scripts'];
/** The back office's call: the owner reads and replaces the list. */
export const SITE_SCRIPTS_SETTINGS_PATH = '/_api/bodega/v1/site-scripts';

const ListQuery = Type.Object({ pageUrl: Type.Optional(Type.String({ maxLength: 2048 })), pageName: Type.Optional(Type.String({ maxLength: 255 })) });
const ReplaceBody = Type.Object({
  siteScripts: Type.Array(Type.Object({
    position: Type.Union(SCRIPT_POSITIONS.map((p) => Type.Literal(p))),
    html: Type.String({ maxLength: MAX_SCRIPT_HTML }),
  }, { additionalProperties: false }), { maxItems: MAX_SCRIPTS }),
}, { additionalProperties: false });

export function siteScriptsRoutes(scripts: SiteScriptsService) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of LIST_SITE_SCRIPTS_PATHS) {
      typed.get(path, { config: { access: 'shop' }, schema: { querystring: ListQuery, response: { 200: SiteScripts } } }, async (req) => ({ siteScripts: await scripts.list(req.ctx) }));
    }
    typed.get(SITE_SCRIPTS_SETTINGS_PATH, { config: { access: 'staff' }, schema: { response: { 200: SiteScripts } } }, async (req) => ({ siteScripts: await scripts.list(req.ctx) }));
    typed.put(SITE_SCRIPTS_SETTINGS_PATH, { config: { access: 'owner' }, schema: { body: ReplaceBody, response: { 200: SiteScripts } } }, async (req) => {
      return { siteScripts: await scripts.replace(req.ctx, req.body.siteScripts) };
    });
  };
}
