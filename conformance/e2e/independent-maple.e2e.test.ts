// An independent deployment ("maple", written from interface.md alone, Go/grpc-gateway behind Envoy)
// judged by the kit in process: without a deployment profile, with the profile declaring maple's own
// choices, and with its other legal choices (MAPLE_CURSOR_WINS, MAPLE_STRICT_FIELDS) switched on.
// maple's default bucket (50, refilled 25/s) made a run about 16 s (41 waits of 1 s): the runs here refill
// 200 tokens/s, so the kit still meets 429s (and the profile's burst provokes one) in a few seconds.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { StartOptions } from './independent/maple/server.ts';
import { startMaple } from './independent/maple/server.ts';
import { judgeIndependent } from './independent-options.ts';

const FAST: StartOptions = { capacity: 50, refillPerSecond: 200 };
const PROFILE = fileURLToPath(new URL('./independent/maple/maple-profile.json', import.meta.url));

test('maple without a deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 60_000 }, async () => {
  const { run, failed } = await judgeIndependent(() => startMaple(FAST));
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test('maple with its deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 60_000 }, async () => {
  const { run, failed } = await judgeIndependent(() => startMaple(FAST), PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
  const judged = new Set(run.results.filter((r) => r.status === 'pass').map((r) => r.check.name));
  for (const name of [
    'webhooks.delivery-log',
    'webhooks.redelivery',
    'errors.capability-denied',
    'rate-limit.retry-after',
  ]) {
    expect(judged, name).toContain(name);
  }
});

const VARIANT: StartOptions = { ...FAST, cursorWins: true, strictFields: true };
test('maple with ?cursor winning and unknown body fields refused', { timeout: 60_000 }, async () => {
  const { run, failed } = await judgeIndependent(() => startMaple(VARIANT), PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});
