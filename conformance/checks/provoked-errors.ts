import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { recordRefused } from '../generated/trace.ts';
import { failureEnvelopeProblem } from '../rules/response-rules.ts';
import { defineCheck } from '../runner/check.ts';
import { armed, armFault } from './support/arm-fault.ts';
import { postConnection } from './support/connections.ts';
import { capabilityDeniedBodies } from './support/denied-case.ts';
import { authenticatedGet, capabilityCheckRoute } from './support/error-probes.ts';
import { earlierVersionPlace } from './support/places.ts';

/** MUST (Errors: forbidden, "tenant not released"): a tenant the token may not act for answers 403. */
export const forbiddenTenant = defineCheck({
  name: 'errors.forbidden-tenant',
  title:
    'a call for a tenant the access is not released for answers 403 forbidden, at the alternate address and under the earlier version too',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'tenant'],
  mutating: false,
  requires: ['token', 'foreign-tenant'],
  async run(ctx) {
    const get = authenticatedGet();
    const tenant = ctx.target.foreignTenant;
    if (!tenant) ctx.skip('no foreign tenant given (--foreign-tenant)');
    const ex = await ctx.call('GET', get.path, { tenant });
    ctx.expect.errorCode(ex, 'forbidden', `GET ${get.path} with x-service-tenant ${tenant} answers 403 forbidden`);
    // "The same interface is also offered under a second main-domain address", and the earlier published version
    // is the same service: the same refusal at either address under either version (a tenant guard of the older
    // handlers answering 404 is another code).
    const [earlier] = await earlierVersionPlace(ctx);
    const places = [
      ...(ctx.target.altBaseUrl ? [{ what: 'at the alternate address', call: { base: 'alt' as const } }] : []),
      ...(earlier ? [earlier] : []),
      ...(earlier && ctx.target.altBaseUrl
        ? [{ what: `${earlier.what} at the alternate address`, call: { ...earlier.call, base: 'alt' as const } }]
        : []),
    ];
    for (const place of places) {
      const there = await ctx.call('GET', get.path, { ...place.call, tenant });
      ctx.expect.errorCode(
        there,
        'forbidden',
        `GET ${get.path} with x-service-tenant ${tenant} ${place.what} answers 403 forbidden`,
      );
    }
  },
});

/** MUST (Errors: not_found, "wrong identifier"): an unknown connectorId is not_found, or a decision "not allowed". */
export const notFound = defineCheck({
  name: 'errors.not-found',
  title: 'a capability check naming an unknown connector answers 404 not_found (or a decision that is not allowed)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const post = capabilityCheckRoute();
    const ex = await ctx.call('POST', post.path, {
      json: { connectorId: ctx.label('connector'), capability: 'orders.read' },
    });
    // A decision is the interface's other legal answer; whether it allows is capabilities.unknown-connector's rule.
    if (ex.status === 200) return ctx.note(`POST ${post.path} answered an unknown connector with a decision`);
    ctx.expect.errorCode(ex, 'not_found', `POST ${post.path} with an unknown connectorId answers 404 not_found`);
  },
});

/** MUST (Errors: capability_denied): the case the deployment profile names answers 409 capability_denied. */
export const capabilityDenied = defineCheck({
  name: 'errors.capability-denied',
  title:
    'a connection booking a capability that is not released answers 409 capability_denied (case from the deployment profile; an unoffered capability of each criticality)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'connections'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    for (const body of await capabilityDeniedBodies(ctx)) {
      const scopeLabel = ctx.label('denied');
      const ex = await postConnection(ctx, { ...body, scopeLabel });
      // A refusal writes nothing: its label is looked for after the run (generated.refused-left-no-trace).
      if (ex.status >= 400 && ex.status < 500)
        await recordRefused(
          ctx,
          `POST ${BASE_PATH}/connections refused ${ex.status} (errors.capability-denied)`,
          [scopeLabel],
          scopeLabel,
        );
      ctx.expect.errorCode(
        ex,
        'capability_denied',
        `POST ${BASE_PATH}/connections booking ${body.capabilities[0]} on ${body.connectorId} answers 409 capability_denied`,
      );
    }
  },
});

/** MUST (Errors: internal): a fault armed through the sandbox control plane answers 500 internal. */
export const internal = defineCheck({
  name: 'errors.internal',
  title:
    'a fault on the service side answers 500 internal with the failure envelope (provoked through the sandbox control plane)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors'],
  mutating: true,
  requires: ['token', 'control-plane'],
  // Two faults in a row, with no other call of the run between them.
  alone: true,
  async run(ctx) {
    // A path only this check calls, so no concurrent check takes the armed fault.
    const path = `${BASE_PATH}/connections/${ctx.label('internal-probe')}`;
    const ids: unknown[] = [];
    const arming = await armFault(ctx, { kind: 'internal', method: 'GET', route: path, count: 2 });
    if (!armed(arming))
      ctx.skip(
        `the control plane did not arm an internal fault (answered ${arming.status}): no other way to provoke a 500`,
      );
    // Two faults in a row (an incident): each answer is its own call's, as JSON.
    for (const ex of [await ctx.call('GET', path, { retry: false }), await ctx.call('GET', path, { retry: false })]) {
      ctx.expect.errorCode(ex, 'internal', `GET ${path} after arming an internal fault answers 500 internal`);
      const envelope = failureEnvelopeProblem(ex);
      ctx.expect.that(envelope === undefined, {
        expected: 'a 500 carries the failure envelope with its meta (requestId, version, at)',
        observed: envelope ?? '',
        exchange: ex,
      });
      const type = ex.headers['content-type'] ?? '';
      ctx.expect.that(/^application\/(?:[\w.+-]*\+)?json\b/i.test(type), {
        expected: 'a 500 failure envelope is sent as JSON (Content-Type application/json), as every error response is',
        observed: `Content-Type ${type || '(none)'}`,
        exchange: ex,
      });
      ids.push((ex.json as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId);
    }
    // "identifier of this call, quoted for support queries": the second fault's call is not the first one.
    ctx.expect.that(ids[0] === undefined || ids[0] !== ids[1], {
      expected: 'two 500 answers in a row carry the request identifiers of their own calls (meta.requestId differs)',
      observed: `both carry meta.requestId ${JSON.stringify(ids[0])}`,
    });
  },
});

/** MUST (Required on every authenticated call): the tenant header alone lets nobody in. */
export const noTokenWithTenant = defineCheck({
  name: 'auth.no-token-with-tenant',
  title: 'an authenticated endpoint called with x-service-tenant but without a token answers 401 unauthorized',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth', 'tenant'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const tenant = ctx.target.tenant;
    if (!tenant) ctx.skip('no tenant given (--tenant)');
    const get = authenticatedGet();
    const post = capabilityCheckRoute();
    const ex = await ctx.call('GET', get.path, { credentials: 'none', tenant });
    ctx.expect.errorCode(ex, 'unauthorized', `GET ${get.path} with x-service-tenant and no Authorization answers 401`);
    const body = { connectorId: ctx.label('connector'), capability: 'orders.read' };
    const ex2 = await ctx.call('POST', post.path, { credentials: 'none', tenant, json: body });
    ctx.expect.errorCode(
      ex2,
      'unauthorized',
      `POST ${post.path} with x-service-tenant and no Authorization answers 401`,
    );
  },
});

export const provokedErrorChecks = [forbiddenTenant, notFound, capabilityDenied, internal, noTokenWithTenant];
