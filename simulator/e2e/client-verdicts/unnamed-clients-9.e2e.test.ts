import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_9 } from './unnamed9-ambiguous.ts';
import { GATEWAYS_MISBEHAVING_9, GATEWAYS_WELL_BEHAVED_9 } from './unnamed9-gateways.ts';
import { MISBEHAVING_9 } from './unnamed9-misbehaving.ts';
import { MISBEHAVING_RUNS_9 } from './unnamed9-misbehaving-runs.ts';
import { RECEIVERS_9 } from './unnamed9-receivers.ts';
import { STREAMS_9 } from './unnamed9-streams.ts';
import { STACKS_9 } from './unnamed9-well-behaved.ts';
import { RUNS_9 } from './unnamed9-well-behaved-runs.ts';

// The ninth round of clients nobody named elsewhere: go-retryablehttp's LinearJitterBackoff, Guzzle's
// retry middleware, Deno with p-retry, Envoy's retry policy, curl --retry, Temporal's NextRetryDelay,
// SQS visibility back-off, Logic Apps, Ansible, Rust's backoff crate, sethvargo/go-retry, a secret
// rotation, a batch key, an Office add-in, a gRPC transcoder, and receivers of other stacks. Long waits
// are the sandbox clock advanced, never slept. Four tests fail on purpose, each a wrong verdict of the
// rules (2026-11-27), kept as the contract says it should be: Ktor's constantDelay with jitter and a
// Polly schedule that shrinks (retry.growing-waits), a held create given up on and sent again under a
// new key before the hold ended (retry.same-key-and-content), an empty Last-Event-ID beside a correct
// ?cursor= (stream.resume-from-last-read).
unnamedSuite('round 9', {
  wellBehaved: [...STACKS_9, ...RUNS_9, ...STREAMS_9, ...GATEWAYS_WELL_BEHAVED_9],
  misbehaving: [...MISBEHAVING_9, ...MISBEHAVING_RUNS_9, ...GATEWAYS_MISBEHAVING_9],
  receivers: RECEIVERS_9,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 9, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        AMBIGUOUS_9.map((c) => () => judged(c.does, c.run, c.options)),
        4,
      ),
    30_000,
  );
  for (const c of AMBIGUOUS_9)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
