// The kit against each deliberate violation, in shards: one file per shard (violations-<n>.e2e.test.ts),
// so test workers run them side by side instead of one file holding the whole run for minutes.
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.ts';
import type { ConformanceOptions } from '../runner/options.ts';
import { runConformance } from '../runner/run.ts';
import { VIOLATIONS, violationOptions } from '../violations/index.ts';
import { httpTarget, mswTargets, noWait, TWO_TENANT_CLIENT } from './targets.ts';

/** The checks derived from the contract (tag generated): proven by the mutation score, free to catch more. */
const GENERATED = new Set(CHECKS.filter((c) => c.tags.includes('generated')).map((c) => c.name));

/**
 * The kit's checks a violation's run needs. The assertion ignores generated checks unless the violation
 * names one, so where it names none they are left out: they are about half of a kit run (their probes
 * are many), and their verdicts on each violation are proven by the mutation self-test instead.
 */
const WITHOUT_GENERATED = CHECKS.filter((c) => !GENERATED.has(c.name));
const checksFor = (violation: (typeof VIOLATIONS)[number]) =>
  violation.catches.some((n) => GENERATED.has(n)) ? CHECKS : WITHOUT_GENERATED;

/** Checks no violation can provoke yet, and why. */
const NOT_SIMULATED: Record<string, string> = {
  'auth.header-name-case':
    'both transports hand the core lower-cased header names, so a case-sensitive server cannot be simulated',
};

/**
 * A whole kit run takes a few seconds, many times that on a machine busy with other work. A run cut
 * by the test timeout would go on in the background, against its own server but slowing the tests
 * after it (and an in-process case shares MSW's interception): the timeout is the kit's own scale,
 * not the unit tests' 20 s.
 */
const KIT_RUN_TIMEOUT_MS = 90_000;

/**
 * The kit's wait for one answer (its default, 10 s, suits a deployment over a network). Here it is a
 * hang guard only: a worker's first cases run side by side while its first run compiles the kit's
 * schemas, and on a machine busy with other work one preflight call waited past 10 s, so the case
 * ended as a setup error (exit 2, no check run) instead of a verdict. No violation withholds an answer.
 */
