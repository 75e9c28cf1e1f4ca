import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { HERDS_AMBIGUOUS_34 } from './unnamed34-herds.ts';
import { runsWithOwnToken, streamWithoutVersion } from './unnamed34-kit.ts';
import { takeOverStream } from './unnamed34-probes-more.ts';

/**
 * Round 34, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_34: AmbiguousClient8[] = [
  {
    does: 'is a consumer pod whose stream is cut after seven and which dies; a sibling pod (its own token, in use) opens the stream 2 s later without a cursor, live',
    why: '"resumes without gaps" against a second consumer that only wants live messages (a dashboard, round 23): with no cursor there is nothing on the wire that says it takes over the dead pod\'s reading; the rule matches a sibling\'s stream to no ended stream of another process whose token was in use (not-observed)',
    judged: [],
    run: (t) => takeOverStream(t, () => undefined),
  },
  {
    does: 'sends Service-Version on its REST calls but opens its stream with an SSE library given only the Authorization header (no Service-Version)',
    why: '"Sample calls send a header Service-Version" against the stream being listed among the public endpoints (no authentication): the rule judges authenticated calls and does not count the stream call, even one carrying a bearer token; whether a stream call owes the header the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connectors'));
      const status = await streamWithoutVersion(t, a);
      if (status !== 200) throw new Error(`stream answered ${status}`);
    },
  },
  {
    does: 'is three CronJobs of one client (orders, menu, payouts), each every minute at :00, :20 and :40, each run a process taking its own token and reading once, nine runs',
    why: '"a later run (a job started again) is no churn" against "renewed, not extended": each job is a minute from its own last run, but one client\'s tokens come every 20 s, each dropped with 14 minutes left; on the wire it is one process taking a token every 20 s (round 31: churn), and three jobs cannot share a token without a shared cache',
    judged: ['auth.token-reused'],
    run: (t) =>
      runsWithOwnToken(
        t,
        sleeper(t),
        Array.from({ length: 8 }, () => 20_000),
      ),
  },
  {
    does: 'is an EventSource polyfill opened on ?cursor=2 (a saved checkpoint): after a cut at 5 it reconnects to the same URL (still ?cursor=2) and adds Last-Event-ID: 5',
    why: '"by sending Last-Event-ID or the query parameter cursor": which one wins when both are sent and differ the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      publish(t, a.tenant, 2);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { cursor: 2, asQuery: true, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: 2, asQuery: true, headers: { 'last-event-id': String(last) }, idleMs: 400 });
    },
  },
  {
    does: 'fetches a new 15-minute token for each order lookup, lookups 25 s and 44 s apart in turn, eight lookups',
    why: '"renewed, not extended" against "a later run is no churn": every token is dropped with 14 minutes left, as round 33\'s 20/35 s process did, but its spacings average 34.5 s, above the 30 s a cadence is taken at, and none is 45 s or more; whether that is one process churning or lookups started apart the interface does not say',
    judged: [],
    run: (t) => runsWithOwnToken(t, sleeper(t), [25_000, 44_000, 25_000, 44_000, 25_000, 44_000, 25_000]),
  },
  {
    does: 'is a systemd timer (OnUnitActiveSec=40s, no RandomizedDelaySec) starting a oneshot service that takes its own token and reads once, seven runs',
    why: '"a later run (a job started again) is no churn" against "renewed, not extended": a job every 40 s drops a token with 14 minutes left each time; the rules take new tokens every 30 s or sooner as churn and a scheduler\'s minute as runs, and 40 s falls between',
    judged: [],
    run: (t) => runsWithOwnToken(t, sleeper(t), [40_000, 40_000, 40_000, 40_000, 40_000, 40_000]),
  },
  {
    does: 'gets a 500 on a create, lists the connections to see that none was made, and sends the same body under a new key 2 s later',
    why: '"the same key with the same content" against "use a new key for each new operation": the client checked that the failed create left nothing, so the new key opens no second connection, but the service cannot see the check as the reason; the rule takes the same content after a failure under a new key as a retry without its key',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Reconciled Ramen' };
      const first = await createWith(t, a, body, 'recon-1');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      const list = await get(t, a, '/connections');
      const made = JSON.stringify(list.json ?? {}).includes('Reconciled Ramen');
      if (made) throw new Error('the failed create was made');
      await sleeper(t)(1_000);
      await createWith(t, a, body, 'recon-2');
    },
  },
  {
    does: 'reads three messages until the server ends the stream cleanly, then reconnects 6 minutes later (its next cron run) without a cursor',
    why: '"After an interruption, the client resumes without gaps": a clean end read as "done" and a new run 6 minutes later may be a new reading; the rule looks for a resume within 5 minutes of the end, so a later reconnect without a cursor is not judged',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(360_000);
      await readStream(t, a, { idleMs: 400 });
    },
  },
  ...HERDS_AMBIGUOUS_34,
];
