import { createHmac } from 'node:crypto';
import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { asynqDelay } from './unnamed19-kit.ts';

/**
 * Round 19, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_19: AmbiguousClient8[] = [
  {
    does: 'is an asynq task on the default MaxRetry (25) and DefaultRetryDelayFunc (n^4 + 15 + rand(30)(n + 1) s) reading connectors through six 500s, seven attempts over several minutes',
    why: '"A sample client makes up to 4 attempts": seven attempts of one read, but from the third or fourth retry on the default delays exceed the 120 s in which the rules look for a retry, so the later attempts read as new reads (a read without a key cannot be told from the next run of a job); the same trade-off as round 15\'s six attempts over 31 minutes',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 6 });
      await loop(sleeper(t), () => get(t, a, '/connectors?providerId=tillcraft'), asynqDelay(seeded(1958)), 25);
    },
  },
  {
    does: 'is a Flask receiver verifying everything correctly but comparing the hex with == (not constant time)',
    why: '"The receiver compares in constant time": a timing difference of one string compare cannot be seen from a scored sequence of single deliveries, so the check judges only what is accepted and the receiver passes',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, h, secret) => {
          const p = Object.fromEntries(
            (h ?? '').split(',').map((x) => [x.slice(0, x.indexOf('=')).trim(), x.slice(x.indexOf('=') + 1).trim()]),
          );
          const ts = p.t ?? '';
          const good = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex');
          return /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 300 && p.v1 === good;
        },
      }),
  },
  {
    does: 'is an asynq task whose create got a 500 (nothing committed) and which, re-enqueued by a dead-letter handler as a new task (new TaskID key), sends it again 150 s later',
    why: '"retry ... with growing intervals" and "use a new key for each new operation": nothing was committed, so the new key does no harm, but it is the same operation; 150 s is beyond the 120 s in which the rules look for a retry, so it is judged a new operation',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const random = seeded(1992);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Dead Letter Dumplings' };
      await createWith(t, a, body, `asynq:${uuid(random)}`);
      await sleeper(t)(150_000);
      await createWith(t, a, body, `asynq:${uuid(random)}`);
    },
  },
  {
    does: 'is a reader that, answered 429 (Retry-After 10) on its own OAuth client, sends the same read 100 ms later with the token of the partner’s second OAuth client',
    why: '"Rate limits: configured per access ... respect the wait time of the response ... Lasting high load is to be agreed beforehand instead of being split up": the partner dodges the wait by switching access, but the rules judge per client id (the token\'s OAuth client), and the second access owes nothing it was told; whether "the client" is the OAuth client or the partner\'s program the interface does not say',
    judged: [],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      const second = auth(t, 'network-integrator', 3_600);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 10, count: 1 });
      const r = await get(t, first, '/providers?category=pos');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(100);
      await get(t, second, '/providers?category=pos');
    },
  },
  {
    does: 'is a rq job whose create got a 500, which looks the venue up (GET /connections), finds nothing committed, and creates it again 5 s later under a new job key',
    why: '"use a new key for each new operation" and "Modifying calls are repeat-safe through idempotency keys": the lookup showed the first create had no effect, so the new key can cause no double effect, but it is the same operation sent again after a 500; the rules cannot see the lookup\'s result and judge it a retry under a new key',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1995);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Looked Up Lasagne' };
      await createWith(t, a, body, `rq:job:${uuid(random)}`);
      await sleeper(t)(1_000);
      await get(t, a, '/connections');
      await sleeper(t)(4_000);
      await createWith(t, a, body, `rq:job:${uuid(random)}`);
    },
  },
  {
    does: 'is a status page opening the public stream from the browser with EventSource (Origin set, no token, no tenant header)',
    why: '"The interface is called from servers only. Access credentials stay in the partner\'s backend and are never sent from a browser": no credential leaves the backend, but the first sentence says servers only; the rule judges credentials sent with an Origin, so a tokenless public call passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      await get(t, a, '/providers');
      await readStream(t, undefined, {
        idleMs: 600,
        headers: { origin: 'https://status.partner.example', 'sec-fetch-mode': 'cors', accept: 'text/event-stream' },
        onOpen: () => publish(t, a.tenant, 2),
      });
    },
  },
];