const KIT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Checks that wait out the whole delivery window when the violation withholds a delivery. For such a
 * violation the wait is shortened: it always runs to its end, while the deliveries that do happen in
 * that run arrive over loopback within milliseconds (the kit's default of 10 s suits a staging deployment).
 */
const WAITS_FOR_WITHHELD_DELIVERY = new Set([
  'webhooks.delivery-arrives',
  'webhooks.redelivery',
  'webhooks.redelivery-any',
]);
const WITHHELD_DELIVERY_WAIT_MS = 3000;

/** How many files the violations are spread over (each file runs every SHARDS-th violation). */
export const SHARDS = 4;

/**
 * Registers the violations of one shard (0-based); shard 0 also checks the list itself.
 * @example violationSuite(0) // in violations-1.e2e.test.ts
 */
export function violationSuite(shard: number): void {
  describe(`the kit catches each deliberate violation, and only with the checks it should (${shard + 1}/${SHARDS})`, () => {
    // Each case closes its server in the background (a close waits out the keep-alive grace): all are
    // awaited at the end of the file.
    const closing: Promise<void>[] = [];
    afterAll(() => Promise.all(closing));
    if (shard === 0) listChecks();
    const mine = VIOLATIONS.filter((_, i) => i % SHARDS === shard);
    // A kit run spends about half its time waiting (streams read past their last message, deliveries,
    // the delivery wait of a violation that withholds one): the runs go side by side, each against its
    // own server. An in-process case runs alone, first: MSW intercepts every fetch of this process.
    mine.filter((v) => v.name in IN_PROCESS).forEach(violationCase(closing, it));
    mine.filter((v) => !(v.name in IN_PROCESS)).forEach(violationCase(closing, it.concurrent));
  });
}

function listChecks(): void {
  it('every shard has its file, so no violation goes unrun', () => {
    for (let n = 1; n <= SHARDS; n++)
      expect(existsSync(new URL(`./violations-${n}.e2e.test.ts`, import.meta.url)), `violations-${n}`).toBe(true);
  });

  it('has at least 30 kinds of violation, each naming existing checks', () => {
    expect(VIOLATIONS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(VIOLATIONS.map((v) => v.name)).size).toBe(VIOLATIONS.length);
    const names = new Set(CHECKS.map((c) => c.name));
    for (const v of VIOLATIONS) {
      expect(v.catches.length, v.name).toBeGreaterThan(0);
      for (const c of v.catches) expect(names, `${v.name} names ${c}`).toContain(c);
    }
  });

  it('every check is proven by at least one violation (or says why it cannot be)', () => {
    const proven = new Set(VIOLATIONS.flatMap((v) => v.catches));
    // The generated checks are proven by the mutation self-test (mutations.e2e.test.ts, npm run mutation-score).
    const unproven = CHECKS.filter((c) => !GENERATED.has(c.name))
      .map((c) => c.name)
      .filter((n) => !proven.has(n));
    expect(unproven.sort()).toEqual(Object.keys(NOT_SIMULATED).sort());
  });
}

/**
 * Violations that show only while calls are handled at the same time, and why they run in process:
 * MSW hands concurrent calls to the core in one tick, while over node:http the memory store may answer
 * each call before the next one is read.
 */
const IN_PROCESS: Record<string, string> = {
  'concurrent-duplicates': 'the key is checked only once a call has finished: the calls must overlap',
};

interface ViolationTarget {
  kit: ConformanceOptions;
  /** Ends the target; a server's close (it waits out the keep-alive grace) goes on in the background. */
  close(closing: Promise<void>[]): void;
}

/**
 * The simulator breaking one rule, on node:http (the kit's run costs about half the CPU it costs
 * through MSW's interception) or, for IN_PROCESS violations, as MSW handlers.
 */
async function targetFor(violation: (typeof VIOLATIONS)[number]): Promise<ViolationTarget> {
  if (violation.name in IN_PROCESS) {
    const msw = mswTargets();
    msw.listen();
    const kit = await msw.use(violationOptions(violation.name));
    return { kit, close: () => msw.close() };
  }
  const target = await httpTarget(violationOptions(violation.name));
  const { token: _token, ...signedIn } = target.kit;
  const client = target.sandbox.state.fixtures.clients.find((c) => c.id === TWO_TENANT_CLIENT);
  const kit =
    violation.access === 'client-credentials' && client?.secret
      ? { ...signedIn, clientId: client.id, clientSecret: client.secret }
      : target.kit;
  return { kit: { ...kit, retry: noWait }, close: (closing) => closing.push(target.close()) };
}

function violationCase(closing: Promise<void>[], test: typeof it | typeof it.concurrent) {
  return (violation: (typeof VIOLATIONS)[number]) => {
    test(
      `${violation.name}: ${violation.description}`,
      async () => {
        const target = await targetFor(violation);
        const withheld = violation.catches.some((n) => WAITS_FOR_WITHHELD_DELIVERY.has(n));
        const result = await runConformance({
          ...target.kit,
          checks: checksFor(violation),
          timeoutMs: KIT_REQUEST_TIMEOUT_MS,
          ...(withheld ? { webhookTimeoutMs: WITHHELD_DELIVERY_WAIT_MS } : {}),
        }).finally(() => target.close(closing));
        const failed = result.results.filter((r) => r.status === 'fail').map((r) => r.check.name);
        // Exactly the named checks, plus any generated check (derived from the contract, they may catch more).
        // Those whose verdict depends on the interleaving (mayCatch) are allowed, not required.
        const judged = failed.filter(
          (n) => (!GENERATED.has(n) || violation.catches.includes(n)) && !violation.mayCatch?.includes(n),
        );
        expect(judged.sort()).toEqual([...violation.catches].sort());
        expect(result.results.filter((r) => r.error !== undefined)).toEqual([]);
        const mustCaught = failed.some((n) => CHECKS.find((c) => c.name === n)!.severity === 'MUST');
        expect(result.exitCode).toBe(mustCaught ? 1 : 0);
        // Every failure carries the evidence to reproduce it.
        for (const f of result.results.flatMap((r) => r.failures)) {
          expect(f.expected.length).toBeGreaterThan(0);
          if (f.request) expect(f.curl).toMatch(/^curl /);
        }
      },
      KIT_RUN_TIMEOUT_MS,
    );
  };
}
