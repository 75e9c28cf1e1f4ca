// An independent deployment ("cedar", written from interface.md alone, Go-gateway style) judged by the
// kit in process: without a deployment profile and with the profile declaring cedar's own choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0 (cedar earns every SHOULD it is judged on).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance } from '../index.ts';
import type { Cedar } from './independent/cedar/server.ts';
import { startCedar } from './independent/cedar/server.ts';
import { independentOptions } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/cedar/cedar-profile.json', import.meta.url));
let cedar: Cedar;

beforeAll(async () => {
  cedar = await startCedar();
});
afterAll(async () => {
  await cedar.close();
});

async function judge(profile?: string, target: Cedar = cedar) {
  const options = independentOptions(target, profile);
  const run = await runConformance(options);
  const failed = run.results
    .filter((r) => r.status !== 'pass' && r.status !== 'skip')
    .map((r) => `${r.check.severity} ${r.check.name}: ${JSON.stringify(r.failures).slice(0, 600)}`);
  return { run, failed };
}

test('cedar without a deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 120_000 }, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test('cedar with its deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 120_000 }, async () => {
  const { run, failed } = await judge(PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
  // With the profile the kit judges the delivery log, redelivery, capability_denied and the 429 burst too.
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

// Other legal choices of cedar's: a replay leaves the signing key out ("issued exactly once"), and a tight
// rate limit (its values are not shown) answers some of the kit's concurrent copies 429.
test.each([
  ['the signing key left out of a replayed registration', { redactKeyOnReplay: true }],
  ['100 calls per 2 s', { rateLimit: 100, windowMs: 2000 }],
] as const)('cedar with %s: no failed MUST without a profile', { timeout: 120_000 }, async (_what, options) => {
  const variant = await startCedar(options);
  try {
    const { run, failed } = await judge(undefined, variant);
    expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
    expect(run.exitCode).toBe(0);
  } finally {
    await variant.close();
  }
});
