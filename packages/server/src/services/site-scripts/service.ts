// A site's scripts: HTML the owner adds to every page of a headless site (`@wix/astro` reads them
// with `listSiteScripts` after each page it renders). Kept in the site's settings (the sites service
// owns that row and its cache), so this service has no store of its own.
import type { RequestContext } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { SITE_SCRIPT_LIMITS, SITE_SCRIPT_POSITIONS } from '../../platform/field-limits.js';
import { requireOwner } from '../backoffice/service.js';
import type { SitesService } from '../sites/service.js';

export const SCRIPT_POSITIONS = SITE_SCRIPT_POSITIONS;
export type ScriptPosition = (typeof SCRIPT_POSITIONS)[number];

export interface SiteScript {
  position: ScriptPosition;
  html: string;
}

/** The wire's limit of one script's HTML (the official typings' `@maxLength`). */
export const MAX_SCRIPT_HTML = SITE_SCRIPT_LIMITS.html;
export const MAX_SCRIPTS = SITE_SCRIPT_LIMITS.scripts;

function storedScripts(settings: Record<string, unknown>): SiteScript[] {
  const list = settings.siteScripts;
  if (!Array.isArray(list)) return [];
  return list.filter((s): s is SiteScript => typeof s === 'object' && s !== null
    && SCRIPT_POSITIONS.includes((s as SiteScript).position) && typeof (s as SiteScript).html === 'string');
}

export class SiteScriptsService {
  constructor(private readonly sites: SitesService) {}

  /** The site's scripts, in the order the owner gave them; none by default. */
  async list(ctx: SiteContext): Promise<SiteScript[]> {
    return storedScripts((await this.sites.activeSite(ctx)).settings as Record<string, unknown>);
  }

  /** Replaces the site's scripts: the owner or an API key only (a script runs on every page). */
  async replace(ctx: RequestContext, scripts: SiteScript[]): Promise<SiteScript[]> {
    requireOwner(ctx);
    const violations: FieldViolation[] = [];
    if (scripts.length > MAX_SCRIPTS) violations.push({ field: 'siteScripts', rule: 'MAX_SIZE', description: `at most ${MAX_SCRIPTS} scripts` });
    scripts.forEach((s, i) => {
      if (!SCRIPT_POSITIONS.includes(s.position)) violations.push({ field: `siteScripts[${i}].position`, rule: 'INVALID_ENUM_VALUE', description: `must be one of ${SCRIPT_POSITIONS.join(', ')}` });
      if (!s.html.trim()) violations.push({ field: `siteScripts[${i}].html`, rule: 'REQUIRED_FIELD', description: 'the script’s HTML is required' });
      if (s.html.length > MAX_SCRIPT_HTML) violations.push({ field: `siteScripts[${i}].html`, rule: 'MAX_LENGTH', description: `at most ${MAX_SCRIPT_HTML} characters` });
    });
    if (violations.length) throw ApiError.validation(violations);
    await this.sites.updateSettings(ctx, { siteScripts: scripts.map((s) => ({ position: s.position, html: s.html })) });
    return this.list(ctx);
  }
}
