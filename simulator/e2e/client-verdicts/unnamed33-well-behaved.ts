import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { EARLIER_VERSION } from './unnamed32-kit.ts';
import {
  agendaReschedule,
  httpoisonLoop,
  proxyWait,
  r3labsBackoff,
  sseclientRetryMs,
  volleyDefault,
} from './unnamed33-kit.ts';
import { WELL_BEHAVED_33_MORE } from './unnamed33-well-behaved-more.ts';

/**
 * Round 33, well-behaved clients of stacks no earlier round used (HTTPoison, Agenda, Volley, Unirest-Java,
 * sseclient, r3labs/sse) and remedies after a 409 and a 428. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_33: UnnamedClient2[] = [
  // "growing intervals and slight random spread": a hand-written loop doubling with :rand.uniform(500).
  {
    does: 'is an Elixir HTTPoison client retrying by hand with :timer.sleep(2^n * 1000 + :rand.uniform(500)), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: httpoisonLoop(seeded(3301)), failures: 2, max: 3 }),
  },
  // "the same key with the same content": the key lives in the job's data, written once when the job
  // was enqueued; the fail handler reschedules the same job.
  {
    does: 'is an Agenda job whose key and body are in job.attrs.data, rescheduled by its fail handler (2^failCount s plus up to 1 s) through two 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const data = { key: 'agenda-job-6f1c2a', body: { ...CONNECTION, scopeLabel: 'Agenda Arancini' } };
      const wait = agendaReschedule(seeded(3302));
      ok('create', await loop(sleeper(t), () => createWith(t, a, data.body, data.key), wait, 3));
    },
  },
  // "the same key with the same content": Volley calls getHeaders() per attempt; this request returns a
  // key fixed in its constructor, so the immediate retry after the 2.5 s timeout carries it again.
  {
    does: 'is an Android Volley request (DefaultRetryPolicy: 2.5 s timeout, one retry at once) whose getHeaders() returns a key fixed in its constructor, timing out on a create the service committed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 2_500 });
      const body = { ...CONNECTION, scopeLabel: 'Volley Vindaloo' };
      const key = 'volley-req-0b7d93';
      const send = () => api(t, a, 'POST', '/connections', { body, key, timeoutMs: volleyDefault.timeoutMs });
      const first = await send();
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(20);
      ok('retry', await send());
    },
  },
  // The same, against a slow server (the commit held 10 s): Volley gives up at 2.5 s and resends at once
  // with its key while the service still holds the first call; whatever that answers, the key is the same.
  {
    does: 'is an Android Volley request with a constructor-fixed key giving up on a create after 2.5 s while the service holds it for 10 s, resending it at once with that key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 10_000 });
      const body = { ...CONNECTION, scopeLabel: 'Volley Vermicelli' };
      const send = () => api(t, a, 'POST', '/connections', { body, key: 'volley-slow-5e21', timeoutMs: 2_500 });
      const first = await send();
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(20);
      await send();
      await sleeper(t)(10_000); // the held original is observed when its connection drops
    },
  },
  // "respect the wait time of the response": Unirest-Java's retryAfter(true, 3) sleeps what Retry-After says.
  {
    does: 'is a Unirest-Java client with retryAfter(true, 3), sleeping each 429’s Retry-After (2 s, then 3 s) before its next attempt',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const first = await get(t, a, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(first.retryAfterMs);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      const second = await get(t, a, '/providers');
      await sleeper(t)(second.retryAfterMs);
      ok('read', await get(t, a, '/providers'));
    },
  },
  // "respect the wait time of the response": the proxy's RateLimit-Reset is read first, but Retry-After
  // stays a floor, so its absence here changes nothing.
  {
    does: 'reads a proxy’s RateLimit-Reset header first (absent: no such proxy in front), its own 0.5-0.75 s wait otherwise, with the 429’s Retry-After (3 s) always a floor',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const draw = seeded(3305);
      const wait = (n: number, r: Parameters<typeof proxyWait>[0]) =>
        proxyWait(r, undefined, 500 * 2 ** n + Math.floor(draw() * 250), true);
      ok('read', await retrying(sleeper(t), () => get(t, a, '/connectors'), wait, { ignoreRetryAfter: true }));
    },
  },
  // "(last number read)": sseclient sleeps self.retry (3000 ms) and reconnects with self.last_id.
  {
    does: 'is a Python sseclient reader whose stream is cut after three messages: it sleeps its retry (3000 ms) and reconnects with Last-Event-ID of the last event',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (ids.length !== 3 || last === undefined) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(sseclientRetryMs);
      await readStream(t, a, { cursor: last, idleMs: 400 });
    },
  },
  // "(last number read)": r3labs/sse runs its handler synchronously, so the LastEventID it stores is the
  // last one handled; the restart's 503s are retried on its exponential backoff.
  {
    does: 'is a Go r3labs/sse client whose stream ends in a restart (503 for 2 s): it reconnects on its exponential backoff and resumes with the LastEventID its synchronous handler took',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 2_000, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      const wait = r3labsBackoff(seeded(3307));
      for (let n = 0; n < 8; n++) {
        let refusedMs = -1;
        await sleeper(t)(Math.max(wait(n), refusedMs));
        const got = await readStream(t, a, { cursor: last, idleMs: 400, onRefused: (_s, ra) => (refusedMs = ra) });
        if (refusedMs < 0 || got.length) return;
      }
      throw new Error('never reopened');
    },
  },
  // "retry only after rate_limited and internal" with the remedy "have the capability released": the
  // client drops the capability refused and sends a create with other content, under a new key.
  {
    does: 'gets 409 capability_denied for a capability the connector lacks, drops that capability from the body and creates again under a new key',
    // No repeat is seen (retry.only-after-failure stays not-observed): the fixed create is a new call.
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const wanted = {
        ...CONNECTION,
        scopeLabel: 'Denied Dal',
        capabilities: ['orders.read', 'loyalty.points.teleport'],
      };
      const refused = await createWith(t, a, wanted, 'cap-create-1');
      if (refused.status !== 409) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('fixed', await createWith(t, a, { ...wanted, capabilities: ['orders.read'] }, 'cap-create-2'));
    },
  },
  // "send the key" (idempotency_required's remedy), on the earlier published version 2026-06-12.
  {
    does: 'is pinned to Service-Version 2026-06-12 and sends its first create without a key: refused 428 idempotency_required, it sends the same body with a key',
    // No repeat is seen (retry.only-after-failure stays not-observed): the keyed create is the remedy.
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Pinned Paella' };
      const refused = await api(t, a, 'POST', '/connections', { body, version: EARLIER_VERSION });
      if (refused.status !== 428) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(500);
      ok('keyed', await api(t, a, 'POST', '/connections', { body, key: 'pinned-0612-a1', version: EARLIER_VERSION }));
    },
  },
  ...WELL_BEHAVED_33_MORE,
];
