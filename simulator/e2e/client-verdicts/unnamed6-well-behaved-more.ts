import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fleet, retried, type Sleep, transient } from './unnamed5-fleet.ts';
import { pythonBackoffExpo, sleeper, tokenBucket } from './unnamed6-kit.ts';

interface Connection {
  scopeLabel?: string;
}
const labels = (json: unknown): string[] =>
  ((json as { data?: { connections?: Connection[] } } | undefined)?.data?.connections ?? []).map(
    (c) => c.scopeLabel ?? '',
  );

/**
 * Round 6, well-behaved, continued: how the programs run — a cron job that exits, a serverless function
 * cold-starting per event, a batch importer with a shared client-side rate limiter, a CLI run twice by
 * a person, and an asyncio program of concurrent tasks.
 */
export const MORE_WELL_BEHAVED_6: UnnamedClient2[] = [
  // "request an access token ... send it as bearer token" and "use a new key for each new operation": a
  // Kubernetes CronJob (*/5 * * * *) that starts, fetches a token, syncs and exits. A create answered
  // 500 ends the run; the next run, 5 minutes later, finds the venue still missing and creates it anew:
  // past the retry window, a new operation under a new key.
  {
    does: 'is a CronJob every 5 minutes that fetches a token, lists connections, creates the missing venue under a fresh key and exits; its create answered 500 in one run is made again by the next run',
    pass: ['auth.token-reused', 'idempotency.one-key-one-content'],
    async run(t) {
      const sleep = sleeper(t);
      const random = seeded(611);
      const wanted = ['Night Market A', 'Night Market A', 'Night Market B', 'Night Market B'];
      for (let run = 0; run < 4; run++) {
        const job = auth(t);
        const list = await api(t, job, 'GET', '/connections');
        if (list.status !== 200) throw new Error(`run ${run}: list answered ${list.status}`);
        const venue = wanted[run] ?? '';
        if (!labels(list.json).includes(venue)) {
          if (run === 2) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
          const body = { ...CONNECTION, scopeLabel: venue };
          await api(t, job, 'POST', '/connections', { body, key: `cron-${uuid(random)}` });
        }
        await sleep(5 * 60_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": a serverless function cold-starts for events minutes
  // apart (its container reaped in between) and fetches a token at each cold start; a burst of four
  // events at once runs in four containers side by side, a token each. The event's message id is the key.
  {
    does: 'is a serverless function cold-starting per event (a new token each time): events 7 and 13 minutes apart, then a burst of four events in four concurrent containers, the message id as the key',
    pass: ['auth.token-reused', 'idempotency.one-key-one-content'],
    async run(t) {
      const sleep = sleeper(t);
      const random = seeded(612);
      const invoke = async (event: number) => {
        const cold = auth(t); // module init: a token for this container
        await api(t, cold, 'GET', '/connectors?capability=orders.read');
        const body = { ...CONNECTION, scopeLabel: `Pop-up ${event}` };
        const r = await api(t, cold, 'POST', '/connections', { body, key: `sqs-msg-${uuid(random)}` });
        if (r.status !== 200) throw new Error(`event ${event} answered ${r.status}`);
      };
      for (const [event, gapMs] of [
        [0, 7 * 60_000],
        [1, 13 * 60_000],
        [2, 10 * 60_000],
      ] as const) {
        await invoke(event);
        await sleep(gapMs);
      }
      await Promise.all([3, 4, 5, 6].map(invoke));
    },
  },
  // "When exceeded, the service answers 429 with a wait time. Clients retry with growing intervals":
  // a batch importer with eight workers sharing one token and one client-side token bucket (4 calls/s);
  // the worker that gets a 429 holds the whole bucket until Retry-After and retries its row with its key.
  {
    does: 'is a batch importer with concurrency 8 sharing one token and one client-side token bucket (4/s); a 429 pauses the bucket for Retry-After and its row is retried with its key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(613);
      const clock = t.sandbox.state.clock;
      const bucket = tokenBucket(() => clock.now(), 4);
      const rows = Array.from({ length: 24 }, (_, i) => ({
        key: `import-2026-11-26-row-${String(i).padStart(3, '0')}`,
        body: { ...CONNECTION, scopeLabel: `Imported venue ${i}` },
      }));
      const worker = async (sleep: Sleep) => {
        for (let row = rows.shift(); row; row = rows.shift()) {
          if (row.key.endsWith('010'))
            fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
          const job = row;
          const r = await retried(
            sleep,
            async () => {
              await bucket.take(sleep);
              return api(t, a, 'POST', '/connections', job);
            },
            (_n, x) => {
              if (x.status !== 429) return undefined;
              bucket.pauseUntil(clock.now() + x.retryAfterMs);
              return x.retryAfterMs + Math.floor(random() * 250);
            },
          );
          if (r.status !== 200) throw new Error(`${job.key} answered ${r.status}`);
        }
      };
      await fleet(
        t,
        Array.from({ length: 8 }, () => worker),
      );
    },
  },
  // "the same key with the same content returns the same response again": a CLI keeps its token in a
  // file and its pending create's key under a hash of the arguments; a person runs the command, sees
  // "internal (request id …)", and runs it again 8 s later: the same key, the same body.
  {
    does: 'is a CLI run twice in a row by a person: the first create answers 500, the person runs the same command 8 s later and the CLI sends the key it stored under the arguments’ hash; then lists twice',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure', 'idempotency.one-key-one-content'],
    async run(t) {
      const cached = auth(t, undefined, 3_600); // ~/.config/ncs/token.json
      const sleep = sleeper(t);
      const pending = new Map<string, string>(); // ~/.cache/ncs/pending/<args hash>
      const random = seeded(614);
      const cli = async (args: string[]) => {
        if (args[0] === 'list') return api(t, cached, 'GET', '/connections');
        const body = { ...CONNECTION, scopeLabel: args[1] ?? '' };
        const hash = args.join('\u0000');
        const key = pending.get(hash) ?? `cli-${uuid(random)}`;
        pending.set(hash, key);
        const r = await api(t, cached, 'POST', '/connections', { body, key });
        if (r.status === 200) pending.delete(hash);
        return r;
      };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const first = await cli(['create', 'Corner Deli']);
      if (first.status !== 500) throw new Error(`the first run answered ${first.status}`);
      await sleep(8_000); // reads the error, presses ↑ and Enter
      const second = await cli(['create', 'Corner Deli']);
      if (second.status !== 200) throw new Error(`the second run answered ${second.status}`);
      await sleep(5_000);
      await cli(['list']);
      await sleep(3_000);
      await cli(['list']);
    },
  },
  // "Clients retry with growing intervals and slight random spread": an asyncio program gathering four
  // tasks, each read decorated with backoff.on_exception(backoff.expo, max_tries=4, full_jitter) and
  // backoff.on_predicate(backoff.runtime) sleeping exactly a 429's Retry-After.
  {
    does: 'is a Python asyncio program gathering four aiohttp reads, each under @backoff.on_exception(expo, full_jitter, max_tries=4) and @backoff.on_predicate(runtime) for a 429’s Retry-After',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(615);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
      const task = (path: string) => async (sleep: Sleep) => {
        const expo = pythonBackoffExpo(random);
        let errors = 0;
        const r = await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (_n, x) => (x.status === 429 ? x.retryAfterMs : transient(x) ? expo(errors++) : undefined),
        );
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      };
      await fleet(t, ['/connectors', '/capabilities', '/providers', '/connections'].map(task), [0, 3, 6, 9]);
    },
  },
];
