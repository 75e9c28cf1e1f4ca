import { api, auth, fault } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop, replayed } from './unnamed11-kit.ts';
import { refused } from './unnamed45-kit.ts';
import { goRetryable, hookBody } from './unnamed48-kit.ts';

/**
 * Round 48, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_48: AmbiguousClient8[] = [
  {
    does: 'is a go-retryablehttp client registering a webhook receiver whose POST /webhooks is committed then answered 500: the rewound request goes out 1 s later under the same Idempotency-Key and is replayed',
    why: '"The signing key is issued exactly once in the response and must be stored at once" beside "the same key with the same content returns the same response again": whether the replay of a committed registration carries the signing key again the interface does not say (the sandbox\'s replay does: the client kept its duty and got the key it never saw); the rules judge only the key and the wait, and nothing fails',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createWebhook', failWith: 'internal', count: 1 });
      const send = () => api(t, a, 'POST', '/webhooks', { body: hookBody(9443), key: 'grh-hook-2a9f' });
      const r = replayed('hook', await loop(sleeper(t), send, goRetryable, 4));
      if (typeof r.json?.data?.signingSecret !== 'string') throw new Error('the replay carries no signing key');
    },
  },
  {
    does: 'is an HttpClient with AddStandardResilienceHandler() whose GET /connections meets a 429 with Retry-After 40: the retry would wait past the handler’s 30 s total request timeout, so the call fails at 30 s, and the BackgroundService’s next tick reads again 5 s later',
    why: '"respect the wait time of the response": the handler gave the operation up inside the wait, and the next read is the next tick of a loop, not a retry the middleware made; whether the Retry-After binds the client\'s next operation on that route the interface does not say. The rules take the same read within 120 s of the Retry-After\'s end as its retry, sent 5 s early',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 40, count: 1 });
      refused('first', await get(t, a, '/connections'), 429);
      await sleeper(t)(35_000);
      ok('next tick', await get(t, a, '/connections'));
    },
  },
];
