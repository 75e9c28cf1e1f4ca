import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { afterRetryAfter, sample } from './unnamed15-kit.ts';

/**
 * Round 15 probes: edges of the rules (a 428's remedy, attempts counted through 429s, cursors written
 * with leading zeros or padded, a Service-Version a proxy doubled). The sentence deciding each is quoted.
 */
export const WELL_BEHAVED_PROBES_15: UnnamedClient2[] = [
  // "A missing key yields idempotency_required ... remedy: send the key": a ServiceNow flow whose first
  // create went out without the key (a misconfigured REST step), then sent with one after the 428.
  {
    does: 'is a ServiceNow flow whose create is refused 428 (no key), then sends it once more with an Idempotency-Key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Flow Designer Diner' };
      const first = await api(t, a, 'POST', '/connections', { body });
      if (first.status !== 428) throw new Error(`answered ${first.status}`);
      await sleeper(t)(300);
      ok('with key', await createWith(t, a, body, `snow-${uuid(seeded(1591))}`));
    },
  },
  // "resumes ... by sending Last-Event-ID (last number read)": a Crystal consumer formatting the id with
  // "%06d" for its log and sending that text: 000003 is the number 3.
  {
    does: 'is a Crystal SSE consumer sending Last-Event-ID zero-padded ("000003") after a cut after 3 messages',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_000);
      const padded = String(ids.at(-1) ?? 0).padStart(6, '0');
      const more = await readStream(t, a, {
        idleMs: 600,
        headers: { 'last-event-id': padded },
        onOpen: () => publish(t, a.tenant, 1),
      });
      if (more[0] !== 4) throw new Error(`resumed at ${more}`);
    },
  },
  // "Tokens are short-lived and are renewed ... Every access carries ... an expiry date": a Boomi process
  // scheduled every minute, each execution fetching its own 1 h token and making three calls 1 s apart.
  {
    does: 'is a Boomi process scheduled every minute, each execution fetching its own 1 h token for three reads 1 s apart',
    pass: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      for (let run = 0; run < 4; run++) {
        const a = auth(t, undefined, 3_600);
        for (const path of ['/providers', '/connectors', '/connections']) {
          ok(`run ${run} ${path}`, await get(t, a, path));
          await sleep(1_000);
        }
        await sleep(57_000);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": an SAP CPI JMS queue with exponential
  // redelivery (1, 2, 4 min) of a create answered 500 three times, always under its SAP_ApplicationID.
  {
    does: 'is an SAP CPI JMS queue redelivering a create through three 500s after 1, 2 and 4 minutes under its SAP_ApplicationID key',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const key = 'sap-app-id:PO4714-20261127-0004';
      const body = { ...CONNECTION, scopeLabel: 'CPI Exponential Eatery' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          (n) => 60_000 * 2 ** n,
          3,
        ),
      );
    },
  },
];

export const MISBEHAVING_PROBES_15: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": a ServiceNow retry policy with 5 retries that honours each
  // 429's Retry-After (1 s) exactly: six attempts, every wait the server's.
  {
    does: 'is a ServiceNow retry policy with 5 retries honouring each 429’s Retry-After (1 s): six attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 5 });
      ok(
        'read',
        await loop(sleeper(t), () => get(t, a, '/providers'), afterRetryAfter(seeded(1592), sample(seeded(1593))), 5),
      );
    },
  },
  // "respect the wait time of the response": an SAP CPI tenant with two worker nodes (a token each, both
  // busy); node A's create is answered 429 (Retry-After: 5), the JMS message goes back to the queue and
  // node B sends it again with its key 100 ms later.
  {
    does: 'is an SAP CPI tenant on two worker nodes (a token each): node A’s create gets a 429 (Retry-After: 5) and node B sends it again with the key 100 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const sleep = sleeper(t);
      const [nodeA, nodeB] = [auth(t), auth(t)];
      ok('A reads', await get(t, nodeA, '/providers'));
      ok('B reads', await get(t, nodeB, '/connectors'));
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const key = 'sap-app-id:PO4713-20261127-0003';
      const body = { ...CONNECTION, scopeLabel: 'CPI Two Node Canteen' };
      const first = await createWith(t, nodeA, body, key);
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleep(100);
      ok('B sends it', await createWith(t, nodeB, body, key));
      await sleep(1_000);
      ok('A reads on', await get(t, nodeA, '/capabilities'));
    },
  },
  // "unauthorized ... remedy: request a new access token" is not the remedy of a 429: a Refit handler
  // that takes any refusal for an expired token, fetches a new one and resends at once.
  {
    does: 'is a Refit DelegatingHandler that takes a 429 (Retry-After: 3) for an expired token, fetches a new one and resends at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      const r = await get(t, auth(t), '/connections');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(50);
      ok('resent', await get(t, auth(t), '/connections'));
    },
  },
];

