import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import { held, sleepOn, type Target, untilHeld } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 7, cases the interface does not decide: the rules' verdict is stated (`judged`: the rules it
 * fails today), not claimed right or wrong. A change of rule that moves one of them must say why.
 */
export interface AmbiguousClient7 {
  does: string;
  /** Why the interface does not decide it. */
  why: string;
  judged: string[];
  options?: SandboxOptions;
  run(t: Target): Promise<void>;
}

/**
 * A consumer slower than its stream: the server sends a burst of `burst` messages at once; the
 * application takes `processMs` per message, and on SIGTERM finishes the message in hand and closes
 * after `processed` of them, the rest unprocessed in its buffer. Returns the last number processed.
 */
async function slowConsumer(t: Target, a: Auth, o: { burst: number; processed: number; processMs: number }) {
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream`, {
    headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': CURRENT_VERSION },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no stream');
  publish(t, a.tenant, o.burst);
  const ids: number[] = [];
  const decoder = new TextDecoder();
  let text = '';
  while (ids.length < o.burst) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const m of text.matchAll(/^id: (\d+)$/gm)) if (!ids.includes(Number(m[1]))) ids.push(Number(m[1]));
  }
  for (let i = 0; i < o.processed; i++) await sleepOn(t, o.processMs);
  await reader.cancel().catch(() => undefined);
  const last = ids[o.processed - 1];
  if (last === undefined) throw new Error(`read ${ids.join(',')}`);
  return last;
}

/** A keyed create its sender may abandon (the gateway aborting a subrequest). */
function abortable(t: Target, a: Auth, body: object, key: string) {
  const ctrl = new AbortController();
  const reply = t
    .fetch(`${t.baseUrl}/api/public/v1/connections`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.token}`,
        'x-service-tenant': a.tenant,
        'service-version': CURRENT_VERSION,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
      signal: ctrl.signal,
    })
    .then((res) => res.status)
    .catch(() => 0);
  return { reply, abort: () => ctrl.abort() };
}

