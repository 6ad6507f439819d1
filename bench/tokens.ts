/**
 * Token endpoint throughput against the bare route (one primary-key query): (a) the anonymous
 * grant (client lookup, a refresh-token insert and a signed JWT) and (r) the refresh grant (a
 * refresh-token read and a signed JWT). Targets: a/b ≥ 0.6 and r/b ≥ 0.6 (issue 15).
 * (o) the bare route called with an owner's access token: the token check and the owner's
 * standing read from the member row (cached; issue 23). Target: o/b ≥ 0.8.
 */
import { assertClean, BARE_ROUTE, cpuText, load, printResults, recordRows, startNamedServer, withCpu } from './lib.js';

export default async function tokens(): Promise<void> {
  const server = await startNamedServer();
  try {
    const site = await server.app.services.sites.createSite({ name: 'bench', ownerEmail: 'owner@bench.example', ownerPassword: 'bench-owner-1' });
    const bareUrl = `${server.url}${BARE_ROUTE}?site=${site.site.siteId}`;
    const tokenUrl = `${server.url}/oauth2/token`;
    await load(bareUrl, { seconds: 1 }); // warm-up
    const bare = await withCpu(server, () => load(bareUrl));
    assertClean('bare', bare);
    const grant = await withCpu(server, () => load(tokenUrl, { method: 'POST', body: { clientId: site.clientId, grantType: 'anonymous' } }));
    assertClean('anonymous grant', grant);
    const visitor = await server.app.services.oauth.anonymousGrant(site.clientId);
    const refresh = await withCpu(server, () => load(tokenUrl, { method: 'POST', body: { clientId: site.clientId, grantType: 'refresh_token', refreshToken: visitor.refresh_token } }));
    assertClean('refresh grant', refresh);
    const owners = await server.db.query<{ member_id: string }>("SELECT member_id FROM members WHERE site_id = $1 AND role = 'OWNER'", [site.site.siteId]);
    const owner = await server.app.services.oauth.startSession(server.app.services.sites.contextFor(site.site.siteId), {
      clientId: site.clientId, role: 'member', subjectId: owners[0].member_id, memberRole: 'OWNER',
    });
    const ownerCall = await withCpu(server, () => load(bareUrl, { headers: { authorization: `Bearer ${owner.access_token}` } }));
    assertClean('owner-token call', ownerCall);
    printResults('npm run bench -- tokens', server.database, [
      { name: 'bare route (one PK query)', result: bare },
      { name: 'anonymous-token grant', result: grant, ratio: grant.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.6 } },
      { name: 'refresh-token grant', result: refresh, ratio: refresh.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.6 } },
      { name: 'bare route with an owner\'s token', result: ownerCall, ratio: ownerCall.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.8 } },
    ]);
    const cpuTotal = (r: typeof bare) => r.cpu.nodeUs + r.cpu.pgUs;
    console.log(`CPU per request: bare ${cpuText(bare.cpu)}; anonymous grant ${cpuText(grant.cpu)}; refresh grant ${cpuText(refresh.cpu)}; owner-token call ${cpuText(ownerCall.cpu)}`);
    recordRows(
      { path: `anonymous grant CPU/request ${cpuTotal(grant)} µs, bare ${cpuTotal(bare)} µs`, unit: 'ms', ratio: cpuTotal(bare) / cpuTotal(grant), versus: 'bare read CPU' },
      { path: `refresh grant CPU/request ${cpuTotal(refresh)} µs, bare ${cpuTotal(bare)} µs`, unit: 'ms', ratio: cpuTotal(bare) / cpuTotal(refresh), versus: 'bare read CPU' },
      { path: `owner-token call CPU/request ${cpuTotal(ownerCall)} µs, bare ${cpuTotal(bare)} µs`, unit: 'ms', ratio: cpuTotal(bare) / cpuTotal(ownerCall), versus: 'bare read CPU' },
    );
    console.log(`ratio a/b = ${(grant.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}, r/b = ${(refresh.requestsPerSecond / bare.requestsPerSecond).toFixed(2)} (target ≥ 0.6 each)`);
  } finally {
    await server.close();
  }
}
