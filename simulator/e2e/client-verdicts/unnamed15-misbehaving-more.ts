import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { checkpointedStream } from './unnamed15-kit.ts';

/**
 * Round 15, more misbehaving clients (integration platforms, keys, tokens, browsers, streams): each breaks
 * one duty and must fail exactly that rule, with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_MORE_15: FaultyClient[] = [
  // "Sample calls send a header Service-Version": a Refit interface with [Headers("Service-Version:
  // 2026-07-01")] on its read methods only; the create method was added later without it.
  {
    does: 'is a .NET Refit interface with [Headers("Service-Version: …")] on its reads only, its create method added later without it',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connectors'));
      const body = { ...CONNECTION, scopeLabel: 'Refit Version Diner' };
      ok(
        'create',
        await api(t, a, 'POST', '/connections', { body, key: `refit-${uuid(seeded(1561))}`, version: null }),
      );
      ok('read', await get(t, a, '/connections'));
    },
  },
  // "the same key with the same content": an SAP CPI iFlow setting Idempotency-Key from
  // ${property.SAP_MessageProcessingLogID}, which is new for every processing run, so the JMS
  // redelivery a minute after a committed 500 carries another key.
  {
    does: 'is an SAP CPI iFlow keyed by SAP_MessageProcessingLogID (new per processing run), so its JMS redelivery after a committed 500 carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1562);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'CPI Mensa Rot' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, `AGn${uuid(random).replaceAll('-', '')}`),
        () => 60_000,
        1,
      );
      ok('redelivery', r);
    },
  },
  // "The same key with different content yields idempotency_conflict": an SAP CPI Groovy script building
  // the capabilities from a HashSet, whose iteration order differs between runs: the retry under the
  // same key sends the capabilities in another order (arrays keep their order: other content).
  {
    does: 'is an SAP CPI Groovy mapping building capabilities from a HashSet, so the retry under the same key lists them in another order',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'sap-app-id:PO4712-20261127-0002';
      const body = { ...CONNECTION, scopeLabel: 'CPI Kantine Blau' };
      const first = await createWith(t, a, body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(60_000);
      const again = await createWith(t, a, { ...body, capabilities: [...body.capabilities].reverse() }, key);
      if (again.status !== 409) throw new Error(`reordered retry answered ${again.status}`);
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": a Gleam Lustre
  // app compiled to JavaScript that fetches connections from the browser with the bearer token.
  {
    does: 'is a Gleam Lustre single-page app compiled to JavaScript calling GET /connections from the browser with the bearer token',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://venues.lustre-app.example', 'sec-fetch-mode': 'cors' };
      await api(t, a, 'GET', '/connections', { headers });
      await api(t, a, 'GET', '/connectors', { headers });
    },
  },
  // "Tokens are short-lived and are renewed, not extended": an Akka HTTP service spawning an actor per
  // request whose preStart fetches a fresh client-credentials token (1 h lifetime) every time.
  {
    does: 'is an Akka HTTP service spawning an actor per request whose preStart fetches a fresh 1 h token, a read every 2 s',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 10; i++) {
        ok(`read ${i}`, await get(t, auth(t, undefined, 3_600), i % 2 ? '/providers' : '/capabilities'));
        await sleeper(t)(2_000);
      }
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": an
  // OCaml consumer committing its position only every 5 messages, cut after 7: it resumes from 5 and
  // reads 6 and 7 again.
  {
    does: 'is an OCaml SSE consumer committing its position every 5 messages, cut after 7 and resuming from the committed 5',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const ids = await checkpointedStream(t, auth(t), {
        every: 5,
        cutAfter: 7,
        resume: (_last, committed) => committed,
      });
      if (ids[0] !== 6) throw new Error(`resumed at ${ids}`);
    },
  },
  // "After an interruption, the client resumes without gaps": an Erlang shotgun SSE client whose
  // reconnect opens the stream afresh, with neither Last-Event-ID nor ?cursor=.
  {
    does: 'is an Erlang shotgun SSE client reconnecting after a cut with neither Last-Event-ID nor ?cursor=',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(2_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "retry only after rate_limited and internal": a Boomi process whose Try/Catch retries any failed
  // document, including a 409 capability_denied of a connector whose capability is not booked.
  {
    does: 'is a Boomi process whose Try/Catch retries (10 s, 30 s) a create refused 409 capability_denied under the same key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const key = `boomi-denied-${uuid(seeded(1568))}`;
      const body = { ...CONNECTION, scopeLabel: 'Boomi Denied Deli', capabilities: ['orders.read', 'payroll.export'] };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        (n) => [10_000, 30_000][n] ?? 30_000,
        2,
        (x) => x.status !== 200,
      );
      if (r.json?.error?.code !== 'capability_denied') throw new Error(`answered ${r.status}`);
    },
  },
];
