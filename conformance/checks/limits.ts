import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { defineCheck, type CheckContext } from '../runner/check.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { inBatches } from './support/interface-routes.ts';
import { knownPair } from './support/samples.ts';

/** The four lengths around a limit: one below the minimum, the minimum, the maximum, one above. */
export function lengthBoundaries(limit: { min: number; max: number }) {
  return [
    { length: limit.min - 1, inside: false },
    { length: limit.min, inside: true },
    { length: limit.max, inside: true },
    { length: limit.max + 1, inside: false },
  ].filter((b) => b.length >= 0);
}

/** A recognisable text of exactly `length` characters. */
export function textOfLength(length: number): string {
  const seed = 'ncs-conformance-';
  return (seed.repeat(Math.ceil(length / seed.length) + 1)).slice(0, length);
}

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
    if (inside) ctx.expect.that(ex.status !== ERROR_TABLE.invalid_request.status && ex.status < 500, { expected: `${rule} is accepted by validation (not 400, no 5xx)`, exchange: ex });
    else ctx.expect.errorCode(ex, 'invalid_request', `${rule} answers 400 invalid_request`);
  });
}

export const connectorIdLength = defineCheck({
  name: 'limits.connector-id-length',
  title: `connectorId: lengths ${LIMITS.connectorId.min}..${LIMITS.connectorId.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST', section: 'Limits', tags: ['limits', 'validation'], mutating: false, requires: ['token'],
  run: (ctx) => checkLengths(ctx, 'connectorId'),
});

export const capabilityLength = defineCheck({
  name: 'limits.capability-length',
  title: `capability: lengths ${LIMITS.capability.min}..${LIMITS.capability.max} pass validation, one shorter or longer answers 400`,
  severity: 'MUST', section: 'Limits', tags: ['limits', 'validation'], mutating: false, requires: ['token'],
  run: (ctx) => checkLengths(ctx, 'capability'),
});

export const limitChecks = [connectorIdLength, capabilityLength];
