// Headers the interface does not mention, which HTTP clients and SDKs send anyway (a language preference, an SDK's
// User-Agent and Accept, a cache bypass, a trace context), and the run's credentials on a public endpoint (an SDK
// signs every call it makes): none of them changes what the interface states. Each interface read is sent again
// with each set and held to the plain answer: the same status, the same entries of a catalog list (their texts may
// be localised), the same operations in the OpenAPI document. The run-wide response rules judge the rest of every
// answer (envelope, meta, version), so a meta.version written as a local date for `Accept-Language: de` fails there.
import { randomBytes } from 'node:crypto';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import type { Exchange } from '../client/http-client.ts';
import { inBatches } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { documentOf, documentPaths, openApiExchange } from './support/openapi.ts';
import { successSamples } from './support/samples.ts';

/** Header sets clients add on their own, each sent alone. */
export const CLIENT_HEADER_SETS: { what: string; headers: () => Record<string, string> }[] = [
  { what: 'Accept-Language: de-DE', headers: () => ({ 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' }) },
  {
    what: "an SDK's User-Agent and Accept: application/json",
    headers: () => ({ 'User-Agent': 'partner-sdk/2.4.1 (node 24; linux x64)', Accept: 'application/json' }),
  },
  { what: 'Cache-Control: no-cache', headers: () => ({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' }) },
  {
    what: 'a W3C traceparent',
    headers: () => ({ traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` }),
  },
];

/** The largest answer read again with each header set (the interface's own document is about a tenth of it). */
const MAX_ANSWER_CHARS = 1_000_000;

/** The list a catalog answer holds, by route id. */
const CATALOG_LISTS: Record<string, string> = {
  listProviders: 'providers',
  listConnectors: 'connectors',
  listCapabilities: 'capabilities',
};

const idsOf = (ex: Exchange, field: string): string | undefined => {
  const list = (ex.json as { data?: Record<string, unknown> } | undefined)?.data?.[field];
  return Array.isArray(list) ? JSON.stringify(list.map((i) => (i as { id?: unknown })?.id).sort()) : undefined;
};
const operationsOfAnswer = (ex: Exchange) =>
  JSON.stringify(
    documentPaths((documentOf(ex.json) ?? {}) as { paths?: unknown })
      .map((o) => `${o.method} ${o.path}`)
      .sort(),
  );

/** What must be the same in the plain answer and the answer with more headers, or undefined when it is. */
function differs(routeId: string, plain: Exchange, other: Exchange): string | undefined {
  if (other.status !== plain.status) return `${other.status} where the plain call answered ${plain.status}`;
  if (plain.status !== 200) return undefined;
  const field = CATALOG_LISTS[routeId];
  if (field && idsOf(other, field) !== idsOf(plain, field)) return `other entries in data.${field}`;
  if (routeId === 'getOpenApiJson' && operationsOfAnswer(other) !== operationsOfAnswer(plain))
    return 'a document with other operations';
  return undefined;
}

export const clientHeadersAlike = defineCheck({
  name: 'requests.client-headers-alike',
  title:
    "headers clients add on their own (Accept-Language, an SDK's User-Agent and Accept, Cache-Control, a traceparent), and the run's credentials on a public endpoint, change nothing the interface states: the same status, the same catalog entries, the same documented operations",
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['requests', 'headers'],
  mutating: false,
  async run(ctx: CheckContext) {
    const document = ROUTE_BY_ID.get('getOpenApiJson');
    const reads = [
      ...(await successSamples(ctx)),
      // The OpenAPI document (a description, not an envelope: no shared sample holds it).
      ...(document ? [{ route: document, ex: await openApiExchange(ctx) }] : []),
    ];
    // An answer far beyond the interface's size (a hostile document) is not read five times more.
    const samples = reads.filter(
      (s) => s.route.method === 'GET' && s.ex.status === 200 && s.ex.text.length <= MAX_ANSWER_CHARS,
    );
    if (!samples.length) ctx.skip('no interface read answered 200 to compare with');
    const cases = samples.flatMap((s) => [
      ...CLIENT_HEADER_SETS.map((set) => ({ s, what: set.what, call: { headers: set.headers() } })),
      // A public endpoint called with the token and tenant an SDK sends on every call.
      ...(!s.route.auth && ctx.target.hasToken
        ? [{ s, what: "the run's token and tenant", call: { credentials: 'token' as const } }]
        : []),
    ]);
    await inBatches(cases, 4, async ({ s, what, call }) => {
      const ex = await ctx.call('GET', s.route.path, { ...(s.route.auth ? {} : { credentials: 'none' }), ...call });
      if (ex.status === 429) return void ctx.note(`GET ${s.route.path} with ${what} answered 429: not judged`);
      const problem = differs(s.route.id, s.ex, ex);
      ctx.expect.that(problem === undefined, {
        expected: `GET ${s.route.path} with ${what} answers as without it (the interface asks for no such header and lets none change an answer)`,
        ...(problem ? { observed: problem } : {}),
        exchange: ex,
      });
    });
  },
});
