/**
 * Token endpoint throughput against the bare route (one primary-key query): (a) the anonymous
 * grant (client lookup, a refresh-token insert and a signed JWT) and (r) the refresh grant (a
 * refresh-token read and a signed JWT). Targets: a/b ≥ 0.6 and r/b ≥ 0.6 (issue 15).
 */
import { assertClean, BARE_ROUTE, load, printResults, startServer } from './lib.js';

export default async function tokens(): Promise<void> {
  const server = await startServer();
  try {
    const site = await server.app.services.sites.createSite({ name: 'bench' });
    const bareUrl = `${server.url}${BARE_ROUTE}?site=${site.site.siteId}`;
    const tokenUrl = `${server.url}/oauth2/token`;
    await load(bareUrl, { seconds: 1 }); // warm-up
    const bare = await load(bareUrl);
    assertClean('bare', bare);
    const grant = await load(tokenUrl, { method: 'POST', body: { clientId: site.clientId, grantType: 'anonymous' } });
    assertClean('anonymous grant', grant);
    const visitor = await server.app.services.oauth.anonymousGrant(site.clientId);
    const refresh = await load(tokenUrl, { method: 'POST', body: { clientId: site.clientId, grantType: 'refresh_token', refreshToken: visitor.refresh_token } });
    assertClean('refresh grant', refresh);
    printResults('npm run bench -- tokens', server.database, [
      { name: 'bare route (one PK query)', result: bare },
      { name: 'anonymous-token grant', result: grant, ratio: grant.requestsPerSecond / bare.requestsPerSecond },
      { name: 'refresh-token grant', result: refresh, ratio: refresh.requestsPerSecond / bare.requestsPerSecond },
    ]);
    console.log(`ratio a/b = ${(grant.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}, r/b = ${(refresh.requestsPerSecond / bare.requestsPerSecond).toFixed(2)} (target ≥ 0.6 each)`);
  } finally {
    await server.close();
  }
}
