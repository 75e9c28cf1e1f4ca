import type { Target } from '../harness.ts';
import { type Auth, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 34, edges across processes and restarts: a stream taken over by a sibling pod (its own token)
 * from the last id stored per message, or from a checkpoint written every five; a process restarted by
 * systemd at a fixed RestartSec, each start on a new token; a token per call through 429s.
 */

/** Pod A reads a stream cut after seven messages and dies; 2 s later pod B (own token) resumes from `from`. */
export async function takeOverStream(t: Target, from: (ids: number[]) => number | undefined) {
  const podA = auth(t);
  const podB = auth(t);
  ok('pod B', await get(t, podB, '/connectors'));
  fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
  const ids = await readStream(t, podA, { onOpen: () => publish(t, podA.tenant, 7) });
  if (ids.length !== 7) throw new Error(`read ${ids.join(',')}`);
  await sleeper(t)(2_000);
  const cursor = from(ids);
  await readStream(t, podB, { ...(cursor === undefined ? {} : { cursor }), idleMs: 400 });
}

export const PROBES_MORE_WELL_34: UnnamedClient2[] = [
  // "A read polled at its cadence through failures is polling": a dashboard refresh every 10 s ± 2 s
  // keeps its cadence through two 500s in a row, retrying nothing sooner.
  {
    does: 'is a dashboard polling /connections every 10 s ± 2 s (twelve polls) that keeps its cadence through two 500s in a row',
    pass: [],
    async run(t) {
      const a = auth(t);
      const draw = seeded(3481);
      for (let i = 0; i < 12; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        await get(t, a, '/connections');
        await sleeper(t)(8_000 + Math.round(draw() * 4_000));
      }
    },
  },
  // "(last number read)": the consumer writes each id to Redis as it handles it; the sibling resumes there.
  {
    does: 'is a consumer pod writing each handled id to Redis; when its stream is cut after seven and it dies, a sibling pod (its own token) resumes from the stored id',
    // First judged not-observed (the sibling's token, in use before, made it another process's reading);
    // a sibling with no stream of its own taking over a process that is gone resumes that reading now.
    pass: ['stream.resume-from-last-read'],
    run: (t) => takeOverStream(t, (ids) => ids.at(-1)),
  },
];

export const PROBES_MORE_MISBEHAVING_34: FaultyClient[] = [
  // "(last number read)": the shared checkpoint is written every five messages, so the sibling reads
  // the sixth and seventh again.
  {
    does: 'is a consumer pod checkpointing to a shared store every five messages; cut after seven, it dies and a sibling pod (its own token) resumes from the checkpoint (the fifth)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => takeOverStream(t, (ids) => ids[4]),
  },
  // "growing intervals": Restart=on-failure with RestartSec=30s restarts the failed unit every 30 s; each
  // start is a process of its own with a new token (a restart after a failure is no churn).
  {
    does: 'is a systemd service (Restart=on-failure, RestartSec=30s) whose startup read answers 500 three times: each start, 30 s after the last, takes a new token',
    fails: ['retry.growing-waits'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      let r = await get(t, auth(t, undefined, 900), '/connections');
      for (let n = 0; n < 3 && r.status === 500; n++) {
        await sleeper(t)(30_000);
        r = await get(t, auth(t, undefined, 900), '/connections');
      }
      ok('startup', r);
    },
  },
  // "renewed, not extended": a token per call every 10 s; a 429 (every third call) is waited out as it
  // says, then retried, again on a new token: a 429 is no reason to take a new token.
  {
    does: 'fetches a new 15-minute token for every call, one read every 10 s, every third refused 429 (Retry-After 2 s) and retried after 2 s on yet another new token',
    fails: ['auth.token-reused'],
    async run(t) {
      const fresh = (): Auth => auth(t, undefined, 900);
      for (let i = 0; i < 9; i++) {
        if (i % 3 === 2) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
        const r = await get(t, fresh(), '/connectors');
        if (r.status === 429) {
          await sleeper(t)(r.retryAfterMs);
          ok('retry', await get(t, fresh(), '/connectors'));
        }
        await sleeper(t)(10_000);
      }
    },
  },
];
