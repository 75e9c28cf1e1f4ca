import { api, auth, fault, READS, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { heartbeatReconnects, juliaBackoff } from './unnamed12-kit.ts';

/**
 * Round 12, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_12: AmbiguousClient8[] = [
  {
    does: 'is a C++ libcurl client with CURLOPT_TIMEOUT 2 s that, after its own timeout on a slow read, retries at once, twice (no wait, no answer ever came)',
    why: '"retry only after rate_limited and internal ... growing intervals": a client-side timeout is no answer of the service; the guidance names no schedule for it, and an immediate retry after a timeout is common practice (the timeout itself was the wait)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listConnections', latencyMs: 3_000, count: 3 });
      for (let i = 0; i < 3; i++) {
        const r = await api(t, a, 'GET', '/connections', { timeoutMs: 2_000 });
        if (r.status !== 0) throw new Error(`attempt ${i} answered ${r.status}`);
      }
    },
  },
  {
    does: 'is a Julia job on HTTP.jl with retries = 3 (ExponentialBackOff 50 ms, x3, jitter 0.1: waits near 50, 150, 450 ms), three reads each through three 500s',
    why: '"growing intervals and slight random spread": its ±10 % jitter spreads the 50 and 150 ms waits by only a few ms, within the 20/40 ms the rule allows for a busy machine, so retry.spread reads it as none; "slight" has no number',
    judged: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const w = juliaBackoff(seeded(1220));
      for (const [route, path] of READS.slice(2, 5)) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await loop(sleep, () => get(t, a, path), w, 3));
        await sleep(5_000);
      }
    },
  },
  {
    does: 'retries a read refused by a gateway 503 with Retry-After: 5 after its own 1 s and 2 s (growing, with a draw), ignoring the 503’s Retry-After',
    why: '"Retry-After (recommended wait in seconds)" is listed with the rate limits and the 429; a 503 is no status of the interface, so whether its Retry-After binds is not said (the README judges a 503’s Retry-After only by retry.growing-waits)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listCapabilities', retryAfterSeconds: 5, count: 2 });
      const random = seeded(1294);
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/capabilities'),
          (n) => 1_000 * 2 ** n + Math.floor(random() * 250),
          3,
        ),
      );
    },
  },
  {
    does: 'reads the stream, is down 6 minutes for a deploy, and reconnects without a cursor (its position lived in memory)',
    why: '"After an interruption, the client resumes without gaps": the interface gives no time limit, but the rules judge a reconnect only within 5 minutes of a stream’s end (later it may be a new consumer starting), so the gap passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, {
        idleMs: 600,
        onOpen: () => {
          for (let i = 0; i < 3; i++) t.sandbox.control.trigger({ event: 'order.created', tenant: a.tenant });
        },
      });
      if (ids.length !== 3) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(6 * 60_000);
      await readStream(t, auth(t), { idleMs: 400 });
    },
  },
  {
    does: 'is a receiver behind a framework that answers 200 to everything, logging forged and stale deliveries with {"accepted": false} in the body and dropping them unprocessed',
    why: '"rejects the delivery when the difference ... exceeds 300 seconds": it never acts on a forged delivery, but its 2xx tells the sender the delivery was taken; the interface says to reject, not how, and the check reads any 2xx as acceptance',
    judged: ['webhooks.receiver-verifies'],
    run: (t) => checkReceiver(t, { verify: () => true }),
  },
  {
    does: 'closes the stream by a sub-second idle timeout right after each burst of three and reconnects with the id its async handlers finished, one behind the last number read',
    why: '"resumes ... cursor (last number read)": the client read the burst’s last message, but a client that closes within 1 s of a burst may have left its tail unread in a buffer (a Kafka-style poller), so the rules accept any cursor within the burst; the same client closing 10 s after the burst fails',
    judged: [],
    async run(t) {
      const a = auth(t);
      await heartbeatReconnects(t, a, {
        rounds: 3,
        perRound: 3,
        idleSandboxMs: 0,
        between: sleeper(t),
        resume: (last) => (last === undefined ? undefined : last - 1),
      });
    },
  },
];
