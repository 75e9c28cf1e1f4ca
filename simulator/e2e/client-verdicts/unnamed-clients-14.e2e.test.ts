import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_14 } from './unnamed14-ambiguous.ts';
import { AMBIGUOUS_EDGES_14, MISBEHAVING_EDGES_14, WELL_BEHAVED_EDGES_14 } from './unnamed14-edges.ts';
import { MISBEHAVING_14 } from './unnamed14-misbehaving.ts';
import { MISBEHAVING_MORE_14 } from './unnamed14-misbehaving-more.ts';
import { AMBIGUOUS_PROBES_14, MISBEHAVING_PROBES_14, WELL_BEHAVED_PROBES_14 } from './unnamed14-probes.ts';
import { RECEIVERS_14 } from './unnamed14-receivers.ts';
import { WELL_BEHAVED_14 } from './unnamed14-well-behaved.ts';
import { WELL_BEHAVED_MORE_14 } from './unnamed14-well-behaved-more.ts';

// The fourteenth round of clients nobody named elsewhere: Go resty, Ktor HttpRequestRetry with
// modifyRequest, httpx with stamina's on= hook, Retry-After read as an HTTP date, GitHub Actions curl,
// k6 scripts, hedged reads and hedged creates, proactive token refresh, Durable Object token caches,
// Zeebe workers, Argo retryStrategy, Newman collections, boto3's adaptive mode, Hummingbird, Finch,
// clj-http, a mobile BFF with per-user budgets, Fivetran syncs, a stream consumer keeping Last-Event-ID
// across restarts; receivers decoding hex, reading ms timestamps, several v1 entries, failing open.
// Long waits are the sandbox clock advanced, never slept. Found: a receiver judging t against the body's
// createdAt instead of its own clock passed the receiver check (its stale cases carried a current
// createdAt), though a delivery replayed whole an hour later is accepted (fixed: the check sends
// timestamp-301s-old-replayed; unnamed14-receivers.ts). Ambiguous: a create hedged with Promise.race under
// a new key 2 s after the first, the loser never aborted, fails no rule (unnamed14-edges.ts); a slow
// consumer's unread message 4, sent 2 s before its crash, counts as read (unnamed14-ambiguous.ts).
unnamedSuite('round 14', {
  wellBehaved: [...WELL_BEHAVED_14, ...WELL_BEHAVED_MORE_14, ...WELL_BEHAVED_PROBES_14, ...WELL_BEHAVED_EDGES_14],
  misbehaving: [...MISBEHAVING_14, ...MISBEHAVING_MORE_14, ...MISBEHAVING_PROBES_14, ...MISBEHAVING_EDGES_14],
  receivers: RECEIVERS_14,
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 14, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        [...AMBIGUOUS_14, ...AMBIGUOUS_PROBES_14, ...AMBIGUOUS_EDGES_14].map(
          (c) => () => judged(c.does, c.run, c.options),
        ),
        3,
      ),
    30_000,
  );
  for (const c of [...AMBIGUOUS_14, ...AMBIGUOUS_PROBES_14, ...AMBIGUOUS_EDGES_14])
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
