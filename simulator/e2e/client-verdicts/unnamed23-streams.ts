import type { Target } from '../harness.ts';
import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 23, stream consumers whose stream open is refused 429 ("respect the wait time of the response"):
 * the Retry-After of a refused stream is owed by the stream opened next.
 */

/** Opens the stream once refused 429 (Retry-After 3), waits `waitMs` (or the Retry-After), and opens it again. */
async function refusedThenOpened(t: Target, waitMs?: number) {
  const a = auth(t);
  fault(t, { kind: 'rate_limited', route: 'streamStatus', retryAfterSeconds: 3, count: 1 });
  let told = -1;
  await readStream(t, a, { idleMs: 400, onRefused: (status, ra) => (told = status === 429 ? ra : -1) });
  if (told < 0) throw new Error('the stream was not refused 429');
  await sleeper(t)(waitMs ?? told);
  const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
  if (ids.length !== 2) throw new Error(`read ${ids.length}`);
}

/** A stream cut after two messages; the reconnect is refused 429 (Retry-After 2); then `cursor(last)` is sent. */
async function cutRefusedResumed(t: Target, cursor: (last: number) => number | undefined) {
  const a = auth(t);
  fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
  const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 3) });
  const last = ids.at(-1);
  if (last === undefined) throw new Error('nothing read before the cut');
  await sleeper(t)(500);
  fault(t, { kind: 'rate_limited', route: 'streamStatus', retryAfterSeconds: 2, count: 1 });
  let told = -1;
  await readStream(t, a, { cursor: last, idleMs: 400, onRefused: (status, ra) => (told = status === 429 ? ra : -1) });
  if (told < 0) throw new Error('the reconnect was not refused 429');
  await sleeper(t)(told);
  await readStream(t, a, { cursor: cursor(last), idleMs: 600 });
}

export const STREAMS_WELL_BEHAVED_23: UnnamedClient2[] = [
  {
    does: 'is a Mint-based Elixir consumer whose stream open is refused 429 (Retry-After 3), opening it again 3 s later',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      await refusedThenOpened(t);
    },
  },
  {
    does: 'is an amphp consumer cut after two messages, its reconnect refused 429 (Retry-After 2), reconnecting 2 s later with the last id read',
    pass: ['retry.respects-retry-after', 'stream.resume-from-last-read'],
    async run(t) {
      await cutRefusedResumed(t, (last) => last);
    },
  },
];

export const STREAMS_MISBEHAVING_23: FaultyClient[] = [
  {
    does: 'is a Mint-based Elixir consumer whose stream open is refused 429 (Retry-After 3), opening it again after its fixed 500 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      await refusedThenOpened(t, 500);
    },
  },
  {
    does: 'is an amphp consumer cut after two messages whose SSE wrapper forgets the last id when a reconnect is refused 429, reconnecting without a cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      await cutRefusedResumed(t, () => undefined);
    },
  },
];
