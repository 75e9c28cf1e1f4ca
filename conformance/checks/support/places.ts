import { ENVIRONMENTS } from '../../../simulator/contract/environment.ts';
import { SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import { routePath } from '../../rules/interface-routes.ts';
import type { CallOptions, CheckContext } from '../../runner/check.ts';

// The interface's rules hold wherever it is offered: at the second main-domain address ("The same interface is
// also offered under a second main-domain address"), for every tenant, in every environment value. A check
// that probes a rule at the main address, for the first tenant and in one environment, repeats its refusals
// in the other places: a team's bug often sits in one of them (a gateway at the alternate address, a
// tenant's own configuration, a production-only code path).

/** One place a call can be made in: where (address, tenant) and a name for the evidence. */
export interface Place {
  what: string;
  call: { base?: CallOptions['base']; tenant?: string; headers?: Record<string, string> };
  /** A refusal of the access itself (401/403) or of the catalog (404) is legal here: the tenant's own. */
  accessMayDiffer: boolean;
}

/**
 * The other places the target offers: its alternate address and its second tenant, when given, and the two
 * together.
 * @example for (const p of otherPlaces(ctx)) await ctx.call('POST', path, { ...p.call, json });
 */
export function otherPlaces(ctx: CheckContext): Place[] {
  const out: Place[] = [];
  if (ctx.target.altBaseUrl)
    out.push({ what: 'at the alternate base URL', call: { base: 'alt' }, accessMayDiffer: false });
  const other = ctx.target.otherTenant;
  if (other) out.push({ what: `for tenant ${other}`, call: { tenant: other }, accessMayDiffer: true });
  // Both at once: a gateway's per-tenant configuration at the alternate address is a place of its own.
  if (other && ctx.target.altBaseUrl)
    out.push({
      what: `for tenant ${other} at the alternate base URL`,
      call: { base: 'alt', tenant: other },
      accessMayDiffer: true,
    });
  return out;
}

/** The earlier published version, a place of its own ("No change that requires adaptation of clients"). */
export const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';

/**
 * The earlier published version as a place, when the target serves it to this caller (a read and a harmless
 * write naming it answer 200; whether a deployment must serve it is not shown): its limits are the current ones, as the
 * only change of 2026-07-01 a request sees is the delivery log. Asked once a run.
 * @example for (const p of await earlierVersionPlace(ctx)) await ctx.call('POST', path, { ...p.call, json });
 */
export function earlierVersionPlace(ctx: CheckContext): Promise<Place[]> {
  return ctx.shared('earlier-version-place', async () => {
    const headers = { 'Service-Version': EARLIER };
    const read = await ctx.call('GET', routePath('listConnections'), { headers });
    if (read.status !== 200) return [];
    // And its writes: a harmless one (a key issued) tells a deployment that serves that version's reads only.
    const write = await ctx.call('POST', routePath('createIdempotencyKey'), {
      headers: { ...headers, 'Idempotency-Key': ctx.label('earlier-place') },
      json: { operation: 'connection.create' },
    });
    return write.status === 200
      ? [{ what: `with Service-Version ${EARLIER}`, call: { headers }, accessMayDiffer: false }]
      : [];
  });
}

/** Every other place: the alternate address, the second tenant, the earlier version where it is served. */
export async function placesWithVersion(ctx: CheckContext): Promise<Place[]> {
  return [...otherPlaces(ctx), ...(await earlierVersionPlace(ctx))];
}

/**
 * Every place crossed with every other: the alternate address, the second tenant and the earlier version, each
 * alone and in every combination (a gateway's per-tenant configuration at the alternate address for callers of
 * the earlier version is a place of its own). The home (main address, first tenant, current version) is not one.
 * @example for (const p of await crossedPlaces(ctx)) await ctx.call('GET', path, p.call);
 */
export async function crossedPlaces(ctx: CheckContext): Promise<Place[]> {
  const versions: (Place | undefined)[] = [undefined, ...(await earlierVersionPlace(ctx))];
  const out: Place[] = [];
  for (const version of versions)
    for (const place of [undefined, ...otherPlaces(ctx)]) {
      if (!version && !place) continue;
      const headers = { ...place?.call.headers, ...version?.call.headers };
      out.push({
        what: [place?.what, version?.what].filter(Boolean).join(' '),
        call: { ...place?.call, ...(Object.keys(headers).length ? { headers } : {}) },
        accessMayDiffer: place?.accessMayDiffer ?? false,
      });
    }
  return out;
}

/** The environment values other than `except` (each a place of its own for a body that names one). */
export const otherEnvironments = (except?: string) => ENVIRONMENTS.filter((e) => e !== except);

/**
 * Judges an answer that must be a refusal in another place: not a success (the rule's refusal is 400 there
 * too; a 401/403 where the place's access may differ is the deployment's), and never a fault.
 * @example judgeRefusedThere(ctx, ex, place.accessMayDiffer, 'POST /capabilities with a capability of 121 characters in production')
 */
export function judgeRefusedThere(ctx: CheckContext, ex: Exchange, accessMayDiffer: boolean, rule: string): void {
  // Another tenant's or environment's access (401/403) or catalog (404: a connector not offered there, judged
  // before the body by some deployments) is that place's own: not judged.
  if (accessMayDiffer && (ex.status === 401 || ex.status === 403 || ex.status === 404)) return;
  ctx.expect.that(ex.status === 400, {
    expected: `${rule} answers 400 invalid_request, as at the main address for the first tenant (the interface's limits hold in every place it is offered)`,
    exchange: ex,
  });
}

/**
 * Where else a creation is refused alike: each other environment value (at the main address) and the
 * alternate address (in `environment`), for probes of POST /connections.
 * @example for (const p of creationPlaces(ctx, 'sandbox')) await postConnection(ctx, { ...base, environment: p.environment }, p.o);
 */
export async function creationPlaces(
  ctx: CheckContext,
  environment: string,
): Promise<
  {
    what: string;
    environment: string;
    o: { base?: CallOptions['base']; tenant?: string; headers?: Record<string, string> };
    accessMayDiffer: boolean;
  }[]
> {
  const other = ctx.target.otherTenant;
  return [
    ...otherEnvironments(environment).map((e) => ({ what: `in ${e}`, environment: e, o: {}, accessMayDiffer: true })),
    ...(ctx.target.altBaseUrl
      ? [{ what: 'at the alternate base URL', environment, o: { base: 'alt' as const }, accessMayDiffer: false }]
      : []),
    ...(other ? [{ what: `for tenant ${other}`, environment, o: { tenant: other }, accessMayDiffer: true }] : []),
    ...(await earlierVersionPlace(ctx)).map((p) => ({ what: p.what, environment, o: p.call, accessMayDiffer: false })),
  ];
}

/**
 * Judges an answer that must pass validation in another place, as the same value did at the main address for
 * the first tenant: not 400, never a fault (a refusal of the place's access or catalog is the deployment's).
 * @example judgeAcceptedThere(ctx, ex, true, 'POST /capabilities for tenant b with a capability of 2 characters')
 */
export function judgeAcceptedThere(ctx: CheckContext, ex: Exchange, accessMayDiffer: boolean, rule: string): void {
  if (accessMayDiffer && (ex.status === 401 || ex.status === 403 || ex.status === 404)) return;
  ctx.expect.that(ex.status !== 400 && ex.status < 500, {
    expected: `${rule} passes validation (not 400, no 5xx), as at the main address for the first tenant (the interface's limits hold in every place it is offered)`,
    exchange: ex,
  });
}
