// The built web app as the server finds it: static files, the HTML template and, when the build
// has one, the server-rendering bundle whose render() fills the template.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StorefrontSite } from './service.js';

/** What entry-server.js's render() is given. */
export interface RenderInput {
  url: string;
  origin: string;
  site: { siteId: string; clientId: string; name: string; currency: string };
  fetch: typeof fetch;
}

export interface RenderResult {
  status: number;
  head: string;
  html: string;
  state: unknown;
}

export type Render = (input: RenderInput) => Promise<RenderResult>;

export interface WebBuild {
  /** Served as static files (hashed assets under /assets/). */
  staticDir: string;
  template: string;
  render: Render | undefined;
}

/**
 * Finds the build in `webDir`: the `client/` + `server/entry-server.js` layout, or the older
 * single directory with index.html at its top. Undefined when there is no build at all.
 */
export async function loadWebBuild(webDir: string | undefined, log: (error: unknown, message: string) => void): Promise<WebBuild | undefined> {
  if (!webDir) return undefined;
  const clientDir = path.join(webDir, 'client');
  const staticDir = fs.existsSync(path.join(clientDir, 'index.html')) ? clientDir : fs.existsSync(path.join(webDir, 'index.html')) ? webDir : undefined;
  if (!staticDir) return undefined;
  const template = fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8');
  const entry = path.join(webDir, 'server', 'entry-server.js');
  let render: Render | undefined;
  if (staticDir === clientDir && fs.existsSync(entry)) {
    try {
      const mod = (await import(pathToFileURL(entry).href)) as { render?: unknown };
      if (typeof mod.render === 'function') render = mod.render as Render;
      else log(new Error('no render export'), `${entry} exports no render function; pages are rendered in the browser`);
    } catch (error) {
      log(error, `could not load ${entry}; pages are rendered in the browser`);
    }
  }
  return { staticDir, template, render };
}

/** JSON for an inline <script>: `<` escaped so no string can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The page: the template with head + bootstrap script and the rendered markup filled in. */
export function composePage(template: string, site: StorefrontSite, rendered: Pick<RenderResult, 'head' | 'html' | 'state'> | undefined): string {
  const bootstrap = {
    siteId: site.siteId,
    clientId: site.clientId,
    siteName: site.name,
    currency: site.currency,
    ...(rendered && rendered.state !== undefined && { state: rendered.state }),
  };
  const head = `${rendered?.head ?? ''}<script>window.__BODEGA__ = ${scriptJson(bootstrap)}</script>`;
  // Replacer functions: the markup may contain `$&` and friends, which a replacement string would expand.
  let page = template.includes('<!--app-head-->')
    ? template.replace('<!--app-head-->', () => head)
    : template.replace('</head>', () => `${head}</head>`);
  if (rendered?.html) page = page.replace('<!--app-html-->', () => rendered.html);
  return page;
}
