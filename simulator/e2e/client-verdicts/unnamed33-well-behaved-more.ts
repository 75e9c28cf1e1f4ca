import { type Auth, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { ownToken } from './unnamed33-kit.ts';

/** A client-side load balancer's next backend, round robin: the stream's reconnect goes to another one. */
const backends = ['stream-a.internal', 'stream-b.internal'];

/**
 * Round 33, well-behaved token holders and stream readers: a cron of short jobs minutes apart, a fleet of
 * workers each with its own cached token, a renewal a little before expiry, a reader reconnecting through
 * a load balancer with one cursor (or ?cursor= where the balancer strips Last-Event-ID), one token for three
 * tenants beside a sibling cron, a renewal at exactly half the token's life, two cron entries a minute
 * apart each, 30 s tokens renewed 5 s before expiry. Each must get no `fail`.
 */
export const WELL_BEHAVED_33_MORE: UnnamedClient2[] = [
  // "a later run (a job started again) is no churn": a cron job every 5 minutes, each run its own process
  // and token, three reads 2 s apart.
  {
    does: 'is a */5 cron job whose runs each take a 15 min token and make three reads 2 s apart, six runs',
    pass: ['auth.token-reused'],
    async run(t) {
      for (let run = 0; run < 6; run++) {
        const a = auth(t, undefined, 900);
        for (let call = 0; call < 3; call++) {
          ok('read', await get(t, a, '/connections'));
          await sleeper(t)(2_000);
        }
        await sleeper(t)(294_000);
      }
    },
  },
  // "renewed, not extended": three worker processes, each with its own 15 min token cached and renewed 2
  // minutes before expiry, their calls interleaved every 10 s for 35 minutes.
  {
    does: 'is a fleet of three workers, each caching its own 15 min token renewed 2 minutes before expiry, their reads interleaved every 10 s for 35 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const workers = [0, 1, 2].map(() => ownToken(t, 900, 120));
      for (let tick = 0; tick < 210; tick++) {
        const worker = workers[tick % 3];
        if (!worker) throw new Error('no worker');
        ok('read', await get(t, worker(), '/connections'));
        await sleeper(t)(10_000 / 3);
      }
    },
  },
  // "renewed, not extended": a 5 min token renewed 45 s before expiry, a read every 15 s for 20 minutes.
  {
    does: 'renews its 5 min token 45 s before expiry, reading every 15 s for 20 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 300, 45);
      for (let tick = 0; tick < 80; tick++) {
        ok('read', await get(t, token(), '/connections'));
        await sleeper(t)(15_000);
      }
    },
  },
  // "(last number read)": the client keeps one lastEventId whichever backend served the stream; the
  // balancer sends the reconnect to the other backend, and the cursor goes with it.
  {
    does: 'reads its stream through a client-side round-robin balancer keeping one lastEventId for all backends: cut on stream-a after two messages, it resumes on stream-b from that id',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a: Auth = auth(t);
      let lastEventId: number | undefined;
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      for (const [i, backend] of backends.entries()) {
        const ids = await readStream(t, a, {
          ...(lastEventId === undefined ? {} : { cursor: lastEventId }),
          idleMs: i ? 400 : 1_500,
          headers: { 'x-forwarded-host': backend },
          ...(i ? {} : { onOpen: () => publish(t, a.tenant, 2) }),
        });
        lastEventId = ids.at(-1) ?? lastEventId;
        await sleeper(t)(500);
      }
    },
  },
  // "renewed, not extended", across tenants and processes: the integrator's web process holds one token
  // for its three tenants (renewed 2 minutes before expiry) while a sibling cron process, every 2 minutes,
  // takes a token of its own for one read.
  {
    does: 'is an integrator whose web process reads its three tenants in turn every 4 s on one 15 min token renewed 2 minutes before expiry, beside a cron process taking its own token every 2 minutes, for 20 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const web = ownToken(t, 900, 120, () => as(t, TENANTS[0], 900));
      for (let tick = 0; tick < 300; tick++) {
        const tenant = TENANTS[tick % 3] ?? TENANTS[0];
        ok(tenant, await get(t, { token: web().token, tenant }, '/connections'));
        if (tick % 30 === 15) ok('cron', await get(t, as(t, TENANTS[2], 900), '/connections'));
        await sleeper(t)(4_000);
      }
    },
  },
  // "renewed, not extended": a 10 min token renewed once 5 minutes or less are left (half its life, not
  // more than half), a read every 10 s for 25 minutes.
  {
    does: 'renews its 10 min token once 5 minutes or less are left (exactly half its life), reading every 10 s for 25 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 600, 300);
      for (let tick = 0; tick < 150; tick++) {
        ok('read', await get(t, token(), '/connections'));
        await sleeper(t)(10_000);
      }
    },
  },
  // "(last number read)": the balancer in front strips Last-Event-ID (it forwards no unknown headers), so
  // the reader sends the interface's other form, ?cursor=, which a query string carries through.
  {
    does: 'reconnects through a load balancer that strips Last-Event-ID, so it sends the last id read as ?cursor= after a cut',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, asQuery: true, idleMs: 400 });
    },
  },
  // "a later run (a job started again) is no churn": two cron entries of the same integration, each once a
  // minute (a sync at :00, a report at :12), each run a process taking its own token for two reads.
  {
    does: 'runs two cron entries once a minute each (a sync at :00, a report at :12 past), each run a new process taking its own 15 min token for two reads 1 s apart, for 10 minutes',
    pass: ['auth.token-reused'],
    async run(t) {
      for (let minute = 0; minute < 10; minute++) {
        for (const [path, gapMs] of [
          ['/connections', 12_000],
          ['/providers', 48_000],
        ] as const) {
          const a = auth(t, undefined, 900);
          ok(path, await get(t, a, path));
          await sleeper(t)(1_000);
          ok(path, await get(t, a, path));
          await sleeper(t)(gapMs - 1_000);
        }
      }
    },
  },
  // "Tokens are short-lived and are renewed": a 30 s token (the authorization server's choice) renewed 5 s
  // before expiry, a read every 2 s: a new token every 25 s, each with little of its life left.
  {
    does: 'holds 30 s tokens renewed 5 s before expiry, reading every 2 s for 3 minutes: a new token every 25 s',
    pass: ['auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 30, 5);
      for (let tick = 0; tick < 90; tick++) {
        ok('read', await get(t, token(), '/connections'));
        await sleeper(t)(2_000);
      }
    },
  },
];
