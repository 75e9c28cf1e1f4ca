import { ENVIRONMENTS, type Environment } from '../../../simulator/contract/environment.ts';
import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
import { nextPage } from './audit-paging.ts';
import { capabilityCheckRoute } from './error-probes.ts';
import { readEventually } from './eventually.ts';
import { successSamples } from './samples.ts';

/** A connection creation body without its scopeLabel (each call labels its own). */
export interface CreationBase {
  connectorId: string;
  environment: Environment;
  capabilities: string[];
}

/** POST /connections of the interface. */
export function createConnectionRoute() {
  const route = ROUTE_BY_ID.get('createConnection');
  if (!route) throw new Error('the route table has no createConnection');
  return route;
}

export const CONNECTIONS_PATH = () => createConnectionRoute().path;

/** How many catalog pairs the kit asks about before giving up (each is one POST /capabilities). */
const MAX_CANDIDATES = 6;

/** How many capability checks the search for a creation with three or more capabilities may ask. */
const SEVERAL_BUDGET = 16;

function candidatePairs(ex: Exchange | undefined): { connectorId: string; capability: string }[] {
  const connectors = (ex?.json as { data?: { connectors?: { id?: unknown; capabilities?: unknown }[] } } | undefined)
    ?.data?.connectors;
  const out: { connectorId: string; capability: string }[] = [];
  for (const c of Array.isArray(connectors) ? connectors : []) {
    const caps = Array.isArray(c.capabilities) ? c.capabilities.filter((x): x is string => typeof x === 'string') : [];
    for (const capability of caps)
      if (typeof c.id === 'string' && out.length < MAX_CANDIDATES) out.push({ connectorId: c.id, capability });
  }
  return out;
}

/**
 * A body the target should accept for POST /connections: a connector and capability from its own
 * catalog that its capability check allows in the target's environment (sandbox when unknown).
 * Computed once per run; undefined when the catalog offers none.
 */
export function creationBase(ctx: CheckContext): Promise<CreationBase | undefined> {
  return ctx.shared('creation-base', async () => {
    const environment: Environment = (ENVIRONMENTS as readonly string[]).includes(ctx.target.environment ?? '')
      ? (ctx.target.environment as Environment)
      : 'sandbox';
    const samples = await successSamples(ctx);
    const path = capabilityCheckRoute().path;
    for (const pair of candidatePairs(samples.find((s) => s.route.id === 'listConnectors')?.ex)) {
      const ex = await ctx.call('POST', path, { json: { ...pair, environment } });
      const allowed = (ex.json as { data?: { decision?: { allowed?: unknown } } } | undefined)?.data?.decision?.allowed;
      if (ex.status === 200 && allowed === true)
        return { connectorId: pair.connectorId, environment, capabilities: [pair.capability] };
    }
    return undefined;
  });
}

/**
 * A creation base with several capabilities of one connector, each allowed by the target's capability
 * check, in reverse alphabetical order (an order no sort gives back): three or four where the catalog
 * has them (a list of two is where a fixed pair of slots would hide), else two; undefined when the
 * catalog offers no connector with two allowed capabilities among the first few asked. Computed once per run.
 */
export function severalCapabilitiesBase(ctx: CheckContext): Promise<CreationBase | undefined> {
  return ctx.shared('creation-base-several', async () => {
    const base = await creationBase(ctx);
    if (!base) return undefined;
    const samples = await successSamples(ctx);
    const connectors = (
      samples.find((s) => s.route.id === 'listConnectors')?.ex.json as
        | { data?: { connectors?: { id?: unknown; capabilities?: unknown }[] } }
        | undefined
    )?.data?.connectors;
    const path = capabilityCheckRoute().path;
    let asked = 0;
    let two: CreationBase | undefined;
    for (const c of Array.isArray(connectors) ? connectors : []) {
      const caps = Array.isArray(c.capabilities)
        ? c.capabilities.filter((x): x is string => typeof x === 'string')
        : [];
      if (typeof c.id !== 'string' || new Set(caps).size < 2) continue;
      const allowed: string[] = [];
      for (const capability of [...new Set(caps)].slice(0, 4)) {
        if (++asked > SEVERAL_BUDGET) return two;
        const ex = await ctx.call('POST', path, {
          json: { connectorId: c.id, capability, environment: base.environment },
        });
        const ok = (ex.json as { data?: { decision?: { allowed?: unknown } } } | undefined)?.data?.decision?.allowed;
        if (ex.status === 200 && ok === true) allowed.push(capability);
      }
      const found = { connectorId: c.id, environment: base.environment, capabilities: allowed.sort().reverse() };
      if (allowed.length >= 3) return found;
      if (allowed.length === 2) two ??= found;
    }
    return two;
  });
}

/** The creation base, or a skip saying why the check cannot create anything on this target. */
export async function requireCreationBase(ctx: CheckContext): Promise<CreationBase> {
  const base = await creationBase(ctx);
  if (!base)
    ctx.skip(
      'found no connector and capability in GET /connectors that POST /capabilities allows: nothing to create a connection with',
    );
  return base;
}

export interface CreateOptions {
  /** The Idempotency-Key; false sends none. Default: a fresh label. */
  key?: string | false;
  tenant?: string;
  retry?: boolean;
  /** Further headers (e.g. another Service-Version). */
  headers?: Record<string, string>;
  base?: 'main' | 'alt';
}

