import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_11 } from './unnamed11-ambiguous.ts';
import { MISBEHAVING_11 } from './unnamed11-misbehaving.ts';
import { MISBEHAVING_MORE_11 } from './unnamed11-misbehaving-more.ts';
import { PROBES_11 } from './unnamed11-probes.ts';
import { AMBIGUOUS_KEYS_11, AMBIGUOUS_MORE_11, PROBES_MORE_11 } from './unnamed11-probes-more.ts';
import { RECEIVERS_11 } from './unnamed11-receivers.ts';
import { WELL_BEHAVED_11 } from './unnamed11-well-behaved.ts';
import { WELL_BEHAVED_MORE_11 } from './unnamed11-well-behaved-more.ts';

// The eleventh round of clients nobody named elsewhere: Spring Retry's ExponentialRandomBackOffPolicy,
// AWS Step Functions Retry blocks, Hangfire, Arrow, sethvargo/go-retry, Apache Camel, Quarkus SmallRye,
// Dapr resiliency policies, BullMQ, go-retryablehttp's defaults, Apache HttpClient 5, Swift Vapor and
// URLSession, Bun and Deno wrappers, serverless functions without a token cache, tokens renewed on a
// timer, replicas sharing (or not) one key store, stream consumers committing in batches, a browser
// EventSource, a Chrome extension, and receivers during a key rotation. Long waits are the sandbox clock
// advanced, never slept. Two misbehaving probes (unnamed11-probes.ts) fail on purpose: a browser's
// EventSource with its token in the stream URL, and an expired token used for twelve different reads
// after 401s, both judged by no rule today (reported 2026-11-27; the rules were not changed here).
unnamedSuite('round 11', {
  wellBehaved: [...WELL_BEHAVED_11, ...WELL_BEHAVED_MORE_11],
  misbehaving: [...MISBEHAVING_11, ...MISBEHAVING_MORE_11, ...PROBES_11, ...PROBES_MORE_11],
  receivers: RECEIVERS_11,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 11, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  const ambiguous = [...AMBIGUOUS_11, ...AMBIGUOUS_MORE_11, ...AMBIGUOUS_KEYS_11];
  beforeAll(
    () =>
      pool(
        ambiguous.map((c) => () => judged(c.does, c.run, c.options)),
        4,
      ),
    30_000,
  );
  for (const c of ambiguous)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