export const AMBIGUOUS_7: AmbiguousClient7[] = [
  {
    does: 'is a backend-for-frontend that forwards the browser’s request headers (Origin among them) and adds its own server-side token',
    why: '"Access credentials stay in the partner’s backend and are never sent from a browser": the token never left the backend, yet on the wire the call is a browser’s (Authorization beside Origin); only the partner knows which it was',
    judged: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const fromBrowser = { origin: 'https://app.harbour-kitchens.example', 'x-forwarded-for': '203.0.113.9' };
      await api(t, a, 'GET', '/connections', { headers: fromBrowser });
    },
  },
  {
    does: 'is a React Native app calling the service directly with a token kept on the phone (no Origin: a native HTTP stack)',
    why: '"The interface is called from servers only": broken, but a native app sends nothing a server does not; no black-box rule can see it (as a receiver comparing with === in round 6)',
    judged: [],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { 'user-agent': 'okhttp/4.12.0' } });
      await api(t, a, 'GET', '/providers', { headers: { 'user-agent': 'okhttp/4.12.0' } });
    },
  },
  {
    does: 'is a multi-tenant backend whose key is the venue’s slug ("venue-main-street"), sent by two tenants with different content',
    why: 'the interface never says whether keys are per tenant ("use a new key for each new operation"); the service and the rules take the same key text in two tenants as two keys, so it passes',
    judged: [],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3600);
      const key = 'venue-main-street';
      for (const [tenant, scopeLabel] of [
        ['harbour-kitchens', 'Main Street Harbour'],
        ['alpine-bistro', 'Main Street Alpine'],
      ] as const) {
        const r = await api(t, { ...one, tenant }, 'POST', '/connections', {
          body: { ...CONNECTION, scopeLabel },
          key,
        });
        if (r.status !== 200) throw new Error(`${tenant} answered ${r.status}`);
      }
    },
  },
  {
    does: 'is a Temporal activity whose start-to-close timeout (10 s) fires while worker A’s create is still held; attempt 2 runs on worker B 1 s later with the same key, while A’s request stays open',
    why: 'the same key sent again while the first call is still open is "a timeout raced against a request left open" within one process, but here another process sends it; the interface says only that the same key with the same content returns the same response',
    judged: [],
    async run(t) {
      const workerA = auth(t);
      const workerB = auth(t);
      await api(t, workerB, 'GET', '/capabilities');
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 20_000, count: 1 });
      const key = 'temporal:onboard-venue-9902:activity-1';
      const body = { ...CONNECTION, scopeLabel: 'Start To Close Cafe' };
      const before = held(t);
      const first = api(t, workerA, 'POST', '/connections', { body, key });
      await untilHeld(t, before);
      await sleeper(t)(11_000);
      await api(t, workerB, 'POST', '/connections', { body, key });
      await sleeper(t)(10_000);
      await first;
    },
  },
  {
    does: 'consumes the stream slower than it arrives (1 s per message): a burst of 6 lands in its buffer, SIGTERM comes after it processed 4, it closes and the next version resumes from 4',
    why: '"resumes without gaps by sending … cursor (last number read)": the application read 4; messages 5 and 6 were in its socket buffer, never handed to it. The rules count messages sent as read unless the client closed within 1 s of the burst, so resuming from 4 reads 5 and 6 again; nothing is lost or doubled for the application',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const last = await slowConsumer(t, auth(t), { burst: 6, processed: 4, processMs: 1_000 });
      await sleepOn(t, 5_000);
      await readStream(t, auth(t), { cursor: last, idleMs: 400 });
    },
  },
  {
    does: 'is an Airflow task on the default retry_delay (300 s) with retries=10: eleven attempts of one create under its key over 55 minutes',
    why: '"A sample client makes up to 4 attempts" describes a sample; retries 5 minutes apart fall outside the rules’ 120 s retry window, so each is judged a new call under a key already used (with the same content: allowed), not a retry sequence',
    judged: [],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 11 });
      const body = { ...CONNECTION, scopeLabel: 'Default Delay Deli' };
      for (let tryNumber = 1; tryNumber <= 11; tryNumber++) {
        await api(t, auth(t), 'POST', '/connections', { body, key: 'airflow.menu_sync.scheduled__2026-11-26.create' });
        if (tryNumber < 11) await sleeper(t)(300_000);
      }
    },
  },
  {
    does: 'is an Airflow task on the default retry_delay (300 s) that mints its key inside the task: its create is committed and answered 500, and the retry 5 minutes later goes out under a new key (a second connection)',
    why: '"Modifying calls are repeat-safe through idempotency keys" asks a retry to keep its key, and this is a retry of one task instance; on the wire it is the same as a CronJob’s next run creating anew under its own key (round 6, well-behaved), and beyond the 120 s window the rules take it as a new operation',
    judged: [],
    async run(t) {
      const random = seeded(771);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Duplicate Risk Diner' };
      await api(t, auth(t), 'POST', '/connections', { body, key: `airflow-${uuid(random)}` });
      await sleeper(t)(302_000);
      await api(t, auth(t), 'POST', '/connections', { body, key: `airflow-${uuid(random)}` });
    },
  },
  {
    does: 'is a GraphQL gateway with one service token passing two people’s identical createConnection mutations (a venue template), each under its own clientMutationId, while the service is slow; one person closes the page and the gateway aborts that subrequest',
    why: '"use a new key for each new operation": two people, two operations, two keys; but one copy under another key sent while the first was awaited, then abandoned, is exactly what a hedge under a new key looks like on the wire',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(772);
      const body = { ...CONNECTION, scopeLabel: 'Template Venue' };
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 3_000, count: 2 });
      const before = held(t);
      const first = abortable(t, a, body, `gql-${uuid(random)}`);
      await untilHeld(t, before);
      await sleeper(t)(200);
      const second = api(t, a, 'POST', '/connections', { body, key: `gql-${uuid(random)}` });
      await untilHeld(t, before, 2);
      await sleeper(t)(500);
      first.abort();
      await first.reply;
      await sleeper(t)(3_000);
      await second;
    },
  },
  {
    does: 'is a consumer whose stream is cut after 3 messages and that comes back 6 minutes later (a slow deploy) without any cursor, reading live only',
    why: '"After an interruption, the client resumes without gaps": a gap of 6 minutes of messages; but beyond the rules’ 5-minute reconnect window a stream opened without a cursor cannot be told from a new consumer that wants live messages only',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1, tenant: a.tenant });
      await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleepOn(t, 60_000);
      publish(t, a.tenant, 2); // missed
      await sleepOn(t, 300_000);
      await readStream(t, a, { idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
