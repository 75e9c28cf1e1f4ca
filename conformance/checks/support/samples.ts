import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { Exchange } from '../../client/http-client.ts';
import { inBatches, interfaceRoutes } from '../../rules/interface-routes.ts';
import type { CheckContext } from '../../runner/check.ts';
import { publicGet } from './public-get.ts';

/** One valid call of an interface endpoint and its answer. */
export interface Sample {
  route: RouteDef;
  ex: Exchange;
}

/** A connector and one capability it offers, read from the target's own catalog. */
export interface KnownPair {
  connectorId: string;
  capability: string;
}

/**
 * Valid read-only calls that are not plain GETs, by route id: each builds its body from the
 * target's catalog. Later areas add theirs here (never a modifying call: samples run read-only).
 */
const READ_ONLY_POSTS: Record<string, (pair: KnownPair) => unknown> = {
  checkCapability: (pair) => ({ connectorId: pair.connectorId, capability: pair.capability }),
};

/** The operations the shared samples call with POST without changing anything (a capability check). */
export const READ_ONLY_POST_IDS: ReadonlySet<string> = new Set(Object.keys(READ_ONLY_POSTS));

/** Plain JSON GETs without path parameters: callable with no knowledge of the target's data. */
const plainGets = () =>
  interfaceRoutes().filter((r) => r.method === 'GET' && (r.kind ?? 'json') === 'json' && !r.path.includes('{'));

function firstPair(ex: Exchange | undefined): KnownPair | undefined {
  const connectors = (ex?.json as { data?: { connectors?: { id?: unknown; capabilities?: unknown }[] } } | undefined)
    ?.data?.connectors;
  for (const c of Array.isArray(connectors) ? connectors : []) {
    const caps = Array.isArray(c.capabilities) ? c.capabilities.filter((x): x is string => typeof x === 'string') : [];
    if (typeof c.id === 'string' && caps[0]) return { connectorId: c.id, capability: caps[0] };
  }
  return undefined;
}

/**
 * One valid call per readable interface endpoint (public ones without credentials, the others
 * with the run's token when there is one), made once per run and shared.
 */
export function successSamples(ctx: CheckContext): Promise<Sample[]> {
  return ctx.shared('success-samples', async () => {
    const routes = plainGets().filter((r) => !r.auth || ctx.target.hasToken);
    const samples = await inBatches(routes, 4, async (route) => ({
      route,
      // A public one is the run's shared read of it (the same call).
      ex: route.auth ? await ctx.call('GET', route.path) : await publicGet(ctx, route.path),
    }));
    const pair = ctx.target.hasToken ? firstPair(samples.find((s) => s.route.id === 'listConnectors')?.ex) : undefined;
    if (pair) {
      for (const [id, body] of Object.entries(READ_ONLY_POSTS)) {
        const route = ROUTE_BY_ID.get(id);
        if (route && !route.addition)
          samples.push({ route, ex: await ctx.call(route.method, route.path, { json: body(pair) }) });
      }
    }
    return samples;
  });
}

/** A connector and capability from the target's catalog (for boundary checks), or undefined. */
export async function knownPair(ctx: CheckContext): Promise<KnownPair | undefined> {
  const samples = await successSamples(ctx);
  return firstPair(samples.find((s) => s.route.id === 'listConnectors')?.ex);
}

/**
 * A connector and capability whose capability the catalog flags (idempotencyRequired first, then critical): a
 * decision that loses a flag in some place shows only on a flagged capability. Else `knownPair`.
 * @example const pair = await flaggedPair(ctx); // { connectorId: 'c-1', capability: 'orders.write' }
 */
export async function flaggedPair(ctx: CheckContext): Promise<KnownPair | undefined> {
  const samples = await successSamples(ctx);
  const list = (id: string, field: string) => {
    const data = (samples.find((s) => s.route.id === id)?.ex.json as { data?: Record<string, unknown> } | undefined)
      ?.data?.[field];
    return (Array.isArray(data) ? data : []) as Record<string, unknown>[];
  };
  const connectors = list('listConnectors', 'connectors');
  const capabilities = list('listCapabilities', 'capabilities');
  for (const flag of ['idempotencyRequired', 'critical'])
    for (const cap of capabilities.filter((c) => c[flag] === true && typeof c.id === 'string')) {
      const offering = connectors.find(
        (c) => typeof c.id === 'string' && Array.isArray(c.capabilities) && c.capabilities.includes(cap.id),
      );
      if (offering) return { connectorId: String(offering.id), capability: String(cap.id) };
    }
  return knownPair(ctx);
}
