import { auth, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { stainlessRetry } from './unnamed22-kit.ts';
import { pollyPow2 } from './unnamed47-kit.ts';

/**
 * Round 47, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_47: AmbiguousClient8[] = [
  {
    does: 'is an NSwag-generated client behind HandleTransientHttpError().WaitAndRetryAsync(3, 2^n s), which never reads Retry-After: two gateway 503s with Retry-After 5 are retried after 2 s and 4 s',
    why: '"respect the wait time of the response" is said of rate_limited (429), and "the service answers 429 with a wait time"; a 503 is no status the interface lists, so whether its Retry-After binds a client it does not say. Waits of 2 s and 4 s grow, so no rule fails today',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listConnections', retryAfterSeconds: 5, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), pollyPow2, 3));
    },
  },
  {
    does: 'is a Stainless-generated SDK meeting two 429s in a row on GET /providers, each with Retry-After 1, and sleeping exactly 1 s both times (a Retry-After under 60 s replaces its own backoff)',
    why: '"respect the wait time of the response, retry with growing intervals": the interface asks for both and does not say whether the intervals must grow beyond what the service asks; the rules take waits the server set as the server\'s, never as equal waits of the client, so nothing fails',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), stainlessRetry(seeded(4721)), 2));
    },
  },
];
