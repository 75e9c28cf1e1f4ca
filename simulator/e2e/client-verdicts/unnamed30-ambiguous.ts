import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { bufferedConsumer, netlifyBackground } from './unnamed30-kit.ts';

/**
 * Round 30, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_30: AmbiguousClient8[] = [
  {
    does: 'is a consumer with a bounded buffer that resumes after a cut from the last message its buffer RECEIVED, one of them not yet processed (and lost)',
    why: '"(last number read)": the buffer read it, the handler never did; the server can only count what it sent, so the loss is invisible and the resume reads as exact',
    judged: [],
    run: (t) => bufferedConsumer(t, { received: 3, processed: 2, cursorOf: (r) => r }),
  },
  {
    does: 'is a consumer with a bounded buffer that resumes after a server cut from the last message it PROCESSED, one received message not yet processed',
    why: '"resumes without gaps ... (last number read)": it leaves no gap and reads one message again; the burst exception covers only a stream the client closed itself, so today a server cut makes the unprocessed message a message read again',
    judged: ['stream.resume-from-last-read'],
    run: (t) => bufferedConsumer(t, { received: 3, processed: 2, cursorOf: (_r, p) => p }),
  },
  {
    does: 'is a Netlify background function keyed by its event id, its create refused 500 twice: Netlify runs it again after 1 min, then 2 min (at the edge of the 120 s retry window)',
    why: '"the same key with the same content" on retries: the third run is the platform’s retry, 120 s after the second failure, where the retry window ends; whether it is looked at as a retry depends on milliseconds',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Edge Empanadas' };
      await loop(sleeper(t), () => createWith(t, a, body, 'evt_01JD8R7EDGE'), netlifyBackground, 2);
    },
  },
  {
    does: 'is a Locust user with wait_time = between(1, 3) polling the connections, through three 500s',
    why: '"a read polled at its cadence through failures is polling" against "retry with growing intervals": a random pacing has no steady cadence, so the rules may take the reads after the 500s for a retry sequence whose waits do not grow',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(3094);
      for (let i = 0; i < 9; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
        await get(t, a, '/connections');
        await sleeper(t)(1_000 + Math.round(random() * 2_000));
      }
    },
  },
];
