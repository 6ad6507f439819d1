/**
 * Sign-in throughput: (a) the refresh-token grant of a member (refresh-token lookup, the member
 * access check, a signed JWT) against (b) the bare route (one primary-key query), in one run.
 * Target a/b ≥ 0.6 (issue 15). Prints the CPU per request too (server process + its backends). Login is bounded by argon2id by design: logins/s is printed too.
 */
import { createHash } from 'node:crypto';
import { assertClean, BARE_ROUTE, cpuText, load, printResults, recordRows, startNamedServer, withCpu } from './lib.js';

async function json(url: string, body: unknown, authorization?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export default async function auth(): Promise<void> {
  const server = await startNamedServer();
  try {
    // The per-IP limit would cap the load generator, not the server: logins/s is the figure here.
    server.app.services.identity.rateLimitPerMinute = 0;
    const { site, clientId } = await server.app.services.sites.createSite({ name: 'bench', signupPolicy: 'open' });
    const email = 'bench.member@example.com';
    const password = 'bench-member-password';
    const visitor = (await json(`${server.url}/oauth2/token`, { clientId, grantType: 'anonymous' })).access_token as string;
    const registered = await json(`${server.url}/_api/iam/authentication/v2/register`, { loginId: { email }, password }, visitor);

    // A member's refresh token through the real flow: redirect session (prompt=none) → code → tokens.
    const verifier = 'bench-code-verifier-bench-code-verifier-0123456789';
    const redirectUri = 'http://127.0.0.1/done'; // on the bench server's PUBLIC_URL origin; never followed
    const session = (await json(`${server.url}/_api/redirects-api/v1/redirect-session`, {
      auth: {
        prompt: 'none',
        authRequest: {
          clientId, redirectUri, responseMode: 'query', responseType: 'code', state: 'bench',
          codeChallenge: createHash('sha256').update(verifier).digest('base64url'), codeChallengeMethod: 'S256',
          sessionToken: registered.sessionToken,
        },
      },
    }, visitor)).redirectSession as { fullUrl: string };
    const authorize = await fetch(session.fullUrl.replace(/^http:\/\/127\.0\.0\.1(?=\/)/, server.url), { redirect: 'manual' });
    const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code');
    const tokens = await json(`${server.url}/oauth2/token`, { clientId, grantType: 'authorization_code', code, codeVerifier: verifier, redirectUri });

    const bareUrl = `${server.url}${BARE_ROUTE}?site=${site.siteId}`;
    await load(bareUrl, { seconds: 1 }); // warm-up
    const bare = await withCpu(server, () => load(bareUrl));
    assertClean('bare', bare);
    const refreshBody = { clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token };
    await load(`${server.url}/oauth2/token`, { method: 'POST', body: refreshBody, seconds: 1 });
    const refresh = await withCpu(server, () => load(`${server.url}/oauth2/token`, { method: 'POST', body: refreshBody }));
    assertClean('member refresh-token grant', refresh);
    const login = await load(`${server.url}/_api/iam/authentication/v2/login`, {
      method: 'POST', headers: { authorization: visitor }, body: { loginId: { email }, password },
    });
    assertClean('login', login);

    const ratio = refresh.requestsPerSecond / bare.requestsPerSecond;
    printResults('npm run bench -- auth', server.database, [
      { name: 'bare route (one PK query)', result: bare },
      { name: 'member refresh-token grant', result: refresh, ratio, aim: { atLeast: 0.6 } },
      { name: 'login (argon2id verify)', result: login, ratio: login.requestsPerSecond / bare.requestsPerSecond },
    ]);
    const cpuTotal = (r: typeof bare) => r.cpu.nodeUs + r.cpu.pgUs;
    console.log(`CPU per request: bare ${cpuText(bare.cpu)}; member refresh grant ${cpuText(refresh.cpu)}`);
    recordRows({
      path: `member refresh grant CPU/request ${cpuTotal(refresh)} µs, bare ${cpuTotal(bare)} µs`, unit: 'ms',
      ratio: cpuTotal(bare) / cpuTotal(refresh), versus: 'bare read CPU',
    });
    console.log(`ratio refresh/bare = ${ratio.toFixed(2)} (target ≥ 0.6); logins/s = ${login.requestsPerSecond.toFixed(0)}`);
  } finally {
    await server.close();
  }
}
