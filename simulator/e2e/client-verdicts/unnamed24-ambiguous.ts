import { createHmac, timingSafeEqual } from 'node:crypto';
import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { delayedJob } from './unnamed24-kit.ts';

/**
 * Round 24, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_24: AmbiguousClient8[] = [
  {
    does: 'fixes a create refused 400 (a one-character scopeLabel) and sends the corrected body under the same key',
    why: '"The same key with different content yields idempotency_conflict": whether a key whose call was refused before it ran (400) is spent is not said; Stripe-style services keep no result for a validation error, and the service here accepts the corrected body, while the rule counts any other content under one key',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'fix-and-resend-8c2d1e70';
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'x' }, key);
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(2_000);
      await createWith(t, a, { ...CONNECTION, scopeLabel: 'Fixed Falafel' }, key);
    },
  },
  {
    does: 'is a consumer that had received 3 messages but processed 2 when the server cut the stream, resuming from the last processed (2)',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": reading the third again leaves no gap, and "read" may mean processed; the rule counts every message the server sent as read when the server ended the stream',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.length}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: ids[1] ?? 0, idleMs: 600 });
    },
  },
  {
    does: 'runs two workers on one cached token: worker A’s read is refused 429 (Retry-After 2); worker B, not told, sends the same read 100 ms later; A retries after 2 s',
    why: '"respect the wait time of the response" and rate limits "per access": B never got the 429 but shares its access; the rule takes processes sharing a token for one process, so B\'s read is A\'s retry inside the Retry-After',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      const first = await get(t, a, '/connectors');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(100);
      ok('worker B', await get(t, a, '/connectors'));
      await sleeper(t)(1_900);
      ok('worker A', await get(t, a, '/connectors'));
    },
  },
  {
    does: 'is a receiver that verifies in constant time with a 300 s window but answers 200 {"ignored":true} to forged and stale deliveries, discarding them',
    why: '"rejects the delivery when the difference ... exceeds 300 seconds": it never acts on them, but answers 2xx; whether "rejects" means a refusing status is not said, and the receiver check wants anything but 2xx',
    judged: ['webhooks.receiver-verifies'],
    async run(t) {
      const verify = (raw: Buffer, h: string | undefined, secret: string) => {
        const parts = Object.fromEntries((h ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
        const ts = parts.t ?? '';
        const mine = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex');
        const v1 = parts.v1 ?? '';
        const good =
          /^\d+$/.test(ts) &&
          Math.abs(Date.now() / 1000 - Number(ts)) <= 300 &&
          v1.length === mine.length &&
          timingSafeEqual(Buffer.from(v1), Buffer.from(mine));
        // Discarded either way; the sender only ever sees 200.
        void good;
        return true;
      };
      return checkReceiver(t, { verify });
    },
  },
  {
    does: 'is a Delayed::Job with the default max_attempts (25) whose read fails four times: the fifth attempt comes 261 s after the fourth',
    why: '"A sample client makes up to 4 attempts": a fifth attempt 4 minutes on is past the 120 s in which the rules take a call for a retry, so it reads as a new call; whether a job rescheduled minutes later is the same operation the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), delayedJob, 4));
    },
  },
  {
    does: 'is an integrator serving two tenants with one token, keying each tenant’s create of the day with the same text (connect-2026-11-27) for its own content',
    why: '"use a new key for each new operation": these are two operations under one key text, but in two tenants; the interface does not say whether keys are scoped per tenant (the service scopes them so, and round 1 counts the same text in two tenants as two keys), so the rule fails nothing',
    judged: [],
    async run(t) {
      const token = t.sandbox.issueToken('network-integrator').token;
      for (const tenant of ['harbour-kitchens', 'alpine-bistro']) {
        const a = { token, tenant };
        ok(
          tenant,
          await createWith(t, a, { ...CONNECTION, scopeLabel: `Daily venue of ${tenant}` }, 'connect-2026-11-27'),
        );
        await sleeper(t)(1_000);
      }
    },
  },
  {
    does: 'goes on to its next, different read 100 ms after a 429 (Retry-After 5) on another, and retries the refused read after 5 s',
    why: '"Rate limits are configured per access ... When exceeded, the service answers 429 with a wait time": whether the wait holds the whole access or only the refused call is not said; the rule judges only the refused call\'s retry, so the other read inside the wait passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const first = await get(t, a, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(100);
      ok('next read', await get(t, a, '/connectors'));
      await sleeper(t)(4_900);
      ok('retry', await get(t, a, '/providers'));
    },
  },
];
