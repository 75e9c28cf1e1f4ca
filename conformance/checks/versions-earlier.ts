// A caller of the earlier published version (2026-06-12) gets the interface as it was: the changes of 2026-07-01
// are the generated endpoint reference and the delivery log, "no change that requires adaptation of clients", so
// everything else holds for that caller as for the current one: its reads need the token, the description is a
// JSON object, the stream's messages are numbered. A deployment that refuses the earlier version (400) is not
// judged: whether it serves it is not shown.
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { interfaceRoutes, routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { EARLIER } from './support/places.ts';
import { publicGet } from './support/public-get.ts';
import { streamPath } from './support/sse-scenario.ts';

const AS_EARLIER = { 'Service-Version': EARLIER };
/** How long the kit reads the earlier caller's stream for its first messages (a backlog comes at once). */
const STREAM_READ_MS = 1500;

/** The interface's routes a self-description lists (its paths with or without the base path). */
function listedRoutes(ex: Exchange): Set<string> | undefined {
  const routes = (ex.json as { data?: { routes?: unknown } } | undefined)?.data?.routes;
  if (ex.status !== 200 || !Array.isArray(routes)) return undefined;
  const named = new Set(
    routes.flatMap((r: { method?: unknown; path?: unknown }) =>
      typeof r?.method === 'string' && typeof r.path === 'string'
        ? [`${r.method.toUpperCase()} ${r.path}`, `${r.method.toUpperCase()} ${BASE_PATH}${r.path}`]
        : [],
    ),
  );
  return new Set(
    interfaceRoutes().flatMap((r) => (named.has(`${r.method} ${r.path}`) ? [`${r.method} ${r.path}`] : [])),
  );
}

export const earlierAlike = defineCheck({
  name: 'versions.earlier-alike',
  title: `a caller of ${SUPPORTED_VERSIONS[1]} is answered as a current one where the interface changed nothing: a read without the token is refused 401, the self-description lists the same interface routes, the description is a JSON object, the stream's messages carry consecutive numbers, each once`,
  severity: 'MUST',
  section: 'Versioning',
  tags: ['versions'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const list = routePath('listConnections');
    const served = await ctx.call('GET', list, { headers: AS_EARLIER });
    if (served.status !== 200)
      ctx.skip(
        `GET ${list} with Service-Version ${EARLIER} answered ${served.status}: the deployment does not serve that version to this caller (whether it must is not shown)`,
      );
    // The token is required on every authenticated call, whichever version the caller names.
    const anonymous = await ctx.call('GET', list, {
      credentials: 'none',
      tenant: ctx.target.tenant,
      headers: AS_EARLIER,
    });
    ctx.expect.that(anonymous.status === 401 || anonymous.status === 400, {
      expected: `GET ${list} with Service-Version ${EARLIER} and no token is refused 401 unauthorized, as a current caller's is (400 where the version itself is refused)`,
      observed: `${anonymous.status}`,
      exchange: anonymous,
    });
    // "Returns the machine-readable description of this interface as a JSON object", for that version too.
    const doc = await ctx.call('GET', routePath('getOpenApiJson'), { credentials: 'none', headers: AS_EARLIER });
    if (doc.status === 200)
      ctx.expect.that(!!doc.json && typeof doc.json === 'object' && !Array.isArray(doc.json), {
        expected: `GET ${routePath('getOpenApiJson')} with Service-Version ${EARLIER} answers a JSON object, as for the current version`,
        observed: `a body that is not a JSON object: ${doc.text.slice(0, 80)}`,
        exchange: doc,
      });
    // The routes of the interface the current self-description lists, that version's lists too (none of the
    // table's endpoints came with 2026-07-01: it added the generated reference and the delivery log).
    const [current, earlier] = [
      listedRoutes(await publicGet(ctx, BASE_PATH)),
      listedRoutes(await ctx.call('GET', BASE_PATH, { credentials: 'none', headers: AS_EARLIER })),
    ];
    const missing = current && earlier ? [...current].filter((r) => !earlier.has(r)) : [];
    ctx.expect.that(missing.length === 0, {
      expected: `GET ${BASE_PATH} with Service-Version ${EARLIER} lists the interface's routes the current self-description lists`,
      observed: `missing: ${missing.slice(0, 4).join(', ')}`,
    });
    // "Every message carries a consecutive number": the stream read from its start, as that caller.
    const stream = await ctx.stream(streamPath(), { headers: { ...AS_EARLIER, 'Last-Event-ID': '0' } });
    try {
      const events = stream.isStream ? await stream.readUntil((e) => e.length >= 3, STREAM_READ_MS) : [];
      const ids = events.map((e) => e.id).filter((id): id is string => id !== undefined);
      if (!ids.length)
        return void ctx.note(
          `the stream sent ${EARLIER}'s caller no numbered message within ${STREAM_READ_MS} ms: not judged`,
        );
      ctx.expect.that(
        ids.every((id) => /^\d+$/.test(id)),
        {
          expected: `the stream read with Service-Version ${EARLIER} numbers its messages (id: a number, as the cursor "last number read" reads them)`,
          observed: `ids ${ids.slice(0, 3).join(', ')}`,
          exchange: stream.ex,
        },
      );
      // "...and arrives exactly once": resumed from 0, each number comes once, in order.
      const repeated = ids.find((id, i) => i > 0 && Number(id) <= Number(ids[i - 1]));
      ctx.expect.that(repeated === undefined, {
        expected: `the stream resumed with Service-Version ${EARLIER} sends each message once, numbers rising ("arrives exactly once")`,
        observed: `ids ${ids.slice(0, 6).join(', ')}`,
        exchange: stream.ex,
      });
    } finally {
      await stream.close();
    }
  },
});
