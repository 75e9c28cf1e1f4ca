import { isDeepStrictEqual } from 'node:util';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { listedEventually, postConnection, requireCreationBase } from '../checks/support/connections.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CallOptions, type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { probeMarker } from './probe-checks.ts';
import { probesOf } from './probes.ts';
import { operations } from './request-fields.ts';
import { shapeDiff, shapeOf } from './shape.ts';
import { validCalls } from './valid-calls.ts';

const body = (ex: Exchange) =>
  (ex.json ?? {}) as { data?: Record<string, unknown>; meta?: Record<string, unknown>; error?: { code?: unknown } };

/** Semantics a creation must share on both addresses: everything but the identity and the times. */
// nextStep: its content is "not shown" (it may well name the connection).
const IDENTITY = new Set([
  'id',
  'createdAt',
  'scopeLabel',
  'idempotencyKey',
  'expiresAt',
  'requestId',
  'at',
  'nextStep',
]);
/** The fields the contract gives a route's data (further fields are the deployment's, compared by shape only). */
const contractKeys = (route: RouteDef) =>
  Object.keys((route.data as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
const semantics = (route: RouteDef, data: Record<string, unknown> | undefined, identity: boolean) =>
  Object.fromEntries(
    Object.entries(data ?? {}).filter(([k]) => contractKeys(route).includes(k) && (!identity || !IDENTITY.has(k))),
  );

/** The fields whose values differ, as path: main vs alternate. */
function valueDiff(main: Record<string, unknown> | undefined, alt: Record<string, unknown> | undefined): string {
  const keys = new Set([...Object.keys(main ?? {}), ...Object.keys(alt ?? {})]);
  return [...keys]
    .filter((k) => !isDeepStrictEqual(main?.[k], alt?.[k]))
    .slice(0, 5)
    .map(
      (k) =>
        `data.${k}: main ${JSON.stringify(main?.[k])?.slice(0, 80)}, alternate ${JSON.stringify(alt?.[k])?.slice(0, 80)}`,
    )
    .join('; ');
}

function compare(ctx: CheckContext, route: RouteDef, what: string, main: Exchange, alt: Exchange, sameData: boolean) {
  const rule = `${what} answers alike on ${ctx.target.altBaseUrl} and ${ctx.target.baseUrl}`;
  // A 429 left after the retry policy is the deployment pacing the kit, not an answer to compare.
  if (main.status === 429 || alt.status === 429) {
    ctx.note(`${what}: rate limited (429) after the retry policy on one address: not compared`);
    return;
  }
  if (
    !ctx.expect.that(main.status === alt.status, {
      expected: `${rule}: the same status`,
      observed: `${alt.status} on the alternate URL, ${main.status} on the main one`,
      exchange: alt,
    })
  )
    return;
  if (main.status >= 400) {
    ctx.expect.that(body(main).error?.code === body(alt).error?.code, {
      expected: `${rule}: the same error.code`,
      observed: `${JSON.stringify(body(alt).error?.code)} on the alternate URL, ${JSON.stringify(body(main).error?.code)} on the main one`,
      exchange: alt,
    });
    return;
  }
  const diff = shapeDiff(shapeOf(body(main).data), shapeOf(body(alt).data));
  ctx.expect.that(diff.length === 0, {
    expected: `${rule}: data of the same shape`,
    observed: diff.slice(0, 5).join('; '),
    exchange: alt,
  });
  const [m, a] = [semantics(route, body(main).data, !sameData), semantics(route, body(alt).data, !sameData)];
  ctx.expect.that(isDeepStrictEqual(m, a), {
    expected: `${rule}: ${sameData ? 'the same data' : 'the same data but for identity and times'}`,
    observed: valueDiff(m, a),
    exchange: alt,
  });
}

/**
 * Every operation with a request, on both addresses: a refused probe (the first the contract
 * generates) answers the same status and code; a capability check the same data; a key and a
 * creation made once on each compare by shape and semantics, and each creation is seen on both.
 */
async function altWrites(ctx: CheckContext) {
  const marker = probeMarker(ctx);
  for (const op of operations()) {
    if (op.route.auth && !ctx.target.hasToken) continue;
    const make = await validCalls(ctx, op);
    if (typeof make === 'string') continue;
    // The first refused probe the contract generates, and every required value left out: a second
    // address's validation may differ in one field (a gateway defaulting a missing environment).
    const refusedProbes = probesOf(op, ctx.seed, make, marker).filter((p) => !p.expect.accepted);
    const probe = refusedProbes[0];
    if (!probe) continue;
    const chosen = [probe, ...refusedProbes.filter((p) => p !== probe && p.id.endsWith('.missing'))];
    const send = (
      base: 'main' | 'alt',
      p: { body?: unknown; query: Record<string, string>; headers: Record<string, string> },
    ) => {
      const o: CallOptions = {
        base,
        credentials: op.route.auth ? 'token' : 'none',
        query: p.query,
        headers: p.headers,
        ...(p.body !== undefined ? { json: p.body } : {}),
      };
      return (op.route.kind ?? 'json') === 'sse'
        ? ctx.stream(op.route.path, o).then(async (s) => (await s.close(), s.ex))
        : ctx.call(op.route.method, op.route.path, o);
    };
    // The same refused call on each address (a refused call stores nothing, so its key may repeat).
    for (const p of chosen) {
      const [main, alt] = [await send('main', p), await send('alt', p)];
      compare(ctx, op.route, `${op.route.method} ${op.route.path} probe ${p.id}`, main, alt, true);
    }
    if (op.route.method === 'GET' || ctx.profile !== 'full') continue;
    // A connector named in other letter case: how an identifier is matched is not shown, but the same
    // interface matches it alike on both addresses (a second address's gateway folding case takes it).
    const named = make('cased').body?.connectorId;
    if (typeof named === 'string' && otherCase(named) !== named) {
      const cased = (c: ReturnType<typeof make>) => ({ ...c, body: { ...c.body, connectorId: otherCase(named) } });
      compare(
        ctx,
        op.route,
        `${op.route.method} ${op.route.path} with connectorId ${otherCase(named)} (the listed id in other letter case)`,
        await send('main', cased(make('cased-main'))),
        await send('alt', cased(make('cased-alt'))),
        op.route.id === 'checkCapability',
      );
    }
    if (op.route.id === 'createConnection') continue;
    compare(
      ctx,
      op.route,
      `${op.route.method} ${op.route.path}`,
      await send('main', make('valid')),
      await send('alt', make('valid-alt')),
      op.route.id === 'checkCapability',
    );
  }
  await altFilteredReads(ctx);
  if (ctx.profile !== 'full' || !ctx.target.hasToken) return;
  const base = await requireCreationBase(ctx);
  const labels = { main: ctx.label('alt-main'), alt: ctx.label('alt-alt') };
  const main = await postConnection(ctx, { ...base, scopeLabel: labels.main });
  const alt = await ctx.call('POST', pathOf('createConnection'), {
    base: 'alt',
    json: { ...base, scopeLabel: labels.alt },
    headers: { 'Idempotency-Key': ctx.label('key') },
  });
  compare(
    ctx,
    must(ROUTE_BY_ID.get('createConnection'), 'the contract defines createConnection'),
    'POST /connections (one creation on each address)',
    main,
    alt,
    false,
  );
  // Only the creations that were made (a 429 after the retry policy made none), on lists that were read.
  const made = [...(dataOk(main) ? [labels.main] : []), ...(dataOk(alt) ? [labels.alt] : [])];
  const showsAll = (cs: { scopeLabel?: unknown }[]) => made.every((label) => cs.some((c) => c.scopeLabel === label));
  // A list may show a creation a moment after it was answered: the main list read until it shows both.
  const onMain = await listedEventually(ctx, showsAll);
  const onAlt = await ctx.call('GET', pathOf('listConnections'), { base: 'alt' });
  const altList = (body(onAlt).data?.connections as { scopeLabel?: unknown }[] | undefined) ?? [];
  if (onMain.ex.status === 429 || onAlt.status === 429) {
    ctx.note('GET /connections rate limited (429) after the retry policy: the creations not looked for in the lists');
    return;
  }
  for (const label of made) {
    ctx.expect.that(
      onMain.connections.some((c) => c.scopeLabel === label) && altList.some((c) => c.scopeLabel === label),
      {
        expected: `the connection ${label} is listed by GET /connections on both addresses (one interface, one set of data)`,
        exchange: onAlt,
      },
    );
  }
}

/** A creation the deployment made (2xx). */
const dataOk = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

/**
 * Every read with an optional query parameter, filtered on both addresses by a value the list itself
 * offers (the first entry's field of that name, or the first item of its plural): the same data.
 */
async function altFilteredReads(ctx: CheckContext) {
  for (const op of operations()) {
    const filters = op.fields.filter((f) => f.in === 'query' && !f.required);
    if (op.route.method !== 'GET' || (op.route.kind ?? 'json') !== 'json' || !filters.length) continue;
    if (op.route.auth && !ctx.target.hasToken) continue;
    const credentials = op.route.auth ? ('token' as const) : ('none' as const);
    const all = await ctx.call('GET', op.route.path, { credentials });
    const list = Object.values(body(all).data ?? {}).find(Array.isArray) as Record<string, unknown>[] | undefined;
    const entry = list?.find((e) => e && typeof e === 'object');
    if (!entry) continue;
    for (const f of filters) {
      const plural = entry[`${f.name}s`];
      const value = entry[f.name] ?? (Array.isArray(plural) ? plural[0] : undefined);
      if (typeof value !== 'string') continue;
      // The value, in other letter case, and its first half: matched alike on both addresses (a region's
      // search index folding case or matching prefixes lists what the other does not).
      const values = [value, ...matchVariants(value)];
      for (const v of values) {
        const query = { [f.name]: v };
        const [main, alt] = [
          await ctx.call('GET', op.route.path, { credentials, query }),
          await ctx.call('GET', op.route.path, { base: 'alt', credentials, query }),
        ];
        compare(ctx, op.route, `GET ${op.route.path}?${f.name}=${v}`, main, alt, true);
      }
    }
  }
}

/**
 * A value in other letter case and its first half (two characters at least), without the value itself: what a
 * place matching identifiers its own way (folding case, by prefix) answers differently from another.
 * @example matchVariants('pos-cloud') // ['POS-CLOUD', 'pos-c']
 */
export function matchVariants(value: string): string[] {
  const half = value.slice(0, Math.ceil(value.length / 2));
  return [...new Set([otherCase(value), ...(half.length >= 2 ? [half] : [])])].filter((v) => v !== value);
}

/** Each letter in the other case: `Tillcraft-POS` → `tILLCRAFT-pos` (an id without letters stays as it is). */
export const otherCase = (text: string) =>
  text.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

const pathOf = (id: string) => must(ROUTE_BY_ID.get(id), `the contract defines ${id}`).path;

export const altWritesAlike = defineCheck({
  name: 'generated.alt-operations-alike',
  title:
    'every operation answers alike on both base URLs: refusals by status and code, writes (made once on each) by shape and semantics, identifiers and filter values in other letter case or cut short matched alike',
  severity: 'MUST',
  section: 'Network Connections Service Interface',
  tags: ['generated', 'base-urls'],
  mutating: true,
  requires: ['alt-base-url'],
  run: altWrites,
});

export const baseUrlChecks = [altWritesAlike];