/**
 * A fresh Idempotency-Key that uses every kind of character the pattern ^[A-Za-z0-9._:-]{8,128}$ allows
 * (upper and lower case, digits, dot, underscore, colon, hyphen): a deployment that folds, trims or
 * rewrites keys then shows it in every echo and replay the kit judges, not only in the one check about keys.
 * @example freshKey(ctx) // 'ncs-conformance-1a2b3c4d-key-17.Kx_9:Q'
 */
export function freshKey(ctx: CheckContext): string {
  return `${ctx.label('key')}.Kx_9:Q`.slice(0, 128);
}

/** POST /connections with `body` (JSON) and an Idempotency-Key. */
export function postConnection(ctx: CheckContext, body: unknown, o: CreateOptions = {}): Promise<Exchange> {
  const key = o.key === undefined ? freshKey(ctx) : o.key;
  return ctx.call('POST', CONNECTIONS_PATH(), {
    json: body,
    headers: { ...o.headers, ...(key !== false ? { 'Idempotency-Key': key } : {}) },
    ...(o.base ? { base: o.base } : {}),
    ...(o.tenant ? { tenant: o.tenant } : {}),
    ...(o.retry !== undefined ? { retry: o.retry } : {}),
  });
}

/** Creates one labelled connection; the answer and its id (undefined when creation failed). */
export async function createLabelledConnection(
  ctx: CheckContext,
  kind = 'connection',
  o: CreateOptions = {},
  suffix = '',
) {
  const base = await requireCreationBase(ctx);
  const scopeLabel = `${ctx.label(kind)}${suffix}`;
  const ex = await postConnection(ctx, { ...base, scopeLabel }, o);
  // A label the deployment refuses for its suffix (letters beyond ASCII: a legal string, but the kit's
  // choice, not the interface's) is sent again without it: the caller's check is about something else.
  if (suffix && ex.status === 400) return createLabelledConnection(ctx, kind, o);
  return { ex, scopeLabel, id: dataIdOf(ex) };
}

/** data.id of a success, if any. */
export function dataIdOf(ex: Exchange): string | undefined {
  const id = (ex.json as { data?: { id?: unknown } } | undefined)?.data?.id;
  return ex.status >= 200 && ex.status < 300 && typeof id === 'string' ? id : undefined;
}

type Listed = { id?: unknown; scopeLabel?: unknown };
const listedOf = (ex: Exchange) => {
  const data = (ex.json as { data?: { connections?: unknown; count?: unknown } } | undefined)?.data;
  return { list: Array.isArray(data?.connections) ? (data.connections as Listed[]) : [], count: data?.count };
};

/** How many further pages of a paged list are read (a tenant of a staging deployment may hold thousands). */
const MAX_PAGES = 20;

/**
 * The tenant's connections as GET /connections lists them (empty when the answer is not a list). Paging is not
 * shown; where an answer counts more than it lists and offers a next page (a Link header, a `next` field: Django
 * REST framework's default page of 100), the pages are read on, so a tenant with many connections (a staging
 * deployment the kit ran against before) still shows the run's. `ex` is the first page's answer.
 */
export async function listConnections(ctx: CheckContext, tenant?: string) {
  const ex = await ctx.call('GET', CONNECTIONS_PATH(), tenant ? { tenant } : {});
  const { list, count } = listedOf(ex);
  const connections = [...list];
  const seen = new Set<string>();
  let page = ex;
  for (let n = 0; n < MAX_PAGES && typeof count === 'number' && connections.length < count; n++) {
    const next = nextPage(page);
    if (!next || seen.has(next)) break;
    seen.add(next);
    page = await ctx.call('GET', next, tenant ? { tenant } : {});
    const more = listedOf(page).list;
    if (page.status !== 200 || more.length === 0) break;
    connections.push(...more);
  }
  return { ex, connections };
}

/**
 * The tenant's connections once `shows` holds for them, or the last read when the deployment profile's
 * listConsistencyWaitMs has passed without it: a deployment may list a creation a moment after answering
 * it (the interface promises no read-after-write). The first read is taken when it already shows it.
 * @example await listedEventually(ctx, (cs) => cs.some((c) => c.id === id))
 */
export function listedEventually(
  ctx: CheckContext,
  shows: (connections: { id?: unknown; scopeLabel?: unknown }[]) => boolean,
  tenant?: string,
) {
  return readEventually(
    ctx,
    () => listConnections(ctx, tenant),
    (read) => read.ex.status !== 200 || shows(read.connections),
  );
}

/**
 * How many of the tenant's connections carry this scope label; with `atLeast`, read again (within the
 * profile's listConsistencyWaitMs) until that many show.
 */
export async function countLabelled(ctx: CheckContext, scopeLabel: string, tenant?: string, atLeast = 0) {
  const labelled = (cs: { scopeLabel?: unknown }[]) => cs.filter((c) => c.scopeLabel === scopeLabel).length;
  const { ex, connections } = await listedEventually(ctx, (cs) => labelled(cs) >= atLeast, tenant);
  return { ex, count: labelled(connections) };
}

/**
 * Whether a key sent again went with another token than its first use (a short-lived token renewed between the
 * two). Where keys are scoped per access (not shown; zelkova's choice) it is a new key there: a replay check
 * leaves such a pair unjudged unless the deployment replayed it anyway.
 * @example if (renewedBetween(made, again) && !replayed(again)) ctx.note('not judged');
 */
export function renewedBetween(first: Exchange, again: Exchange): boolean {
  const auth = (x: Exchange) =>
    Object.entries(x.requestHeaders).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  return auth(first) !== auth(again);
}
