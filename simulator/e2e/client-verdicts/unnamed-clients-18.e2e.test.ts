import { beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes, failed, pool, shown } from './unnamed-run.ts';
import { unnamedSuite } from './unnamed-suite.ts';
import { AMBIGUOUS_18 } from './unnamed18-ambiguous.ts';
import { MISBEHAVING_18 } from './unnamed18-misbehaving.ts';
import { MISBEHAVING_MORE_18 } from './unnamed18-misbehaving-more.ts';
import { AMBIGUOUS_PROBES_18, MISBEHAVING_PROBES_18, RECEIVER_PROBES_18 } from './unnamed18-probes.ts';
import { RECEIVERS_18 } from './unnamed18-receivers.ts';
import { WELL_BEHAVED_18 } from './unnamed18-well-behaved.ts';
import { WELL_BEHAVED_MORE_18 } from './unnamed18-well-behaved-more.ts';

// The eighteenth round of clients nobody named elsewhere: Vector and Fluent Bit outputs, Redpanda Connect,
// Argo Events sensors, Knative eventing, HAProxy Lua, Nginx njs, Azure Durable Functions, Cloudflare Queues,
// Deno KV queues, NATS JetStream, Pulsar, EventBridge API destinations, Hasura event triggers, APScheduler,
// Celery beat, Drupal queues, Shopify embedded apps, Logstash; receivers in Go on Knative, a Supabase Edge
// Function, a reused Shopify handler, HAProxy Lua and Pipedream. Long waits are the sandbox clock advanced,
// never slept. Four verdicts are wrong today and their tests fail on purpose (unnamed18-probes.ts, not to be
// bent to the rules): one process round-robining a pool of two tokens is taken for two processes, so it
// retries a 429 after 200 ms (Retry-After 5) and one read six times unjudged; a stream opened by a browser
// navigation (an iframe, ?access_token=, Sec-Fetch-Mode navigate, no Origin) is not seen as a browser; and
// a receiver that also accepts an HMAC keyed with the empty string passes the receiver check.
unnamedSuite('round 18', {
  wellBehaved: [...WELL_BEHAVED_18, ...WELL_BEHAVED_MORE_18],
  misbehaving: [...MISBEHAVING_18, ...MISBEHAVING_MORE_18, ...MISBEHAVING_PROBES_18],
  receivers: [...RECEIVERS_18, ...RECEIVER_PROBES_18],
});

// Cases the interface does not decide: the rules' current verdict, stated so that a change moving it is seen.
describe('unnamed clients, round 18, ambiguous: the verdict the rules give today', () => {
  const { judged, outcome } = createOutcomes();
  beforeAll(
    () =>
      pool(
        [...AMBIGUOUS_18, ...AMBIGUOUS_PROBES_18].map((c) => () => judged(c.does, c.run, c.options)),
        3,
      ),
    30_000,
  );
  for (const c of [...AMBIGUOUS_18, ...AMBIGUOUS_PROBES_18])
    it(`a client that ${c.does} fails ${c.judged.join(', ') || 'nothing'} (${c.why})`, () => {
      const o = outcome(c.does);
      expect(failed(o), shown(o)).toEqual([...c.judged].sort());
    });
});
