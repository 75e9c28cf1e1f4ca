import type { Target } from '../harness.ts';
import { type Auth, api, CONNECTION, fault, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import { fleet, pod, retried, type Sleep } from './unnamed5-fleet.ts';

/** A token with its expiry on the sandbox clock, as a client keeps it. */
interface Held extends Auth {
  expiresAt: number;
}
const issue = (t: Target, ttl?: number): Held => {
  const { token, tenant, expiresAt } = t.sandbox.issueToken(undefined, ttl);
  return { token, tenant, expiresAt: Date.parse(expiresAt) };
};

/**
 * Round 5, well-behaved, continued: token lifecycles across a fleet (renewal at expiry, on the first
 * 401, a shared token cache, a crash-looping pod), at-least-once queue redelivery and a backfill job.
 */
export const MORE_WELL_BEHAVED_5: UnnamedClient2[] = [
  // "Tokens are short-lived and are renewed, not extended.": one pod renews exactly when its token
  // expires, the other only when a call is refused with 401 ("request a new access token"), for 40 minutes.
  {
    does: 'runs two pods polling every 100 s for 40 minutes: one renews its 900 s token exactly at expiry, the other only on its first 401, then makes the refused call again',
    pass: ['auth.token-reused'],
    async run(t) {
      const clock = t.sandbox.state.clock;
      const atExpiry = async (sleep: Sleep) => {
        let held = issue(t);
        for (let i = 0; i < 24; i++) {
          if (clock.now() + 100_000 > held.expiresAt) {
            await sleep(held.expiresAt - clock.now());
            held = issue(t);
          }
          await api(t, held, 'GET', '/connections');
          await sleep(100_000);
        }
      };
      const on401 = async (sleep: Sleep) => {
        let held = issue(t);
        for (let i = 0; i < 24; i++) {
          let r = await api(t, held, 'GET', '/connections');
          if (r.status === 401) {
            held = issue(t);
            r = await api(t, held, 'GET', '/connections');
          }
          if (r.status !== 200) throw new Error(`poll ${i} answered ${r.status}`);
          await sleep(100_000);
        }
      };
      await fleet(t, [atExpiry, on401], [0, 20_000]);
    },
  },
  // "request an access token from the authorization server; send it as bearer token": three pods share
  // one token through a cache (Redis); the first pod refused with 401 renews it for all.
  {
    does: 'caches one token in a store shared by three pods; the first pod refused with 401 after expiry renews it for all, the others pick up the new one',
    pass: ['auth.token-reused'],
    async run(t) {
      const store: { held: Held } = { held: issue(t) };
      const paths = ['/connections', '/connectors', '/capabilities'];
      await fleet(
        t,
        paths.map((path) => async (sleep) => {
          for (let i = 0; i < 10; i++) {
            const mine = store.held;
            let r = await api(t, mine, 'GET', path);
            if (r.status === 401) {
              if (store.held === mine) store.held = issue(t);
              r = await api(t, store.held, 'GET', path);
            }
            if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
            await sleep(120_000);
          }
        }),
        [0, 30_000, 60_000],
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys: the same key with the same content
  // returns the same response again.": at-least-once delivery: worker A created the connection but
  // crashed before acknowledging the message; it is redelivered 30 s later to worker B, which sends
  // the create with the message's key and gets the first answer again (meta.replayed).
  {
    does: "runs queue workers with at-least-once delivery: worker A's create succeeded but A crashed before acknowledging; the message is redelivered 30 s later to worker B (running all along), which sends the create with the message's key and gets the replay",
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const [a, b] = [pod(t, 'queue-a', 81), pod(t, 'queue-b', 82)];
      // The producer stamps the key into the message: every delivery of it carries the same key.
      const message = { key: 'msg-7f3a9c-create', body: { ...CONNECTION, scopeLabel: 'Quay Kiosk' } };
      await fleet(
        t,
        [
          async () => {
            await api(t, a.auth, 'GET', '/connectors');
            const r = await api(t, a.auth, 'POST', '/connections', message);
            if (r.status !== 200) throw new Error(`the first delivery answered ${r.status}`);
            // The pod is OOM-killed here, before it deletes the message from the queue.
          },
          async (sleep) => {
            for (let i = 0; i < 4; i++) {
              await api(t, b.auth, 'POST', '/connections', {
                key: b.key(),
                body: { ...CONNECTION, scopeLabel: `Dock ${i}` },
              });
              await sleep(10_000);
            }
            const r = await api(t, b.auth, 'POST', '/connections', message);
            if (r.json?.meta?.replayed !== true) throw new Error(`the redelivery was not replayed (${r.status})`);
          },
        ],
        [500, 0],
      );
    },
  },
  // "respect the wait time of the response": a backfill job pages back through the audit log (each page
  // a new query, before= the last page's first number) while a writer pod keeps creating; one page gets
  // a 429 and is asked again after its Retry-After.
  {
    does: 'backfills the audit log in pages (limit 2, before=) while a writer pod keeps creating connections, waiting out a 429 on one page',
    pass: ['retry.respects-retry-after', 'idempotency.one-key-one-content'],
    async run(t) {
      const [writer, backfill] = [pod(t, 'writer-0', 91), pod(t, 'backfill-job', 92)];
      await fleet(
        t,
        [
          async (sleep) => {
            for (let i = 0; i < 10; i++) {
              await api(t, writer.auth, 'POST', '/connections', {
                key: writer.key(),
                body: { ...CONNECTION, scopeLabel: `Backfilled venue ${i}` },
              });
              await sleep(1_000);
            }
          },
          async (sleep) => {
            let before: number | undefined;
            for (let page = 0; page < 4; page++) {
              if (page === 2) fault(t, { kind: 'rate_limited', route: 'getAuditLog', retryAfterSeconds: 1, count: 1 });
              const q = `/audit-log?limit=2${before === undefined ? '' : `&before=${before}`}`;
              const r: Reply = await retried(
                sleep,
                () => api(t, backfill.auth, 'GET', q),
                (_n, x) => (x.status === 429 ? x.retryAfterMs + 80 : undefined),
              );
              if (r.status !== 200) throw new Error(`page ${page} answered ${r.status}`);
              before = Number(r.json?.data?.proof?.fromSeq ?? 1);
              if (before <= 1) break;
              await sleep(700);
            }
          },
        ],
        [0, 5_500],
      );
    },
  },
  // "Tokens are short-lived and are renewed, not extended.": a pod in CrashLoopBackOff fetches a token
  // at each start; the kubelet restarts it at once, then after 10 s and 20 s: each start is a new run,
  // not a token replaced within one. Its sibling keeps its token throughout.
  {
    does: 'has a pod in CrashLoopBackOff (restarted at once, then after 10 s and 20 s, a token fetched at each start) beside a sibling that keeps its token',
    pass: ['auth.token-reused'],
    async run(t) {
      const crashing = async (sleep: Sleep) => {
        for (const backoffMs of [0, 1_000, 10_000, 20_000]) {
          await sleep(backoffMs); // the kubelet's restart delay, plus the container start
          const run = pod(t, 'importer-6b4', 7);
          for (let i = 0; i < 4; i++) {
            await api(t, run.auth, 'GET', '/connectors');
            await sleep(1_000);
          }
        }
      };
      const sibling = async (sleep: Sleep) => {
        const p = pod(t, 'importer-9e1', 8);
        for (let i = 0; i < 30; i++) {
          await api(t, p.auth, 'GET', '/connections');
          await sleep(2_000);
        }
      };
      await fleet(t, [crashing, sibling], [0, 50]);
    },
  },
];
