/**
 * Members at scale (`npm run bench -- members`, DATABASE_URL for PostgreSQL): 100,000 members on
 * one site, inserted with one INSERT … SELECT generate_series, then in one run
 *   (a) a filtered, sorted 50-member page of POST /members/v1/members/query as a visitor
 *       (nickname starting "member 42", public approved members only, by nickname, with total),
 *   (b) GET /members/v1/members/my?fieldsets=FULL as a signed-in member,
 * each against (c) the bare route (one primary-key query), taking turns a second at a time.
 * Target a/c and b/c ≥ 0.4.
 * On PostgreSQL it also prints the CPU each request of (a) and (c) costs the server process and its
 * PostgreSQL backends: unlike req/s, that figure hardly moves with other work on the machine.
 * The bench site is deleted afterwards.
 */
import { assertClean, BARE_ROUTE, cpuText, load, printResults, recordRows, startNamedServer, withCpu, type LoadResult } from './lib.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);

export default async function members(): Promise<void> {
  // Named connections, so that their backends' CPU can be read from /proc.
  const server = await startNamedServer();
  let siteId: string | undefined;
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench members' });
    siteId = created.site.siteId;
    const started = Date.now();
    // Member g: nickname "Member g"; every 3rd private, every 10th pending, one second apart.
    await server.db.query(
      `INSERT INTO members (site_id, member_id, login_email, status, role, privacy_status, activity_status, slug, profile, contact,
         created_at, updated_at)
       SELECT $1, gen_random_uuid()::text, 'member' || g || '@bench.example',
         CASE WHEN g % 10 = 0 THEN 'PENDING' ELSE 'APPROVED' END, 'MEMBER',
         CASE WHEN g % 3 = 0 THEN 'PRIVATE' ELSE 'PUBLIC' END, 'ACTIVE', 'member-' || g,
         jsonb_build_object('nickname', 'Member ' || g),
         jsonb_build_object('firstName', 'First' || g, 'lastName', 'Last' || g,
           'emails', jsonb_build_array(jsonb_build_object('email', 'member' || g || '@bench.example', 'tag', 'MAIN')),
           'phones', jsonb_build_array(), 'addresses', jsonb_build_array(), 'customFields', jsonb_build_object()),
         now() - make_interval(secs => $2 - g), now() - make_interval(secs => $2 - g)
       FROM generate_series(1, $2::int) AS g`,
      [siteId, MEMBERS],
    );
    await server.db.exec('VACUUM ANALYZE members');
    console.log(`inserted ${MEMBERS.toLocaleString('en')} members in ${((Date.now() - started) / 1000).toFixed(1)} s on ${server.database}`);

    const [me] = await server.db.query<{ member_id: string }>('SELECT member_id FROM members WHERE site_id = $1 AND slug = $2', [siteId, 'member-42']);
    const memberTokens = await server.app.services.oauth.startSession(server.app.services.sites.contextFor(siteId), { clientId: created.clientId, role: 'member', subjectId: me.member_id, memberRole: 'MEMBER' });
    const visitorTokens = await server.app.services.oauth.anonymousGrant(created.clientId);

    const queryBody = {
      query: { filter: { 'profile.nickname': { $startsWith: 'member 42' } }, sort: [{ fieldName: 'profile.nickname', order: 'ASC' }], paging: { limit: 50, offset: 0 } },
    };
    const queryUrl = `${server.url}/members/v1/members/query`;
    const probe = await fetch(queryUrl, { method: 'POST', headers: { authorization: visitorTokens.access_token, 'content-type': 'application/json' }, body: JSON.stringify(queryBody) });
    const page = (await probe.json()) as { members?: unknown[]; metadata?: { total?: number } };
    if (probe.status !== 200 || page.members?.length !== 50) throw new Error(`query probe failed: ${probe.status} ${JSON.stringify(page).slice(0, 300)}`);
    console.log(`query page: 50 of ${page.metadata?.total} matching members`);

    const bareUrl = `${server.url}${BARE_ROUTE}?site=${siteId}`;
    const myUrl = `${server.url}/members/v1/members/my?fieldsets=FULL`;
    const queryLoad = { method: 'POST' as const, headers: { authorization: visitorTokens.access_token }, body: queryBody };
    await load(bareUrl, { seconds: 1 }); // warm-up
    await load(queryUrl, { ...queryLoad, seconds: 1 });
    // Taking turns, a second at a time, so that other work on the machine weighs on each alike.
    const seconds = Number(process.env.BENCH_SECONDS ?? 5);
    const runs: LoadResult[][] = [[], [], []];
    for (let turn = 0; turn < seconds; turn++) {
      runs[0]?.push(await load(bareUrl, { seconds: 1 }));
      runs[1]?.push(await load(queryUrl, { ...queryLoad, seconds: 1 }));
      runs[2]?.push(await load(myUrl, { headers: { authorization: memberTokens.access_token }, seconds: 1 }));
    }
    const [bare, query, my] = runs.map((results) => combined(results, seconds));
    assertClean('bare', bare);
    assertClean('query page', query);
    assertClean('get my member', my);

    printResults('npm run bench -- members', server.database, [
      { name: 'bare route (one PK query)', result: bare },
      { name: 'query: filtered, sorted 50-page', result: query, ratio: query.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.4 } },
      { name: 'get my member (FULL)', result: my, ratio: my.requestsPerSecond / bare.requestsPerSecond, aim: { atLeast: 0.4 } },
    ]);
    console.log(`${MEMBERS.toLocaleString('en')} members; ratios against the bare route (target ≥ 0.40 on PostgreSQL)`);
    if (server.db.kind === 'postgres') {
      const bareCpu = (await withCpu(server, () => load(bareUrl, { seconds: 2 }))).cpu;
      const queryCpu = (await withCpu(server, () => load(queryUrl, { ...queryLoad, seconds: 2 }))).cpu;
      console.log(`CPU per request: bare route ${cpuText(bareCpu)}; query page ${cpuText(queryCpu)}; ratio bare/page ${((bareCpu.nodeUs + bareCpu.pgUs) / (queryCpu.nodeUs + queryCpu.pgUs)).toFixed(2)}`);
      recordRows({
        path: `query page CPU/request ${queryCpu.nodeUs + queryCpu.pgUs} µs, bare ${bareCpu.nodeUs + bareCpu.pgUs} µs`, unit: 'ms',
        ratio: (bareCpu.nodeUs + bareCpu.pgUs) / (queryCpu.nodeUs + queryCpu.pgUs), versus: 'bare read CPU',
      });
    }
  } finally {
    if (siteId) {
      await server.db.query('DELETE FROM refresh_tokens WHERE site_id = $1', [siteId]);
      await server.db.query('DELETE FROM sites WHERE site_id = $1', [siteId]);
    }
    await server.close();
  }
}

/** One figure from several one-second runs: their requests over their seconds; median p50, worst p99. */
function combined(results: LoadResult[], seconds: number): LoadResult {
  const sorted = results.map((result) => result.p50Ms).sort((a, b) => a - b);
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests, 0) / seconds,
    p50Ms: sorted[Math.floor(sorted.length / 2)] ?? NaN,
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    requests: results.reduce((sum, result) => sum + result.requests, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

