// The role matrix walked: every route the app registers is called by every kind of caller, and
// the answer must match what the matrix (platform/access-matrix.ts) says. The README's role matrix
// is generated from the same routes and must be current (UPDATE_ROLE_MATRIX=1 rewrites it).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './test/harness.js';
import { backOfficeSite, type BackOfficeSite, type CallerName } from './test/backoffice.js';
import { newMemberId } from './test/commerce.js';
import { ACTORS, PERMISSIONS, admits, type Actor, type Permission, type RouteAccess } from './platform/access-matrix.js';

let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

const CALLER_OF: Record<Actor, CallerName> = {
  OWNER: 'owner', CONTRIBUTOR: 'contributor', MEMBER: 'member', VISITOR: 'visitor', API_KEY: 'apiKey',
};

/** A path with made-up values for its parameters (the gate answers before any lookup). */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'none').replace(/\*/g, 'x');
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function call(route: RouteAccess, headers: Record<string, string>) {
  const method = route.method as Method;
  return t.app.inject({ method, url: concrete(route.url), headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
}

/** The rightful caller of a call: the API key when admitted, else a member of their own (a call may change or delete them). */
async function rightful(permission: Permission): Promise<{ actor: Actor; headers: Record<string, string> }> {
  if (admits(permission, 'API_KEY')) return { actor: 'API_KEY', headers: s.headers.apiKey };
  if (permission === 'self-or-visitor') return { actor: 'VISITOR', headers: s.headers.visitor };
  const memberId = await newMemberId(t.app, s.site);
  const grant = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(s.site.siteId), {
    clientId: s.site.clientId, role: 'member', subjectId: memberId,
  });
  return { actor: 'MEMBER', headers: { authorization: `Bearer ${grant.access_token}` } };
}

function guarded(): RouteAccess[] {
  return t.app.routeAccess.filter((r) => r.access !== undefined);
}

describe('the role matrix, walked over every route', () => {
  it('covers the back office and the Wix-wire calls', () => {
    const urls = new Set(guarded().map((r) => r.url));
    for (const url of ['/bodega/v1/api-keys', '/bodega/v1/webhooks', '/_api/bodega/v1/site-settings', '/members/v1/members/:id/role', '/stores/v1/products']) {
      expect(urls, url).toContain(url);
    }
  });

  // Thousands of calls, one after another: it outgrows the default 30 s on a loaded machine.
  it('admits the rightful caller first, then refuses every caller the matrix does not list', { timeout: 180_000 }, async () => {
    const wrong: string[] = [];
    for (const route of guarded()) {
      const permission = route.access as Permission;
      const first = await rightful(permission);
      const ok = await call(route, first.headers);
      if (ok.statusCode === 401 || ok.statusCode === 403 || ok.statusCode >= 500) {
        wrong.push(`${route.method} ${route.url} (${permission}) by ${first.actor}: ${ok.statusCode} ${ok.body.slice(0, 120)}`);
      }
      for (const actor of ACTORS) {
        if (admits(permission, actor)) {
          // Reads are tried by every admitted caller; a write only by the rightful one (it may change them).
          if (route.method !== 'GET' || actor === first.actor) continue;
          const res = await call(route, s.headers[CALLER_OF[actor]]);
          if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) {
            wrong.push(`${route.method} ${route.url} (${permission}) by ${actor}: ${res.statusCode}, admitted by the matrix`);
          }
          continue;
        }
        const res = await call(route, s.headers[CALLER_OF[actor]]);
        if (res.statusCode !== 403) wrong.push(`${route.method} ${route.url} (${permission}) by ${actor}: ${res.statusCode}, not 403`);
      }
      const anonymous = await call(route, {});
      if (anonymous.statusCode !== 401) wrong.push(`${route.method} ${route.url} (${permission}) with no token: ${anonymous.statusCode}, not 401`);
    }
    expect(wrong).toEqual([]);
  });

  it('is the README\'s role matrix', () => {
    const readme = fileURLToPath(new URL('../../../README.md', import.meta.url));
    const text = fs.readFileSync(readme, 'utf8');
    const start = text.indexOf(MATRIX_START);
    const end = text.indexOf(MATRIX_END);
    const current = start >= 0 && end > start ? text.slice(start + MATRIX_START.length, end) : '';
    const wanted = `\n${matrixMarkdown(t.app.routeAccess)}\n`;
    if (process.env.UPDATE_ROLE_MATRIX === '1' && start >= 0 && end > start) {
      fs.writeFileSync(readme, text.slice(0, start + MATRIX_START.length) + wanted + text.slice(end));
      return;
    }
    expect(current, 'README role matrix is stale: run UPDATE_ROLE_MATRIX=1 npx vitest run packages/server/src/access-matrix.test.ts').toBe(wanted);
  });
});

const MATRIX_START = '<!-- role-matrix:start (generated by packages/server/src/access-matrix.test.ts) -->';
const MATRIX_END = '<!-- role-matrix:end -->';

/** The matrix table, then every guarded route under its permission (a `/_api` twin folded into `[/_api]`). */
function matrixMarkdown(routes: readonly RouteAccess[]): string {
  const yes = (p: Permission, a: Actor) => (admits(p, a) ? 'yes' : '—');
  const lines = [
    `| permission | ${ACTORS.join(' | ')} | what |`,
    `|---|${ACTORS.map(() => '---').join('|')}|---|`,
    ...Object.entries(PERMISSIONS).map(([p, row]) => `| \`${p}\` | ${ACTORS.map((a) => yes(p as Permission, a)).join(' | ')} | ${row.about} |`),
    '',
    'No token: 401 on every call below (routes not listed are public). A caller the row does not list: 403.',
  ];
  const byPermission = new Map<string, Set<string>>();
  const seen = new Set(routes.map((r) => `${r.method} ${r.url} ${r.access}`));
  for (const r of routes) {
    if (!r.access) continue;
    if (r.url.startsWith('/_api/') && seen.has(`${r.method} ${r.url.slice(4)} ${r.access}`)) continue;
    const shown = seen.has(`${r.method} /_api${r.url} ${r.access}`) ? `[/_api]${r.url}` : r.url;
    const set = byPermission.get(r.access) ?? new Set<string>();
    set.add(`${r.method} ${shown}`);
    byPermission.set(r.access, set);
  }
  for (const p of Object.keys(PERMISSIONS)) {
    const calls = [...(byPermission.get(p) ?? [])].sort();
    lines.push('', `<details><summary><code>${p}</code>: ${calls.length} calls</summary>`, '', ...calls.map((c) => `- \`${c}\``), '', '</details>');
  }
  return lines.join('\n');
}
