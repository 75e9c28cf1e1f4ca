import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { ownToken } from './unnamed33-kit.ts';

/**
 * Round 36, more cases the interface does not decide: two leaders after a split brain, one resuming
 * right and one from a stale checkpoint, and a token cache renewing "5 minutes before expiry" on tokens
 * that live 8 minutes.
 */
export const AMBIGUOUS_36_MORE: AmbiguousClient8[] = [
  {
    does: 'is a consumer pod cut after seven that lives on while a split brain elects two leaders at once: one resumes at 7 (the last number read), the other from the checkpoint written every five (5)',
    why: '"resumes without gaps ... (last number read)": the client reads the sixth and seventh twice, which the rule takes as a resume from an older number (the stale leader, its own token and no stream before, is judged as taking over the cut reading even though the right leader, open first, already resumed it); a second consumer reading from its own store looks the same on the wire (round 35\'s analytics job, opened before the resume, passes), and whether a process may re-read what another of the client read the interface does not say',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 7) });
      if (ids.length !== 7) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      ok('pod A read', await get(t, a, '/connectors'));
      await sleeper(t)(1_000);
      // The right leader's stream is open before the stale one opens beside it.
      let opened = () => {};
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const right = readStream(t, auth(t), { cursor: ids.at(-1) ?? 0, idleMs: 600, onOpen: () => opened() });
      await open;
      await Promise.all([right, readStream(t, auth(t), { cursor: ids[4] ?? 0, idleMs: 400 })]);
      ok('pod A read', await get(t, a, '/connectors'));
    },
  },
  {
    does: 'is a worker whose token cache renews 5 minutes before expiry (an SDK default) on 8-minute tokens, reading every 15 s for 25 minutes: each token replaced after 3 minutes',
    why: '"renewed, not extended" names no moment: the README calls renewing "near expiry (e.g. 5 minutes before)" no churn; pinned in round 36 as churn (more than half of each token\'s life left), decided in session 28: a token held a third of its life or more and renewed inside a token cache\'s usual window (5 minutes) is renewed near expiry',
    judged: [],
    async run(t) {
      const token = ownToken(t, 480, 300);
      for (let i = 0; i < 100; i++) {
        ok('read', await get(t, token(), '/connectors'));
        await sleeper(t)(15_000);
      }
    },
  },
];
