// The answer of the site-scripts calls (the back office's and @wix/headless-site-assets' listSiteScripts).
import { Type } from 'typebox';
import { oneOf } from '../../platform/wire-schema.js';
import { SCRIPT_POSITIONS } from './service.js';

export const SiteScript = Type.Object({
  position: oneOf(SCRIPT_POSITIONS),
  html: Type.String(),
}, { title: 'SiteScript', description: 'HTML added to every page of a headless site (what `@wix/astro` injects).' });
export const SiteScripts = Type.Object({ siteScripts: Type.Array(SiteScript) });
