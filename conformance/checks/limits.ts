import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { inBatches, routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { connectionCapabilities } from './limits-capabilities.ts';
import { cursorMinimum } from './limits-cursor.ts';
import { idempotencyKeyPattern } from './limits-key.ts';
import { judgeBoundary, lengthBoundaries, textOfLength } from './support/boundaries.ts';
import { postConnection, requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import {
  creationPlaces,
  judgeAcceptedThere,
  judgeRefusedThere,
  otherEnvironments,
  placesWithVersion,
} from './support/places.ts';
import { knownPair } from './support/samples.ts';

/**
 * Sends POST /capabilities with `field` at each boundary length (the other field valid, from the
 * target's catalog): outside the limit it must answer 400 invalid_request; inside, anything but
 * 400 (an unknown connector may well be 404 not_found) and never a server fault.
 */
async function checkLengths(ctx: CheckContext, field: 'connectorId' | 'capability') {
  const route = capabilityCheckRoute();
  const pair = (await knownPair(ctx)) ?? { connectorId: textOfLength(20), capability: textOfLength(20) };
  if (!(await knownPair(ctx))) ctx.note('no connector found in GET /connectors: the other field is a made-up value');
  await inBatches(lengthBoundaries(LIMITS[field]), 4, async ({ length, inside }) => {
    const ex = await ctx.call('POST', route.path, { json: { ...pair, [field]: textOfLength(length) } });
    const rule = `POST ${route.path} with ${field} of ${length} characters (limit ${LIMITS[field].min} to ${LIMITS[field].max})`;
    if (inside)
      ctx.expect.that(ex.status !== ERROR_TABLE.invalid_request.status && ex.status < 500, {
        expected: `${rule} is accepted by validation (not 400, no 5xx)`,
        exchange: ex,
      });
    else ctx.expect.errorCode(ex, 'invalid_request', `${rule} answers 400 invalid_request`);
  });
  // Refused in every place: each other environment value, the alternate address, the second tenant.
  const boundaries = lengthBoundaries(LIMITS[field]);
  const places = [
    // Each environment value named (the default, sandbox, was left out above).
    ...otherEnvironments().map((environment) => ({
      what: `in ${environment}`,
      call: {},
      extra: { environment },
      accessMayDiffer: true,
    })),
    ...(await placesWithVersion(ctx)).map((p) => ({ ...p, extra: {} })),
  ];
  // Both sides of each limit: refused there as here, and taken there as here (a tenant's own validation that
  // refuses the shortest value).
  await inBatches(
    // (The inside at the other addresses and tenants only: each environment value's inside is connections' own.)
    places.flatMap((p) => boundaries.filter((b) => !b.inside || !('environment' in p.extra)).map((b) => ({ p, ...b }))),
    4,
    async ({ p, length, inside }) => {
      const ex = await ctx.call('POST', route.path, {
        ...p.call,
        json: { ...pair, ...p.extra, [field]: textOfLength(length) },
      });
      const rule = `POST ${route.path} ${p.what} with ${field} of ${length} characters`;
      if (inside) judgeAcceptedThere(ctx, ex, p.accessMayDiffer, rule);
      else judgeRefusedThere(ctx, ex, p.accessMayDiffer, rule);
    },
  );
}

export const connectorIdLength = defineCheck({
  name: 'limits.connector-id-length',
  title: `connectorId: lengths ${LIMITS.connectorId.min}..${LIMITS.connectorId.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation'],
  mutating: false,
  requires: ['token'],
  run: (ctx) => checkLengths(ctx, 'connectorId'),
});

export const capabilityLength = defineCheck({
  name: 'limits.capability-length',
  title: `capability: lengths ${LIMITS.capability.min}..${LIMITS.capability.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation'],
  mutating: false,
  requires: ['token'],
  run: (ctx) => checkLengths(ctx, 'capability'),
});

/** Text of exactly `length` characters that starts with a run label when there is room for one. */
function labelledText(ctx: CheckContext, kind: string, length: number): string {
  const label = ctx.label(kind);
  return length > label.length ? `${label}-${textOfLength(length)}`.slice(0, length) : textOfLength(length);
}

const { scopeLabel: SCOPE, operation: OPERATION } = LIMITS;

export const scopeLabelLength = defineCheck({
  name: 'limits.scope-label-length',
  title: `scopeLabel: lengths ${SCOPE.min}..${SCOPE.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'connections'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    await inBatches(lengthBoundaries(SCOPE), 4, async ({ length, inside }) => {
      const ex = await postConnection(ctx, { ...base, scopeLabel: labelledText(ctx, 'scope-label', length) });
      judgeBoundary(
        ctx,
        ex,
        inside,
        `POST /connections with a scopeLabel of ${length} characters (limit ${SCOPE.min} to ${SCOPE.max})`,
      );
    });
    // Nor an environment's: a label one under or over the limit is refused in every environment value (a refusal
    // of the environment itself, 401/403, is the deployment's; a creation is the failure), and at the alternate
    // address.
    const outside = lengthBoundaries(SCOPE).filter((b) => !b.inside);
    const elsewhere = await creationPlaces(ctx, base.environment);
    await inBatches(
      elsewhere.flatMap((e) => outside.map((b) => ({ ...e, length: b.length }))),
      3,
      async ({ what, environment, o, length }) => {
        const ex = await postConnection(
          ctx,
          { ...base, environment, scopeLabel: labelledText(ctx, 'scope-label', length) },
          o,
        );
        ctx.expect.that(!(ex.status >= 200 && ex.status < 300) && ex.status < 500, {
          expected: `POST /connections ${what} with a scopeLabel of ${length} characters (limit ${SCOPE.min} to ${SCOPE.max}) is refused, as in ${base.environment} at the main address`,
          observed: `${ex.status}`,
          exchange: ex,
        });
      },
    );
    // And the limits' inside: in each environment the deployment creates in (a label of ordinary length is
    // taken there), the shortest and the longest label are taken too (a rule of one environment's own).
    await inBatches(
      ENVIRONMENTS.filter((e) => e !== base.environment),
      2,
      async (environment) => {
        const control = await postConnection(ctx, { ...base, environment, scopeLabel: ctx.label('scope-label') });
        if (!(control.status >= 200 && control.status < 300)) return;
        for (const length of [SCOPE.min, SCOPE.max]) {
          const ex = await postConnection(ctx, {
            ...base,
            environment,
            scopeLabel: labelledText(ctx, 'scope-label', length),
          });
          judgeBoundary(
            ctx,
            ex,
            true,
            `POST /connections in ${environment} (where a label of ordinary length is created) with a scopeLabel of ${length} characters (limit ${SCOPE.min} to ${SCOPE.max})`,
          );
        }
      },
    );
    // The limits are the interface's, not a place's: the shortest and the longest label are taken in every other
    // place too (the alternate address, the second tenant, both, the earlier version: a gateway or a tenant's own
    // validator with a lower cap). A 401/403/404 where the tenant differs is that access's role there, not judged.
    const places = await placesWithVersion(ctx);
    await inBatches(
      places.flatMap((p) => [SCOPE.min, SCOPE.max].map((length) => ({ p, length }))),
      4,
      async ({ p, length }) => {
        const ex = await postConnection(ctx, { ...base, scopeLabel: labelledText(ctx, 'scope-label', length) }, p.call);
        const rule = `POST /connections ${p.what} with a scopeLabel of ${length} characters (limit ${SCOPE.min} to ${SCOPE.max})`;
        judgeAcceptedThere(ctx, ex, p.accessMayDiffer, rule);
      },
    );
  },
});

// Valid operations get keys issued, which is server state: the read-only profile leaves this check out.
export const operationLength = defineCheck({
  name: 'limits.operation-length',
  title: `operation of POST /idempotency-keys: lengths ${OPERATION.min}..${OPERATION.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const path = routePath('createIdempotencyKey');
    await inBatches(lengthBoundaries(OPERATION), 4, async ({ length, inside }) => {
      const ex = await ctx.call('POST', path, { json: { operation: textOfLength(length) } });
      judgeBoundary(
        ctx,
        ex,
        inside,
        `POST ${path} with an operation of ${length} characters (limit ${OPERATION.min} to ${OPERATION.max})`,
      );
    });
    // Both sides of the limit in the other places (a gateway there that refuses the longest operation).
    await inBatches(
      (await placesWithVersion(ctx)).flatMap((p) => lengthBoundaries(OPERATION).map((b) => ({ p, ...b }))),
      4,
      async ({ p, length, inside }) => {
        const ex = await ctx.call('POST', path, { ...p.call, json: { operation: textOfLength(length) } });
        const rule = `POST ${path} ${p.what} with an operation of ${length} characters`;
        if (inside) judgeAcceptedThere(ctx, ex, p.accessMayDiffer, rule);
        else judgeRefusedThere(ctx, ex, p.accessMayDiffer, rule);
      },
    );
  },
});

export const limitChecks = [
  connectorIdLength,
  capabilityLength,
  scopeLabelLength,
  connectionCapabilities,
  operationLength,
  idempotencyKeyPattern,
  cursorMinimum,
];
