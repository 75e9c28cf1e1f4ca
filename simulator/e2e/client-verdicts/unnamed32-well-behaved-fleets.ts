import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { alloyScrape, clockOf, gatlingPace, shoryukenIntervals } from './unnamed32-kit.ts';

/**
 * Round 32, well-behaved fleets, schedulers and pollers that look like what the rules catch: several
 * Shoryuken processes each with its own token, a redelivery taken by a sibling with its key, a job per
 * event on Fly Machines, a GoodJob cron taking a token per run a minute apart, an Alloy-style scraper
 * whose scrapes time out, a Gatling load scenario creating at its pace through a 500.
 */
/** Reads of one kind per concurrent run, so two runs' calls never share content. */
const PATHS = ['/connections', '/providers', '/connectors'] as const;

export const WELL_BEHAVED_32_FLEETS: UnnamedClient2[] = [
  // "renewed, not extended", across processes: three Shoryuken processes at once, each its own token
  // (15 min), renewed 2 minutes before its expiry, started 5 minutes apart.
  {
    does: 'is three Shoryuken worker processes (started 5 minutes apart), each with its own 15 min token renewed 2 minutes before expiry, each reading every 30 s for 25 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const paths = ['/connections', '/providers', '/connectors'] as const;
      const procs = paths.map((path, i) => ({ path, from: i * 10, a: auth(t, undefined, 900), issued: 0 }));
      for (let half = 0; half < 50; half++) {
        for (const p of procs) {
          if (half < p.from) continue;
          if (half === p.from || clockOf(t) - p.issued >= 780_000) {
            p.a = auth(t, undefined, 900);
            p.issued = clockOf(t);
          }
          ok(p.path, await get(t, p.a, p.path));
        }
        await sleeper(t)(30_000);
      }
    },
  },
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key":
  // the message comes back after its 1 s visibility timeout to another live process, key in its body.
  {
    does: 'is two live Shoryuken processes (each its own token): A gets a 500 for a create and leaves the message; B receives it after retry_intervals[0] (1 s) and sends it with the key from the message',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const [a, b] = [auth(t), auth(t)];
      ok('a', await get(t, a, '/providers'));
      ok('b', await get(t, b, '/connectors'));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Shoryuken Shoyu' };
      const failed = await createWith(t, a, body, 'sqs-msg-0d4f-key');
      if (failed.status !== 500) throw new Error(`answered ${failed.status}`);
      await sleeper(t)(shoryukenIntervals[0] ?? 1_000);
      ok('b create', await createWith(t, b, body, 'sqs-msg-0d4f-key'));
      ok('a again', await get(t, a, '/providers'));
    },
  },
  // "a later run (a job started again)": each event starts a Fly Machine (`fly machine run --rm`) that
  // takes its own token, makes three calls and exits; events come 15-60 s apart, unevenly.
  {
    does: 'is a Fly Machine started per event (fly machine run --rm), each taking its own token for three calls 2 s apart and exiting, events 15-60 s apart',
    pass: [],
    async run(t) {
      const draw = seeded(3213);
      for (let job = 0; job < 8; job++) {
        const a = auth(t, undefined, 900);
        for (const path of ['/connections', '/providers', '/connectors']) {
          ok(path, await get(t, a, path));
          await sleeper(t)(2_000);
        }
        await sleeper(t)(15_000 + Math.round(draw() * 45_000));
      }
    },
  },
  // "two tokens in use at the same time are two processes": a Deployment scaled up one pod every 20 s,
  // each pod taking its own token and keeping it: new tokens at a steady cadence, none replacing another.
  {
    does: 'is a Deployment scaled up by one pod every 20 s (five pods), each pod fetching its own 15 min token at start and reading with it every 10 s',
    pass: [],
    async run(t) {
      const pods: ReturnType<typeof auth>[] = [];
      for (let tick = 0; tick < 16; tick++) {
        if (tick % 2 === 0 && pods.length < 5) pods.push(auth(t, undefined, 900));
        for (const [i, a] of pods.entries()) ok(`pod ${i}`, await get(t, a, i % 2 ? '/providers' : '/connections'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": a token server handing out 30 s tokens; the client renews
  // each 5 s before expiry (a new token every 25 s, steady, after successes, but none with half its life left).
  {
    does: 'is given 30 s tokens by its token server and renews each 5 s before it expires (a new token every 25 s), reading every 5 s for 5 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 30);
      let issued = clockOf(t);
      for (let tick = 0; tick < 60; tick++) {
        if (clockOf(t) - issued >= 25_000) {
          a = auth(t, undefined, 30);
          issued = clockOf(t);
        }
        ok('read', await get(t, a, '/connections'));
        await sleeper(t)(5_000);
      }
    },
  },
  // "two tokens in use at the same time are two processes": Spin component invocations start every 15 s
  // and run 20 s each (reads at 0, 10 and 20 s), each with its own token: they overlap, none replaces another.
  {
    does: 'is a Fermyon Spin app whose invocations start every 15 s and run 20 s (reads at 0, 10, 20 s), each taking its own token, so two run at once',
    pass: [],
    async run(t) {
      const runs: { a: ReturnType<typeof auth>; start: number }[] = [];
      for (let s = 0; s <= 150; s += 5) {
        if (s % 15 === 0 && s <= 105) runs.push({ a: auth(t, undefined, 900), start: s });
        for (const r of runs) {
          const age = s - r.start;
          if (age === 0 || age === 10 || age === 20)
            ok(`run ${r.start}`, await get(t, r.a, PATHS[(r.start / 15) % PATHS.length] ?? '/connections'));
        }
        await sleeper(t)(5_000);
      }
    },
  },
  // "a job started again": a GoodJob cron (`cron: "* * * * *"`) runs once a minute, each run taking a token.
  {
    does: 'is a GoodJob cron job running every minute, each run fetching its own token for two reads 1 s apart',
    pass: [],
    async run(t) {
      for (let run = 0; run < 10; run++) {
        const a = auth(t, undefined, 900);
        ok('connections', await get(t, a, '/connections'));
        await sleeper(t)(1_000);
        ok('providers', await get(t, a, '/providers'));
        await sleeper(t)(59_000);
      }
    },
  },
  // "A read polled at a steady cadence is polling": the scraper keeps its 15 s interval from each scrape's
  // start; three scrapes held past its 10 s timeout are given up, the next comes 5 s later.
  {
    does: 'is a Grafana Alloy-style scraper (scrape_interval 15s, scrape_timeout 10s) whose three scrapes in a row are held 12 s and given up at 10 s, keeping its interval',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 10; i++) {
        if (i === 4) fault(t, { kind: 'latency', route: 'listConnections', latencyMs: 12_000, count: 3 });
        const start = clockOf(t);
        await api(t, a, 'GET', '/connections', { timeoutMs: alloyScrape.timeoutMs });
        await sleeper(t)(Math.max(0, alloyScrape.intervalMs - (clockOf(t) - start)));
      }
    },
  },
  // "Creates at such a cadence, each under a key of its own, are a series of new operations": a Gatling
  // scenario creating one connection per iteration at pace(2, 4), through one 500.
  {
    does: 'is a Gatling scenario creating the same connection once per iteration at pace(2, 4) s, each under its own key, through one 500',
    pass: [],
    async run(t) {
      const a = auth(t);
      const pace = gatlingPace(seeded(3216));
      const body = { ...CONNECTION, scopeLabel: 'Gatling Gnocchi' };
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const start = clockOf(t);
        await createWith(t, a, body, `gatling-iter-${i}-5b1d`);
        await sleeper(t)(Math.max(0, pace() - (clockOf(t) - start)));
      }
    },
  },
];
