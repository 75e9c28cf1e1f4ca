import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_34 } from './unnamed34-ambiguous.ts';
import { MISBEHAVING_34 } from './unnamed34-misbehaving.ts';
import { RECEIVERS_34 } from './unnamed34-receivers.ts';
import { WELL_BEHAVED_34 } from './unnamed34-well-behaved.ts';

// The thirty-fourth round of clients nobody named elsewhere: go-resty v2, Ruby http.rb's .retriable, Java 21
// HttpClient by hand, a Go net/http RoundTripper, mollitia, PHP-FPM's pm.max_requests, systemd timers, a pod in
// CrashLoopBackOff, stream readers after a clean end of the stream (resuming, a Kafka-minded next offset, starting
// live), a stream taken over by a sibling pod, token churn at irregular spacings, renewal herds, keys from
// counters; receivers in Sanic, Ktor, Hanami and Falcon. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 34', {
  wellBehaved: WELL_BEHAVED_34,
  misbehaving: MISBEHAVING_34,
  receivers: RECEIVERS_34,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 34, ambiguous: the verdict the rules give today', () => {
  const ambiguous = AMBIGUOUS_34;
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        ambiguous.map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of ambiguous)
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
