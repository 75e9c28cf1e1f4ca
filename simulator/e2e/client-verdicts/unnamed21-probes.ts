import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';

/**
 * Round 21 probes at the rules' edges: a cache-busting query that changes on every attempt (two wrong
 * verdicts, fixed: content-hash.ts counts only the parameters a route takes), and a stream reconnecting
 * with an expired token.
 */
export const MISBEHAVING_PROBES_21: FaultyClient[] = [
  // "A sample client makes up to 4 attempts" and "Clients retry with growing intervals": superagent's
  // `.retry(5)` re-sends at once, and the service's wrapper adds `.query({ _: Date.now() })` to every request
  // (a cache-buster; GET /connections takes no parameters). The rules compared the query as content, so the
  // six attempts read as six different reads and nothing failed; now only the parameters a route takes count.
  {
    does: 'is a Node service on superagent with .retry(5) and a cache-busting .query({ _: Date.now() }) on every attempt, re-sending a read at once through five 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 5 });
      let now = 1_764_240_000_000;
      // The simulator refuses the unknown parameter (400) once the faults are spent: the sixth attempt is
      // a 400, which ends superagent's retries (a deployment that ignores it would answer 200).
      const last = await loop(
        sleeper(t),
        () => {
          now += 7;
          return get(t, a, `/connections?_=${now}`);
        },
        () => 0,
        5,
      );
      if (last.status !== 400) throw new Error(`the sixth attempt answered ${last.status}`);
    },
  },
  // "respect the wait time of the response": the same cache-buster (`?nocache=<microtime>`, a PHP wrapper)
  // on a read retried 200 ms after a 429 with Retry-After: 5 (the same cause: the retry was taken for
  // another read, so no rule failed).
  {
    does: 'is a PHP service whose HTTP wrapper appends ?nocache=<microtime> to every call, retrying a 429 (Retry-After 5) after 200 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 5, count: 1 });
      let micro = 1_764_240_000_123_456;
      // The second attempt reaches validation, which refuses the unknown parameter (400).
      await loop(
        sleeper(t),
        () => {
          micro += 200_731;
          return get(t, a, `/capabilities?nocache=${micro}`);
        },
        () => 200,
        2,
      );
    },
  },
  // "request a new access token ... renewed, not extended" and "retry only after rate_limited and internal":
  // a Node worker on the `eventsource` package whose custom fetch captured a 60 s token at start keeps
  // reconnecting to the stream with it, expired, four times 10 s apart (each answered 401, sent unchanged).
  {
    does: 'is a Node worker on the eventsource package whose custom fetch captured a 60 s token at start, reconnecting with it expired four times 10 s apart',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(90_000);
      for (let n = 0; n < 4; n++) {
        let status = 200;
        await readStream(t, a, {
          cursor: last,
          idleMs: 600,
          onRefused: (s) => {
            status = s;
          },
        });
        if (status !== 401) throw new Error(`answered ${status}`);
        await sleeper(t)(10_000);
      }
    },
  },
];
