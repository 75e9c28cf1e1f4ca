import { CURRENT_VERSION } from '../../contract/versions.ts';
import { held, sleepOn, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { handOver } from './unnamed35-kit.ts';

/**
 * Round 35, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_35: AmbiguousClient8[] = [
  {
    does: 'gets a 400 for a one-character scopeLabel and sends the corrected body 30 s later under the same key (the form keeps its key until it succeeds)',
    why: '"use a new key for each new operation" against "Doing what the remedy says is a new call": the corrected form is the same operation to its user and the refused call committed nothing, but the key now names other content; whether a key refused for its content is spent the interface does not say; the service took the corrected create (200, a 400 keeps no outcome), the rule takes the key sent with other content as one key, two contents',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const refused = await api(t, a, 'POST', '/connections', {
        body: { ...CONNECTION, scopeLabel: 'Q' },
        key: 'form-key-1',
      });
      if (refused.status !== 400) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(30_000);
      ok('fixed', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Quayside Quiche' }, 'form-key-1'));
    },
  },
  {
    does: 'is a consumer pod cut after seven that lives on (reading the catalogue) while a leader election hands its stream to a sibling pod resuming at 7, the last number read',
    why: '"the client resumes without gaps ... (last number read)": the cursor is right for the client, but the reading is taken over from a process that still lives; whether a live process\'s reading may be continued by another the interface does not say (the rule judges a takeover only from a process whose token is not used again)',
    judged: [],
    run: (t) => handOver(t, auth(t), auth(t), (ids) => ids.at(-1) ?? 0, true),
  },
  {
    does: 'is an SDK that stamps one Idempotency-Key per (method, path, body) on every POST, polling one capability check every 30 s with the same key after 200s',
    why: '"a 2xx (same Idempotency-Key again, on a route that requires one)": a capability check requires no key and changes nothing, so the same key again after a 200 is polling, not a repeat; the interface asks keys of modifying calls only and says nothing of keys sent where none is needed',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      for (let i = 0; i < 5; i++) {
        ok('check', await api(t, a, 'POST', '/capabilities', { body, key: 'sdk-cap-orders-read' }));
        await sleeper(t)(30_000);
      }
    },
  },
  {
    does: 'is a consumer whose reader thread buffers what arrives and stores the last id RECEIVED: cut after eight with only six handled, it resumes at 8',
    why: '"(last number read)": on the wire the client read eight and resumes at 8, so no gap is visible; the seventh and eighth were never handled by the application, a loss the interface cannot see (the rule counts messages sent as read)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 8, count: 1 });
      const received = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 8) });
      if (received.length !== 8) throw new Error(`read ${received.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: received.at(-1) ?? 0, idleMs: 400 });
    },
  },
  {
    does: 'is an RxJava create.ambWith(timer(800 ms).flatMap(create)) hedge sending a copy under the same key while the first (held 3 s) is still awaited, then cancelling the loser',
    why: '"retry only after rate_limited and internal" against "the same key with the same content returns the same response again": README\'s table lists a repeat "while the first was still awaited with the same key" under retry.only-after-failure, but round 2 counts a hedge under its key as well-behaved and round 31 pinned it passing; abandoning the loser changes nothing today (the rule notes the copy as "retried after unanswered")',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 3_000, count: 1 });
      const body = JSON.stringify({ ...CONNECTION, scopeLabel: 'Hedged Halloumi' });
      const headers = {
        authorization: `Bearer ${a.token}`,
        'x-service-tenant': a.tenant,
        'service-version': CURRENT_VERSION,
        'idempotency-key': 'rx-amb-0001',
        'content-type': 'application/json',
      };
      const loser = new AbortController();
      const before = held(t);
      const url = `${t.baseUrl}/api/public/v1/connections`;
      const first = t.fetch(url, { method: 'POST', headers, body, signal: loser.signal }).catch(() => undefined);
      await untilHeld(t, before);
      await sleepOn(t, 800);
      // The copy takes 400 ms too (the service is slow): both are awaited at once until it answers.
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 400, count: 1 });
      const copy = t.fetch(url, { method: 'POST', headers, body }).then((r) => r.text());
      await untilHeld(t, held(t));
      await sleepOn(t, 400);
      await copy;
      loser.abort();
      await first;
      await sleepOn(t, 2_500); // the held original is observed when its connection drops
    },
  },
];
