// The verdict of a value at a limit of the interface, shared by the limits checks.
import { ERROR_TABLE } from '../../../simulator/contract/errors.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';

/** The four lengths around a limit: one below the minimum, the minimum, the maximum, one above. */
export function lengthBoundaries(limit: { min: number; max: number }) {
  return [
    { length: limit.min - 1, inside: false },
    { length: limit.min, inside: true },
    { length: limit.max, inside: true },
    { length: limit.max + 1, inside: false },
  ].filter((b) => b.length >= 0);
}

/** One boundary probe's verdict: outside the limit 400 invalid_request; inside anything but 400 and never 5xx. */
export function judgeBoundary(ctx: CheckContext, ex: Exchange, inside: boolean, rule: string) {
  if (inside)
    ctx.expect.that(ex.status !== ERROR_TABLE.invalid_request.status && ex.status < 500, {
      expected: `${rule} is accepted by validation (not 400, no 5xx)`,
      exchange: ex,
    });
  else ctx.expect.errorCode(ex, 'invalid_request', `${rule} answers 400 invalid_request`);
}

/** A recognisable text of exactly `length` characters. */
export function textOfLength(length: number): string {
  const seed = 'ncs-conformance-';
  return seed.repeat(Math.ceil(length / seed.length) + 1).slice(0, length);
}
