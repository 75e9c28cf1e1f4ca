import { createHmac, timingSafeEqual } from 'node:crypto';
import { held, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { fluentBit } from './unnamed18-kit.ts';

/**
 * Round 18, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_18: AmbiguousClient8[] = [
  {
    does: 'is a Deno KV queue delivering one message twice at once (at-least-once) to two isolates sharing a cached token, both sending its create under the message key',
    why: '"the same key with the same content returns the same response again" makes the duplicate harmless, but both copies are sent at once by what the rules see as one process (one token), so the second is "a call while the first was still awaited with the same key"',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Twin Isolate Tapas' };
      const key = `kvq_${uuid(seeded(1891))}`;
      await Promise.all([
        api(t, a, 'POST', '/connections', { body, key }),
        api(t, a, 'POST', '/connections', { body, key }),
      ]);
      await get(t, a, '/connections');
    },
  },
  {
    does: 'is a NATS JetStream consumer whose AckWait (30 s) passes while its create is held; the same process gets the redelivery and sends the create again under the same key',
    why: '"Modifying calls are repeat-safe through idempotency keys": a redelivery after AckWait is what the key is for, yet the first call was neither answered nor given up, so the copy is a repeat before any failure by the rules\' reading (round 14 put the same under two tokens)',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Ack Wait Arancini' };
      const key = 'venues.seq.000001203';
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 60_000, count: 1 });
      const before = held(t);
      const first = api(t, a, 'POST', '/connections', { body, key });
      await untilHeld(t, before);
      await sleeper(t)(30_000);
      await api(t, a, 'POST', '/connections', { body, key });
      await sleeper(t)(31_000);
      await first;
    },
  },
  {
    does: 'is a Fluent Bit http output (Retry_Limit 3) whose scheduler draws 1.92 s for the first retry (range 1-2 s) and 1.91 s for the second (range 1-4 s) of one capability check',
    why: '"Clients retry with growing intervals and slight random spread": the scheduler\'s range grows (base to min(cap, base * 2^r)), but these two draws did not; with one sequence of two waits the rules have one pair and judge it, so a jittered schedule fails on a draw about one time in twenty (the same client on seed 1812 passes in WELL_BEHAVED_18)',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      const send = () => api(t, a, 'POST', '/capabilities', { body });
      await loop(sleeper(t), send, fluentBit(seeded(1802)), 3);
    },
  },
  {
    does: 'is a Redpanda Connect SSE input taking a batch of 5 from a burst of 10 and closing, then resuming from the 3rd it read (its output acknowledged only 3)',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": it read 5 and sends the 3rd, so 4 and 5 come again; the rules count the rest of a burst the client closed on as unread and cannot know how far into it the client read, so a cursor anywhere inside the burst passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      // The reader stops after 5 records (max batch 5); the rest of the burst stays in its buffer.
      const ids = (await readStream(t, a, { count: 5, idleMs: 600, onOpen: () => publish(t, a.tenant, 10) })).slice(
        0,
        5,
      );
      const third = ids[2];
      if (ids.length !== 5 || third === undefined) throw new Error(`read ${ids}`);
      await sleeper(t)(2_000);
      await readStream(t, a, { cursor: third, idleMs: 600 });
    },
  },
  {
    does: 'is a Redpanda Connect bloblang mapping that builds capabilities from an object’s keys, so a create retried after a 500 under its key lists them in another order',
    why: '"The same key with different content yields idempotency_conflict": capabilities is an "array of string" whose order the interface gives no meaning, yet the service compares the canonical JSON (arrays keep their order) and answers the retry 409, and the rules count it as other content under one key',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = `bloblang-${uuid(seeded(1893))}`;
      const body = { ...CONNECTION, scopeLabel: 'Mapping Mezze Bar' };
      const r = await api(t, a, 'POST', '/connections', { body, key });
      if (r.status !== 500) throw new Error(`answered ${r.status}`);
      await sleeper(t)(700);
      const reordered = { ...body, capabilities: [...CONNECTION.capabilities].reverse() };
      await api(t, a, 'POST', '/connections', { body: reordered, key });
    },
  },
  {
    does: 'is a webhook receiver that verifies correctly but answers 200 (acknowledged, then dropped) to a stale or forged delivery, so the sender stops redelivering it',
    why: '"rejects the delivery when the difference between t and the current time exceeds 300 seconds": the delivery is never processed, but the answer is a 2xx; whether "rejects" means the HTTP answer or the processing, the interface does not say, and the check can only see the answer',
    judged: ['webhooks.receiver-verifies'],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, h, secret) => {
          const { t: ts = '', v1 = '' } = Object.fromEntries(
            (h ?? '').split(',').map((p) => [p.slice(0, p.indexOf('=')).trim(), p.slice(p.indexOf('=') + 1).trim()]),
          ) as Record<string, string>;
          const good = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex');
          const valid = /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 300 && v1.length === 64;
          void (valid && timingSafeEqual(Buffer.from(v1), Buffer.from(good)));
          return true;
        },
      }),
  },
  {
    does: 'is a Vector http_client source scraping the stream every 10 minutes without a cursor (live only), so what was published between scrapes is never read',
    why: '"After an interruption, the client resumes without gaps": every scrape after the first leaves a gap, but the rules judge a reconnect without a cursor only within 5 minutes of the stream\'s end (so that a fresh live-only consumer is not taken for a careless reconnect); whether a scraper is interrupted or starting anew the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      for (let scrape = 0; scrape < 3; scrape++) {
        fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
        await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
        publish(t, a.tenant, 3);
        await sleeper(t)(10 * 60_000);
      }
    },
  },
];
