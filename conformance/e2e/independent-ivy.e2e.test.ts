// An independent deployment ("ivy", written from interface.md alone, serverless style: API Gateway,
// Lambda, DynamoDB, SQS) judged by the kit in process: without a deployment profile, with the profile
// declaring ivy's choices, and with other legal choices switched on. Expected: no failed MUST or SHOULD.
// ivy's list of connections lags its creations by 100-400 ms (a GSI; the interface promises no
// read-after-write), its audit log pages with `nextToken`: see the README of ivy for what the kit gets wrong.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance } from '../index.ts';
import type { Ivy, IvyOptions } from './independent/ivy/server.ts';
import { startIvy } from './independent/ivy/server.ts';
import { independentOptions } from './independent-options.ts';

const PROFILE = fileURLToPath(new URL('./independent/ivy/ivy-profile.json', import.meta.url));
// A run takes about 30 s: ivy throttles (25 calls per second, burst 50, here), and the kit waits out its 429s.
const RUN_TIMEOUT = 150_000;
let ivy: Ivy;
// Every list read that missed a connection still inside its read lag, and how soon after the creation it came:
// shown with a failure, so a check that fails on the lag alone is told from a real defect.
const lagMisses: string[] = [];

beforeAll(async () => {
  ivy = await startIvy({
    ratePerSecond: 25,
    burst: 50,
    trace: (line) => lagMisses.push(line.replace(/ncs-conformance-\w+-/, '')),
  });
});
afterAll(async () => {
  await ivy.close();
});

async function judge(target: Ivy, profile?: string) {
  const run = await runConformance(independentOptions(target, profile));
  const failed = run.results
    .filter((r) => r.status !== 'pass' && r.status !== 'skip')
    .map((r) => `${r.check.severity} ${r.check.name}: ${JSON.stringify(r.failures).slice(0, 600)}`);
  return { run, failed };
}

// ivy as it throttles (25 calls a second, burst 50: the kit waits out its 429s, a run takes about 30 s), with
// its profile: the kit judges the delivery log (a query-string template), redelivery, capability_denied, the
// 429 burst and the delivery log read across tenants too.
test('ivy with its deployment profile: no failed MUST or SHOULD, exit code 0', { timeout: RUN_TIMEOUT }, async () => {
  lagMisses.length = 0;
  const { run, failed } = await judge(ivy, PROFILE);
  expect(failed, `${failed.join('\n')}\n${lagMisses.join('\n')}`).toEqual([]);
  expect(run.exitCode).toBe(0);
  const judged = new Set(run.results.filter((r) => r.status === 'pass').map((r) => r.check.name));
  for (const name of [
    'webhooks.delivery-log',
    'webhooks.redelivery',
    'errors.capability-denied',
    'rate-limit.retry-after',
    'tenants.foreign-entry-not-found',
  ])
    expect(judged, name).toContain(name);
});

// ivy at a rate limit that does not hold the run up, read lag on: two runs without a profile against one
// deployment, the second finding the audit log longer than one page (asked back as nextToken=).
test('ivy without a deployment profile, two runs: no failed MUST or SHOULD, exit code 0', {
  timeout: 2 * RUN_TIMEOUT,
}, async () => {
  const fast = await startIvy({ ratePerSecond: 200, burst: 400, trace: (line) => lagMisses.push(line) });
  try {
    for (const round of ['first run', 'second run (the audit log pages)']) {
      lagMisses.length = 0;
      const { run, failed } = await judge(fast);
      expect(failed, `${round}\n${failed.join('\n')}\n${lagMisses.join('\n')}`).toEqual([]);
      expect(run.exitCode, round).toBe(0);
      const judged = new Set(run.results.filter((r) => r.status === 'pass').map((r) => r.check.name));
      expect(judged, round).toContain('audit.records-change');
    }
  } finally {
    await fast.close();
  }
});

test.each([
  [
    'streams ended after 3 s and one rate-limit bucket for both stages',
    { lagMs: 0, streamLimitMs: 3000, sharedAltBucket: true, ratePerSecond: 200, burst: 400 },
  ],
] as const)(
  'ivy with %s: no failed MUST without a profile',
  { timeout: RUN_TIMEOUT },
  async (_what, options: IvyOptions) => {
    const variant = await startIvy(options);
    try {
      const { run, failed } = await judge(variant);
      expect(failed.filter((f) => f.startsWith('MUST'))).toEqual([]);
      expect(run.exitCode).toBe(0);
    } finally {
      await variant.close();
    }
  },
);
