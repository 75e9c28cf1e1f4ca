import type { Target } from '../harness.ts';
import { auth, CONNECTION, fault, publish, READS, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { canonical, hashKey } from './unnamed43-kit.ts';

/** A stream cut after two messages, resumed 1 s later with the headers and query `resume(last)` gives. */
async function cutThenResume(t: Target, resume: (last: number) => Parameters<typeof readStream>[2]) {
  const a = auth(t);
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: 2, count: 1 });
  const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
  if (ids.length !== 2) throw new Error(`read ${ids.length} of 2`);
  await sleeper(t)(1_000);
  await readStream(t, a, { ...resume(ids.at(-1) ?? 0), idleMs: 400 });
}

/**
 * Round 43, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_43: AmbiguousClient8[] = [
  {
    does: 'resumes a cut stream with ?cursor= naming the last number read and a stale Last-Event-ID: 1 its EventSource polyfill still carries',
    why: '"by sending Last-Event-ID or the query parameter cursor (last number read)": the interface names either, not which one wins when both are sent and differ; the service takes the header (EventSource sends it on every reconnect), serves message 2 again, and the rule agrees: messages read again',
    judged: ['stream.resume-from-last-read'],
    run: (t) =>
      cutThenResume(t, (last) => ({ cursor: last, asQuery: true, headers: { 'last-event-id': String(last - 1) } })),
  },
  {
    does: 'resumes a cut stream with Last-Event-ID: 2.0 (its checkpoint kept as a float by a JSON store), the last number read',
    why: '"Last-Event-ID | header | string | last number read" and "cursor | integer, minimum 0": 2.0 names the number 2 but is no integer literal; the service refuses the open 400 (an integer >= 0), and a refused open resumes nothing, so no rule judges it (its next reconnect would be)',
    judged: [],
    run: (t) => cutThenResume(t, (last) => ({ headers: { 'last-event-id': `${last}.0` } })),
  },
  {
    does: 'is a batch job spreading 200 creations over 60 s (one every 300 ms), each under its own key with its own content, without asking first',
    why: '"Lasting high load is to be agreed beforehand instead of being split up": no rule judges load or whether it was agreed; the creations are new operations, each keyed once',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (let i = 0; i < 200; i++) {
        const body = { ...CONNECTION, scopeLabel: `Batch Venue ${i + 1}` };
        ok(`row ${i + 1}`, await createWith(t, a, body, `batch-4344-${String(i + 1).padStart(4, '0')}`));
        await sleep(300);
      }
    },
  },
  {
    does: 'is two pods (both polling /connectors every 5 s, their own tokens) deriving keys from the canonical body, each deciding 2 s apart to connect the same venue (the second is answered with the first’s replay)',
    why: '"use a new key for each new operation": two pods meaning two operations send one key, and the second gets the first’s outcome; on the wire it is a sibling process re-sending a create another process got a success for, which the rules take as no repeat (with the first pod gone quiet, the same two calls fail retry.only-after-failure as one process replacing its token)',
    judged: [],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Twin Pods Pizzeria' };
      const key = hashKey('conn', canonical(body));
      const sleep = sleeper(t);
      const [podA, podB] = [t.sandbox.issueToken(), t.sandbox.issueToken()];
      let replays = 0;
      for (let step = 0; step < 8; step++) {
        const pod = step % 2 ? podB : podA;
        ok('poll', await get(t, pod, '/connectors'));
        if (step === 2 || step === 3) {
          const r = ok('create', await createWith(t, pod, body, key));
          if (r.json?.meta?.replayed === true) replays += 1;
        }
        await sleep(step % 2 ? 3_000 : 2_000);
      }
      if (replays !== 1) throw new Error(`replayed ${replays} times`);
    },
  },
  {
    does: 'is two pods sharing one token from a sidecar’s token file, polling /connectors every 10 s 5 s apart: pod A is refused 429 (Retry-After 8 s) and pod B polls on schedule 5 s later',
    why: '"respect the wait time of the response": the 429 answers the credentials, and a shared token makes the two pods one client on the wire; the rules tell processes apart by their tokens only, so pod B’s poll counts as pod A’s early retry',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const shared = auth(t);
      const sleep = sleeper(t);
      for (let step = 0; step < 8; step++) {
        if (step === 3) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 8, count: 1 });
        await get(t, shared, '/connectors');
        await sleep(5_000);
      }
    },
  },
  {
    does: 'retries reads through three 500s doubling from 10 ms (10, 20, 40 ms, no draw), three reads',
    why: '"Clients retry with growing intervals": 10, 20, 40 ms do grow, and the guidance’s 500 ms base is a sample, not a floor; but two waits under 50 ms count as none (an immediate retry, which no client can tell from a machine’s delay), so the pairs read as equal and the rule fails them as retrying at once',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            (n) => 10 * 2 ** n,
            3,
          ),
        );
        await sleep(5_000);
      }
    },
  },
  {
    does: 'is two short-lived jobs (each its own token, used once) deriving keys from the canonical body that connect the same venue 2 s apart (the second is answered with the first’s replay)',
    why: '"use a new key for each new operation": as above, but the first job’s token goes quiet before the second’s is used, so on the wire one process replaced its token and sent its successful create again under its key: a repeat after a 2xx',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Twin Jobs Juicery' };
      const key = hashKey('conn', canonical(body));
      ok('job A', await createWith(t, t.sandbox.issueToken(), body, key));
      await sleeper(t)(2_000);
      const second = ok('job B', await createWith(t, t.sandbox.issueToken(), body, key));
      if (second.json?.meta?.replayed !== true) throw new Error('job B was not replayed');
    },
  },
];
