// An independent deployment ("dahlia", written from interface.md alone, TypeScript on node:http, hosted-IdP style auth) judged by the
// kit in process: without a deployment profile and with the profile declaring dahlia's own choices.
// Expected: no failed MUST, no failed SHOULD, exit code 0.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance } from '../index.ts';
import type { Dahlia } from './independent/dahlia/server.ts';
import { startDahlia } from './independent/dahlia/server.ts';
import { independentOptions } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/dahlia/dahlia-profile.json', import.meta.url));
let dahlia: Dahlia;

// Its own limit is 40 calls per 10 s: a whole run then waits out windows for about 70 s. The two main
// runs use a generous limit (every other choice of dahlia's stays); the paced run below keeps dahlia's
// shape of limit (a fixed window per token, tenant and environment) with a 2 s window.
beforeAll(async () => {
  dahlia = await startDahlia({ rateLimit: 10_000 });
});
afterAll(async () => {
  await dahlia.close();
});

async function judge(profile?: string, target: Dahlia = dahlia) {
  const options = independentOptions(target, profile);
  const run = await runConformance(options);
  const failed = run.results
    .filter((r) => r.status !== 'pass' && r.status !== 'skip')
    .map((r) => `${r.check.severity} ${r.check.name}: ${JSON.stringify(r.failures).slice(0, 600)}`);
  return { run, failed };
}

test('dahlia without a deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 120_000 }, async () => {
  const { run, failed } = await judge();
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test('dahlia with its deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: 120_000 }, async () => {
  const { run, failed } = await judge(PROFILE);
  expect(failed).toEqual([]);
  expect(run.exitCode).toBe(0);
  // With the profile the kit judges the delivery log, redelivery and capability_denied too (the 429 burst:
  // the paced run below, as 10,000 calls a window are more than the profile's burst).
  const judged = new Set(run.results.filter((r) => r.status === 'pass').map((r) => r.check.name));
  for (const name of ['webhooks.delivery-log', 'webhooks.redelivery', 'errors.capability-denied'])
    expect(judged, name).toContain(name);
});

// Another legal choice of dahlia's: HS256 tokens.
test.concurrent('dahlia with HS256 tokens: no failed MUST without a profile', { timeout: 120_000 }, async () => {
  const variant = await startDahlia({ alg: 'HS256', rateLimit: 10_000 });
  try {
    const { run, failed } = await judge(undefined, variant);
    expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
    expect(run.exitCode).toBe(0);
  } finally {
    await variant.close();
  }
});

// dahlia's own kind of limit with a 2 s window, and 8 s tokens, with its profile (whose burst finds the
// 429): the kit waits out every 429's Retry-After (one pause for all its calls), renews a token that ran
// out while it waited, and judges no rule by a 429 (before: MUST failures on 429s and on expired tokens).
test.concurrent('dahlia with 40 calls per 2 s window and 8 s tokens: no failed MUST, the 429 judged', {
  timeout: 180_000,
}, async () => {
  const variant = await startDahlia({ rateLimit: 40, windowMs: 2000, tokenLifetimeSeconds: 8 });
  try {
    const { run, failed } = await judge(PROFILE, variant);
    expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.results.find((r) => r.check.name === 'rate-limit.retry-after')?.status).toBe('pass');
    // The report says the run was paced, and that no verdict came from it.
    expect(run.notices.join('\n')).toMatch(
      /answered 429 \d+ times? to calls under the retry policy: every call waited/,
    );
  } finally {
    await variant.close();
  }
});
