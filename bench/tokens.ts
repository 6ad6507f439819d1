/**
 * Token endpoint throughput: (a) the anonymous grant (client lookup, a refresh-token insert and
 * a signed JWT) against (b) the bare route (one primary-key query). Target a/b ≥ 0.4 on PostgreSQL.
 */
import { assertClean, BARE_ROUTE, load, printResults, startServer } from './lib.js';

export default async function tokens(): Promise<void> {
  const server = await startServer();
  try {
    const site = await server.app.services.sites.createSite({ name: 'bench' });
    const bareUrl = `${server.url}${BARE_ROUTE}?site=${site.site.siteId}`;
    await load(bareUrl, { seconds: 1 }); // warm-up
    const bare = await load(bareUrl);
    assertClean('bare', bare);
    const grant = await load(`${server.url}/oauth2/token`, { method: 'POST', body: { clientId: site.clientId, grantType: 'anonymous' } });
    assertClean('anonymous grant', grant);
    printResults('npm run bench -- tokens', server.database, [
      { name: 'bare route (one PK query)', result: bare },
      { name: 'anonymous-token grant', result: grant, ratio: grant.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.6 } },
    ]);
    console.log(`ratio a/b = ${(grant.requestsPerSecond / bare.requestsPerSecond).toFixed(2)} (target ≥ 0.40 on PostgreSQL)`);
  } finally {
    await server.close();
  }
}
