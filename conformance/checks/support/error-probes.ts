import type { ErrorCode } from '../../../simulator/contract/errors.ts';
import { ROUTE_BY_ID } from '../../../simulator/contract/route-table.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import { interfaceRoutes } from '../../rules/interface-routes.ts';
import type { CheckContext } from '../../runner/check.ts';

/** A request built to fail, the code the interface pairs with its cause, and the answer. */
export interface Probe {
  name: string;
  /** What the request does wrong, for failure texts. */
  what: string;
  /** The code the interface names for this cause; undefined when it names none (any code of the table will do). */
  expected?: ErrorCode;
  ex: Exchange;
  /** A spelling of a route a deployment may serve as the route (a trailing slash): judged only when refused. */
  mayServe?: boolean;
}

/** An authenticated GET of the interface to aim auth probes at (GET /providers in this interface). */
export function authenticatedGet() {
  const route = interfaceRoutes().find((r) => r.auth && r.method === 'GET' && !r.path.includes('{'));
  if (!route) throw new Error('the interface has no authenticated GET route');
  return route;
}

/** The capability check: a non-modifying POST with a validated body. */
export function capabilityCheckRoute() {
  const route = ROUTE_BY_ID.get('checkCapability');
  if (!route) throw new Error('the route table has no checkCapability');
  return route;
}

/**
 * Error responses whose cause the interface names, provoked once per run and shared by the
 * errors.* checks: a missing and an unknown token, and (with credentials) a missing tenant header
 * and three unsuitable bodies. None of them can modify anything.
 */
export function errorProbes(ctx: CheckContext): Promise<Probe[]> {
  return ctx.shared('error-probes', async () => {
    const get = authenticatedGet();
    const post = capabilityCheckRoute();
    const probes: Promise<Probe>[] = [
      ctx.call('GET', get.path, { credentials: 'none' }).then((ex) => ({
        name: 'missing-token',
        what: `GET ${get.path} without Authorization`,
        expected: 'unauthorized' as const,
        ex,
      })),
      // With the tenant header when known, so the token is the only thing wrong.
      ctx
        .call('GET', get.path, {
          credentials: 'none',
          headers: { authorization: `Bearer ${ctx.label('invalid-token')}` },
          ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
        })
        .then((ex) => ({
          name: 'invalid-token',
          what: `GET ${get.path} with an unknown bearer token`,
          expected: 'unauthorized' as const,
          ex,
        })),
    ];
    if (ctx.target.hasToken) {
      probes.push(
        ctx
          .call('GET', get.path, { tenant: false })
          .then((ex) => ({ name: 'missing-tenant', what: `GET ${get.path} without x-service-tenant`, ex })),
        ctx.call('POST', post.path, { json: {} }).then((ex) => ({
          name: 'missing-field',
          what: `POST ${post.path} with required fields missing`,
          expected: 'invalid_request' as const,
          ex,
        })),
        ctx.call('POST', post.path, { json: { connectorId: 42, capability: true } }).then((ex) => ({
          name: 'wrong-type',
          what: `POST ${post.path} with fields of the wrong type`,
          expected: 'invalid_request' as const,
          ex,
        })),
        ctx
          .call('POST', post.path, {
            body: '{"connectorId": "ncs-conformance',
            headers: { 'content-type': 'application/json' },
          })
          .then((ex) => ({
            name: 'malformed-json',
            what: `POST ${post.path} with a truncated JSON body`,
            expected: 'invalid_request' as const,
            ex,
          })),
        // JSON, but not an object: the body the route describes is one ("Body (JSON)" with fields); the generated
        // probes send arrays and objects of other shapes, these the scalars a body guard may not expect.
        ...[
          ['scalar-json', '"ncs-conformance"', 'a JSON string as the body'],
          ['number-json', '42', 'a JSON number as the body'],
        ].map(([name, body, what]) =>
          ctx.call('POST', post.path, { body, headers: { 'content-type': 'application/json' } }).then((ex) => ({
            name: name ?? '',
            what: `POST ${post.path} with ${what}`,
            expected: 'invalid_request' as const,
            ex,
          })),
        ),
      );
    }
    return Promise.all(probes);
  });
}

/** Calls the interface does not define (unknown path, unoffered method): how they fail is advisory. */
export function undefinedCallProbes(ctx: CheckContext): Promise<Probe[]> {
  return ctx.shared('undefined-call-probes', async () => {
    const credentials = ctx.target.hasToken ? 'token' : 'none';
    const unknown = `${BASE_PATH}/${ctx.label('no-such-path')}`;
    const get = authenticatedGet();
    // Other spellings of a route: served as the route or refused, a refusal is an error answer like any other (an
    // HTML page of the framework, a code outside the table, no meta are not the failure envelope).
    const rest = get.path.slice(BASE_PATH.length + 1);
    const spellings = [
      [`${get.path}/`, 'with a trailing slash'],
      [`${BASE_PATH}//${rest}`, 'with a doubled slash'],
      [`${BASE_PATH}/%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`, 'with its first letter percent-encoded'],
    ] as const;
    return Promise.all([
      ctx.call('GET', unknown, { credentials }).then((ex) => ({ name: 'unknown-path', what: `GET ${unknown}`, ex })),
      // Without credentials: a read-only kit never sends a DELETE that a deployment might honour.
      ctx
        .call('DELETE', get.path, { credentials: 'none' })
        .then((ex) => ({ name: 'wrong-method', what: `DELETE ${get.path} (not offered)`, ex })),
      ...(ctx.target.altBaseUrl
        ? [
            ctx
              .call('GET', unknown, { credentials, base: 'alt' })
              .then((ex) => ({ name: 'unknown-path-alt', what: `GET ${unknown} at the alternate address`, ex })),
          ]
        : []),
      ...spellings.map(([path, what]) =>
        ctx
          .call('GET', path, { credentials })
          .then((ex) => ({ name: 'spelling', what: `GET ${path} (${get.path} ${what})`, ex, mayServe: true })),
      ),
    ]);
  });
}

/** Every error answer among the probes (a probe answered 2xx is judged by auth.* and errors.invalid-request). */
/**
 * One probe of `errorProbes` by name (the names are this module's own, so a missing one is a bug here).
 * @example const probe = await errorProbe(ctx, 'missing-token');
 */
export async function errorProbe(ctx: CheckContext, name: string): Promise<Probe> {
  const probe = (await errorProbes(ctx)).find((p) => p.name === name);
  if (!probe) throw new Error(`no error probe named ${name}`);
  return probe;
}

export const errorAnswers = (probes: Probe[]) => probes.filter((p) => p.ex.status >= 400);
