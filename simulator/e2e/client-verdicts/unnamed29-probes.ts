import type { Target } from '../harness.ts';
import {
  type Auth,
  auth,
  CONNECTION,
  fault,
  publish,
  READS,
  type Reply,
  readStream,
  type UnnamedClient2,
} from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 29 probes of processes coming and going and of waits the server set: a rolling deploy replacing
 * three pods (each pod takes a token at start, as any new process does), one create's attempts spread over
 * three pods, a safety margin added to Retry-After twice, a retry time kept as a naive wall-clock string
 * and read back in Tokyo time, a consumer's successor replaying the stream from 0.
 */

/**
 * A job store keeping a 429's retry time as a naive ISO string (no zone), read back by a worker whose
 * zone is Asia/Tokyo (+09:00): the time comes out nine hours earlier, long past, so it retries at once.
 */
const naiveTokyo = (t: Target) => (_n: number, r: Reply) => {
  const now = t.sandbox.state.clock.now();
  const naive = new Date(now + r.retryAfterMs).toISOString().slice(0, 19);
  return Math.max(0, Date.parse(`${naive}+09:00`) - now);
};

/**
 * Three pods polling every 5 s (one-hour tokens), replaced one by one 10 s apart after five minutes: each
 * new pod takes its own token at start. Calls are interleaved on the sandbox clock, a pod per second.
 */
async function rollingDeploy(t: Target) {
  const paths = ['/connections', '/connectors', '/capabilities'];
  const pods: Auth[] = paths.map(() => auth(t, undefined, 3_600));
  for (let s = 0; s < 420; s++) {
    // Pod i is replaced at 300 + 10 i s: the old one's last call was its previous turn, 5 s before.
    for (const i of [0, 1, 2]) if (s === 300 + 10 * i) pods[i] = auth(t, undefined, 3_600);
    const i = s % 5;
    const pod = pods[i];
    const path = paths[i];
    if (pod && path) ok(path, await get(t, pod, path));
    await sleeper(t)(1_000);
  }
}

/**
 * Three processes of one client (a token each, all in use) each retrying two reads through three 500s,
 * every wait `schedule(n)` with the pod's own draws.
 */
export async function threePods(t: Target, schedule: (random: () => number) => (n: number) => number) {
  const pods = [0, 1, 2].map((i) => ({ a: auth(t), wait: schedule(seeded(2970 + i)) }));
  for (const p of pods) ok('ping', await get(t, p.a, '/connections'));
  for (const [i, p] of pods.entries())
    for (const [route, path] of [READS[i], READS[(i + 3) % 5]].filter((r) => r !== undefined)) {
      fault(t, { kind: 'internal', route, count: 3 });
      ok(path, await loop(sleeper(t), () => get(t, p.a, path), p.wait, 3));
      await sleeper(t)(5_000);
    }
  for (const p of pods) ok('ping', await get(t, p.a, '/connections'));
}

export const PROBES_WELL_BEHAVED_29: UnnamedClient2[] = [
  // "request an access token ... Tokens are short-lived and are renewed, not extended": a new pod of a
  // rolling deploy is a new process taking its first token, no renewal of the old pod's (the README: "in
  // a later run (a job started again) is no churn").
  {
    does: 'is a deployment of three pods polling every 5 s on one-hour tokens, rolled after five minutes: each new pod takes its own token at start, 10 s apart',
    pass: [],
    run: rollingDeploy,
  },
  // "respect the wait time of the response": Retry-After plus a fixed 100 ms of safety, twice; both waits
  // are the server's (honoured), so their being equal is no fault of growth.
  {
    does: 'waits each 429’s Retry-After plus a fixed 100 ms safety margin, creating through two 429s (Retry-After 2 s each) under one key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Margin Mochi' };
      const wait = (_n: number, r: Reply) => r.retryAfterMs + 100;
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'margin-4e2a90c1'), wait, 3));
    },
  },
];

export const PROBES_MISBEHAVING_29: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": one create under one key, attempted twice by each of three
  // pods (each takes the job over when the one before lost its lease): six attempts of one operation.
  {
    does: 'passes one create (one key) from pod to pod as leases expire, each pod attempting it twice through 500s: six attempts over three pods',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const pods = [auth(t), auth(t), auth(t)];
      for (const pod of pods) ok('ping', await get(t, pod, '/connectors'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const body = { ...CONNECTION, scopeLabel: 'Leased Lasagne' };
      const waits = [
        [500, 2_000],
        [1_000, 2_500],
        [1_200, 0],
      ];
      let last = 0;
      for (const [i, pod] of pods.entries())
        for (const wait of waits[i] ?? []) {
          last = (await createWith(t, pod, body, 'lease-job-8812')).status;
          if (wait) await sleeper(t)(wait);
        }
      if (last !== 200) throw new Error(`last attempt answered ${last}`);
    },
  },
  // "respect the wait time of the response": the retry time kept as a naive string, read back in Tokyo time.
  {
    does: 'keeps a 429’s retry time in its job store as a naive ISO string and reads it back in Asia/Tokyo time: three reads retried at once after Retry-After 2 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), naiveTokyo(t), 2));
        await sleeper(t)(5_000);
      }
    },
  },
  // "resumes without gaps ... (last number read)": the consumer's successor (a new process, a new token)
  // has no persisted cursor and replays the stream from 0, "its handlers being idempotent".
  {
    does: 'replaces a consumer that died after a cut with a new process (its own token) that replays the stream from 0',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const first = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, first, { onOpen: () => publish(t, first.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.join()}`);
      await sleeper(t)(4_000);
      await readStream(t, auth(t), { cursor: 0, idleMs: 500 });
    },
  },
  // "growing intervals": each pod waits a constant second plus a fresh draw of up to 400 ms (spread, but
  // no growth), in every process alike.
  {
    does: 'runs three processes of one client (a token each, all in use), each retrying two reads through three 500s at a constant 1 s plus a fresh draw up to 400 ms',
    fails: ['retry.growing-waits'],
    run: (t) => threePods(t, (random) => () => 1_000 + Math.floor(random() * 400)),
  },
];
