import type { Target } from '../harness.ts';
import { auth, CONNECTION, fault, publish, READS, readStream } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { springRetryable } from './unnamed29-edges.ts';
import { celeryDefault, contentKey } from './unnamed29-kit.ts';

/**
 * Round 29, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */

/** Three processes of one client (a token each, all in use), each with one jitter offset drawn at start. */
async function offsetPerProcess(t: Target) {
  const random = seeded(2991);
  const pods = [0, 1, 2].map(() => ({ a: auth(t), offset: Math.floor(random() * 250) }));
  for (const p of pods) ok('ping', await get(t, p.a, '/connections'));
  for (const [i, p] of pods.entries())
    for (const [route, path] of [READS[i], READS[(i + 3) % 5]].filter((r) => r !== undefined)) {
      fault(t, { kind: 'internal', route, count: 2 });
      ok(
        path,
        await loop(
          sleeper(t),
          () => get(t, p.a, path),
          (n) => 500 * 2 ** n + p.offset,
          3,
        ),
      );
      await sleeper(t)(5_000);
    }
  for (const p of pods) ok('ping', await get(t, p.a, '/connections'));
}

export const AMBIGUOUS_29: AmbiguousClient8[] = [
  {
    does: 'reads connections once, a second later reads them again and retries that read through two 500s on Spring @Retryable defaults (fixed 1 s)',
    why: '"retry with growing intervals" against "a read polled at its cadence through failures is polling": one answered read, then reads a second apart through two 500s, has the shape of an Odoo cron every minute whose two runs failed (round 19, well-behaved) at another scale; the rules take the cadence of one success and call it polling',
    judged: [],
    run: (t) => springRetryable(t, 1_000),
  },
  {
    does: 'runs three processes of one client (a token each, all in use), each drawing one jitter offset at start: its own retries wait 500 ms x2^n plus that same offset',
    why: '"slight random spread": the offset spreads the processes from each other (what the spread is for) but not one process’s retries; the rules compare the same-position waits of all the client’s sequences together, whose differences (median 23 ms here) leave retry.spread undecided',
    judged: [],
    run: offsetPerProcess,
  },
  {
    does: 'is a Celery task with autoretry_for and nothing else set (180 s countdown), drawing its key in the task body: the create refused 500 is sent again 180 s later under a new key',
    why: '"the same key with the same content" on retries: the re-run is the task’s retry, but it comes after the 120 s a retry is looked for in, so it reads as a new operation under its own key',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Countdown Cannoli' };
      const keys = ['celery-3f1e-0001', 'celery-9a7c-0002'];
      await loop(sleeper(t), (n) => createWith(t, a, body, keys[n] ?? `celery-${n}`), celeryDefault, 1);
    },
  },
  {
    does: 'derives its key from a hash of the request and connects the same venue twice on purpose, 30 s apart: the second create is answered with the first’s replay',
    why: '"use a new key for each new operation": the client meant two operations but its key scheme makes them one; the service cannot tell a deliberate second create from a repeat after a success',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Twin Tills' };
      const key = contentKey('POST', '/connections', body);
      ok('first', await createWith(t, a, body, key));
      await sleeper(t)(30_000);
      ok('second', await createWith(t, a, body, key));
    },
  },
  {
    does: 'is an integrator whose tenant A stream is refused 429 (Retry-After 5 s): it opens tenant B’s stream 1 s later on the same token, and A’s after the 5 s',
    why: '"respect the wait time of the response": whether a 429 for one tenant asks the client to hold back its other tenants the interface does not say (the rules judge per tenant: the reads of round 27 the same way)',
    judged: [],
    async run(t) {
      const a = { ...t.sandbox.issueToken('network-integrator', 3_600), tenant: 'harbour-kitchens' };
      const b = { ...a, tenant: 'alpine-bistro' };
      fault(t, { kind: 'rate_limited', route: 'streamStatus', tenant: a.tenant, retryAfterSeconds: 5, count: 1 });
      let told = -1;
      await readStream(t, a, { idleMs: 400, onRefused: (status, ra) => (told = status === 429 ? ra : -1) });
      if (told !== 5_000) throw new Error('tenant A’s stream was not refused 429');
      await sleeper(t)(1_000);
      await readStream(t, b, { idleMs: 400, onOpen: () => publish(t, b.tenant, 1) });
      await sleeper(t)(4_000);
      await readStream(t, a, { idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
