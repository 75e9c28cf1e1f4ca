import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { refused } from './unnamed45-kit.ts';
import { createFor, lastOf, readCut } from './unnamed46-kit.ts';

/**
 * Round 46, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_46: AmbiguousClient8[] = [
  {
    does: 'resumes a stream cut after three messages with ?cursor= of the third and, from an HTTP client default header set at start-up, Last-Event-ID of the first',
    why: '"by sending Last-Event-ID or the query parameter cursor (last number read)": the interface names the two as alternatives and says nothing of which counts when both are sent and disagree; the service resumes from the header (as EventSource sends it on every reconnect), and the rules read the reconnect as the service does: from the first, messages read again',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readCut(t, a, 3);
      await sleeper(t)(1_000);
      await readStream(t, a, {
        cursor: lastOf(ids),
        asQuery: true,
        headers: { 'last-event-id': String(ids[0]) },
        idleMs: 400,
      });
    },
  },
  {
    does: 'checkpoints only what it processed: the create for the third message fails with a 500 its handler does not retry, so the stream, cut after three, is resumed from the second to have the third again',
    why: '"resumes without gaps ... (last number read)": the third was read but not processed; the interface speaks of reading, an at-least-once consumer of processing, and reading a message again is no gap',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readCut(t, a, 3);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      refused('third', await createFor(t, a, 'alo', lastOf(ids)), 500);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: ids[1], idleMs: 400 });
    },
  },
  {
    does: 'is a second pod (its own token) started during a rollout that opens the stream from 0 to rebuild its cache while the first pod, cut after three messages, has not come back',
    why: '"Every message carries a consecutive number and arrives exactly once": a new consumer replaying from 0 on purpose reads again what the client read; the two tokens were never in use at once, so the rules see one process renewing its token and judge the replay as the dead pod\'s stream resumed from 0',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const podA = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      await readCut(t, podA, 3);
      await sleeper(t)(2_000);
      await readStream(t, auth(t), { cursor: 0, idleMs: 400, onOpen: () => publish(t, podA.tenant, 1) });
    },
  },
];
