import { auth, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 12 probes: well-behaved clients the rules fail today (reported 2026-11-27; the rules were not
 * changed here). Each sends identical reads at once, as an HTTP/2 client multiplexes streams or a
 * resolver without a DataLoader does: the README promises that "two identical reads sent at once are
 * two calls even when the first is answered before the second is read" (each is the first call on a
 * connection the client opened without the answer), yet copies whose connection the server accepted
 * after the first answer left are read as immediate retries of it.
 */
export const PROBES_12: UnnamedClient2[] = [
  // "respect the wait time of the response": the siblings were sent before the 429 was known; only the
  // refused read is sent again, after the full Retry-After. Today: retry.respects-retry-after fails
  // ("waited 0 ms although Retry-After said 2 s", a sibling taken for the retry).
  {
    does: 'sends eight identical reads at once (as HTTP/2 streams of one page render); one is refused 429 (Retry-After: 2), the other seven succeed, and only the refused one is sent again after 2 s',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const first = await Promise.all(Array.from({ length: 8 }, () => get(t, a, '/connectors')));
      if (first.filter((r) => r.status === 429).length !== 1) throw new Error(first.map((r) => r.status).join(','));
      await sleeper(t)(2_100);
      ok('retry', await get(t, a, '/connectors'));
    },
  },
  // "growing intervals ... up to 4 attempts": eight reads, each retried once after 1 s. Today:
  // retry.attempt-limit ("5 attempts of one operation", waits 0, 0, 0, 1005 ms) and retry.growing-waits.
  {
    does: 'is a GraphQL resolver without a DataLoader that sends eight identical reads at once; all eight are answered 500 and each is retried once, 1 s later plus a draw',
    pass: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(1295);
      fault(t, { kind: 'internal', route: 'listProviders', count: 8 });
      const first = await Promise.all(Array.from({ length: 8 }, () => get(t, a, '/providers')));
      if (first.some((r) => r.status !== 500)) throw new Error(first.map((r) => r.status).join(','));
      await sleeper(t)(1_000 + Math.floor(random() * 250));
      const again = await Promise.all(Array.from({ length: 8 }, () => get(t, a, '/providers')));
      for (const r of again) ok('again', r);
    },
  },
];

/**
 * The probes as known wrong verdicts, pinned to what the rules say today (session 18 did not fix them: the
 * rules tell a copy sent at once from a retry by whether its connection was accepted before the first
 * answer left, and Node's fetch opening eight connections has the server accept the last ones after). A
 * fix of the rules moves them back among the well-behaved clients.
 */
export const KNOWN_WRONG_12: AmbiguousClient8[] = PROBES_12.map((p, i) => ({
  does: p.does,
  why: 'a wrong verdict, known and not fixed: the copies were sent before any answer (see unnamed12-probes.ts)',
  judged: i === 0 ? ['retry.respects-retry-after'] : ['retry.attempt-limit', 'retry.growing-waits'],
  run: p.run,
}));
