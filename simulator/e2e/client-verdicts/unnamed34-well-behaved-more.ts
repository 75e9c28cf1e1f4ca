import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { ownToken } from './unnamed33-kit.ts';
import { runsWithOwnToken } from './unnamed34-kit.ts';

/**
 * Round 34, well-behaved stream readers and token holders: a Java 21 `ofLines()` reader resuming by query
 * parameter, a reader resuming twice after the server ended the stream cleanly, a token renewed 5 minutes
 * before expiry, a systemd timer's runs and a crash-looping pod's restarts after long waits, each with a
 * token of its own. Each must get no `fail`.
 */
export const WELL_BEHAVED_34_MORE: UnnamedClient2[] = [
  // "(last number read)": the reader keeps the id of each line it handled and reconnects with ?cursor=.
  {
    does: 'is a Java 21 HttpClient stream reader on BodyHandlers.ofLines() whose stream is cut after three messages: 1 s later it reconnects with ?cursor= of the last id handled',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (ids.length !== 3 || last === undefined) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 400 });
    },
  },
  // "After an interruption, the client resumes": a stream the server ends cleanly is resumed the same
  // way, twice, each time from the last number read.
  {
    does: 'treats each clean end of the stream (after two messages, twice) as an interruption and reconnects at once with Last-Event-ID of the last message read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      let last: number | undefined;
      for (let round = 0; round < 3; round++) {
        const ids = await readStream(t, a, {
          ...(last === undefined ? {} : { cursor: last }),
          idleMs: round === 2 ? 400 : 1_500,
          onOpen: () => publish(t, a.tenant, 2),
        });
        last = ids.at(-1) ?? last;
        if (round < 2 && ids.length !== 2) throw new Error(`round ${round} read ${ids.join(',')}`);
        await sleeper(t)(50);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a 15 min token renewed once under 5 min is left.
  {
    does: 'is a Java 21 service reading every 20 s for 16 minutes on one 15-minute token, renewed once fewer than 300 s are left',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 900, 300);
      for (let i = 0; i < 48; i++) {
        ok('read', await get(t, token(), '/connectors'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "a later run (a job started again) is no churn": OnUnitActiveSec=60s with RandomizedDelaySec=20s,
  // each run a new process with a token of its own, 60-80 s after the one before.
  {
    does: 'is a systemd timer (OnUnitActiveSec=60s, RandomizedDelaySec=20s) starting a oneshot service that takes its own token and reads once, seven runs',
    pass: [],
    run(t) {
      const draw = seeded(3411);
      const gaps = Array.from({ length: 6 }, () => 60_000 + Math.round(draw() * 20_000));
      return runsWithOwnToken(t, sleeper(t), gaps);
    },
  },
  // "retry with growing intervals": a pod whose startup read answers 500 exits; CrashLoopBackOff restarts
  // it 10, 20 and 40 s later, each process taking a token of its own (it cannot keep one).
  {
    does: 'is a pod that exits when its startup read answers 500, restarted by CrashLoopBackOff after 10, 20 and 40 s, each start taking a new token',
    pass: ['retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      const waits = [10_000, 20_000, 40_000];
      let r = await get(t, auth(t, undefined, 900), '/connections');
      for (const w of waits) {
        if (r.status !== 500) break;
        await sleeper(t)(w);
        r = await get(t, auth(t, undefined, 900), '/connections');
      }
      ok('startup', r);
    },
  },
];
