import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get } from './unnamed8-kit.ts';
import { nested } from './unnamed25-kit.ts';
import { restyJitter, runsWithOwnToken } from './unnamed34-kit.ts';

/**
 * Round 34, misbehaving stream readers and token holders: a Kafka-minded reader sending the next offset
 * as its cursor, a reader taking a clean end of the stream for "nothing more" and starting live, PHP-FPM
 * recycling its worker after every request, a token per lookup with lookups 12 and 44 s apart in turn,
 * and go-resty's retries inside a loop of its caller's. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_34_MORE: (FaultyClient & { options?: SandboxOptions })[] = [
  // "(last number read)": a Kafka consumer commits offset + 1 (the next to read); sent as the cursor,
  // it claims a message it never read.
  {
    does: 'is a Kafka-minded reader that keeps the next offset (last id + 1) as its cursor and reconnects with it 1 s after its stream is cut after three messages',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (ids.length !== 3 || last === undefined) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last + 1, idleMs: 400 });
    },
  },
  // "After an interruption, the client resumes without gaps": an end the server chose is an interruption
  // too; this reader takes it for "caught up" and reconnects live, without a cursor.
  {
    does: 'takes a clean end of the stream (after three messages) for "caught up" and reconnects 2 s later without Last-Event-ID or cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(2_000);
      await readStream(t, a, { idleMs: 400 });
    },
  },
  // "Tokens are ... renewed, not extended": the token sits in a static property, but pm.max_requests = 1
  // recycles the worker after every request, so each request (8-14 s apart) fetches a new one.
  {
    does: 'is a PHP-FPM pool with pm.max_requests = 1 keeping its token in a static property: every request, 8-14 s apart, is a fresh worker fetching a new 15-minute token',
    fails: ['auth.token-reused'],
    run(t) {
      const draw = seeded(3461);
      const gaps = Array.from({ length: 7 }, () => 8_000 + Math.round(draw() * 6_000));
      return runsWithOwnToken(t, sleeper(t), gaps);
    },
  },
  // "renewed, not extended": a token per lookup, lookups 12 s and 44 s apart in turn (pairs averaging
  // 28 s, none 45 s or more): one process churning at an irregular cadence.
  {
    does: 'fetches a new 15-minute token for each order lookup, lookups 12 s and 44 s apart in turn, eight lookups',
    fails: ['auth.token-reused'],
    run: (t) => runsWithOwnToken(t, sleeper(t), [12_000, 44_000, 12_000, 44_000, 12_000, 44_000, 12_000]),
  },
  // "up to 4 attempts": resty's SetRetryCount(3) (four attempts) inside the caller's own two-pass loop,
  // 5 s apart: eight attempts of one read on one token.
  {
    does: 'wraps a go-resty call (SetRetryCount(3), jitter backoff) in its caller’s own two-pass loop 5 s apart, reading through seven 500s: eight attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 7 });
      const w = restyJitter(seeded(3463));
      await nested(sleeper(t), () => get(t, a, '/connectors'), { inner: [w(0), w(1), w(2)], outer: [5_000] });
    },
  },
];