export const AMBIGUOUS_PROBES_15: AmbiguousClient8[] = [
  // "A sample client makes up to 4 attempts": the same queue with no retry limit: a create under one key
  // attempted six times (1, 2, 4, 8, 16 minutes apart) through five 500s. Pinned with today's verdict: only the
  // 1-minute retry is taken for one (the others come more than 120 s after an answer), so the rules count
  // two attempts, though the key says all six are one operation.
  {
    does: 'is an SAP CPI JMS queue without a retry limit attempting one create six times under its key (1 to 16 minutes apart) through five 500s',
    why: 'calls more than 120 s after an answer are not looked at as retries (a load script repeats content as well); the key ties the six together, which the rules do not follow beyond that window',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 7_200);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const key = 'sap-app-id:PO4715-20261127-0005';
      const body = { ...CONNECTION, scopeLabel: 'CPI Unlimited Lunchroom' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, key),
          (n) => 60_000 * 2 ** n,
          5,
        ),
      );
    },
  },
  // "the same key with the same content returns the same response again ... use a new key for each new
  // operation": the CPI iFlow keyed by SAP_MessageProcessingLogID with a JMS retry interval of 3 minutes:
  // its redelivery of a create committed then answered 500 comes under a new key and makes a second connection.
  // Pinned with today's verdict: 180 s after the 500 lies beyond the 120 s a retry is looked for in.
  {
    does: 'is an SAP CPI iFlow keyed by SAP_MessageProcessingLogID with a 3-minute JMS retry interval, redelivering a create committed then answered 500 under a new key',
    why: 'a create under a new key 180 s after a 500 lies beyond the 120 s in which a retry is looked for (the trade-off against load scripts); the same client at 1 minute is caught',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(1596);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'CPI Slow Queue Bistro' };
      const mpl = () => `AGn${uuid(random).replaceAll('-', '')}`;
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, mpl()),
        () => 180_000,
        1,
      );
      if (r.status !== 200 || r.json?.meta?.replayed) throw new Error(`redelivery answered ${r.status}`);
    },
  },
  {
    does: 'sits behind an Istio sidecar whose EnvoyFilter appends Service-Version again, so every call carries "2026-07-01, 2026-07-01"',
    why: '"Sample calls send a header Service-Version with the version identifier": a proxy repeating the header makes it a list of the one published version; the interface shows no grammar for the header, the simulator refuses the list (400, unknown version) and the rules count it as no published version',
    judged: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const r = await api(t, a, 'GET', '/providers', { headers: { 'service-version': '2026-07-01, 2026-07-01' } });
      await api(t, a, 'GET', '/connectors', { headers: { 'service-version': '2026-07-01, 2026-07-01' } });
      return r.status;
    },
  },
  {
    does: 'resumes a cut stream with ?cursor=+3 (a Racket format string printing the sign)',
    why: '"cursor: integer, minimum 0": "+3" is 3 to a lenient parser and no integer to a strict one; the interface shows no grammar for the query value',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_000);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream?cursor=%2B${ids.at(-1) ?? 0}`, {
        headers: { 'service-version': '2026-07-01' },
      });
      await res.body?.cancel().catch(() => undefined);
      return res.status;
    },
  },
  {
    does: 'is a nightly Crystal job reading the stream, cut after 3 messages, coming back 6 minutes later without a cursor (it wants live messages only)',
    why: '"After an interruption, the client resumes without gaps": the rules look for a resumption within 5 minutes of the stream’s end; a consumer that deliberately starts live later misses what was sent between, which the interface neither allows nor forbids for a new run',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(360_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
