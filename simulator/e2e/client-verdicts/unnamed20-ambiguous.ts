import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { conductorExponential } from './unnamed20-kit.ts';

/**
 * Round 20, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_20: AmbiguousClient8[] = [
  {
    does: 'is an Android app whose WorkManager job (PKCE token kept in EncryptedSharedPreferences) reads the connections from the phone, no Origin',
    why: '"The interface is called from servers only" against "Authorization code with PKCE: mobile apps and clients without a safe secret (mandatory for public clients)": the flow table foresees mobile apps holding a token, the first sentence says servers only; the rule judges browsers (Origin, Fetch Metadata), and an app sends neither',
    judged: [],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { 'user-agent': 'okhttp/4.12.0' } });
    },
  },
  {
    does: 'is a Conductor workflow whose HTTP task (EXPONENTIAL_BACKOFF, key from workflow.workflowId) retries a create after a 503, then a second workflow run for the same venue gets a new workflowId and creates again 3 min later',
    why: '"use a new key for each new operation": the operator re-ran the workflow after the first run failed; whether a re-run is the same operation (had a 503 come after a commit, the connection would now exist twice) or a new one the interface does not say, and 3 minutes is beyond the 120 s in which the rules look for a retry',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Conductor Curry House' };
      await loop(sleeper(t), () => createWith(t, a, body, 'conductor-wf-4a1f77c2-create'), conductorExponential, 3);
      await sleeper(t)(180_000);
      await createWith(t, a, body, 'conductor-wf-9e03bb51-create');
    },
  },
  {
    does: 'is a Kestra flow polling the connections every 10 s that, answered 429 (Retry-After 15), skips the next run (20 s) and goes on at 10 s',
    why: '"respect the wait time of the response": the 429 is waited out (20 s > 15 s), so the rules pass it; but a wait of 20 s after a 429 and 10 s after successes is a cadence broken by the failure, not polling kept through it, and the interface gives pollers no duty beyond the wait',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      for (let run = 0; run < 7; run++) {
        if (run === 3) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 15, count: 1 });
        const r = await get(t, a, '/connections');
        await sleeper(t)(r.status === 429 ? 20_000 : 10_000 + Math.round(seeded(2090 + run)() * 50));
      }
    },
  },
  {
    does: 'is a resumer whose URL template keeps a stale ?cursor= (the first id it read) while its SSE library sends the right Last-Event-ID after a cut',
    why: '"by sending Last-Event-ID or the query parameter cursor (last number read)": the interface names both but not which wins when they differ; one of the two numbers is the last read, the other is not, and what the client reads next depends on the service\'s choice',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const first = ids[0];
      const last = ids.at(-1);
      if (first === undefined || last === undefined || ids.length < 3) throw new Error(`read ${ids.length}`);
      await sleeper(t)(1_000);
      await readStream(t, a, {
        cursor: first,
        asQuery: true,
        headers: { 'last-event-id': String(last) },
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 1),
      });
    },
  },
  {
    does: 'is an admin UI whose operator clicks "retry" 90 s after the backend’s four attempts of a create (500s) failed, the same key sent a fifth time',
    why: '"A sample client makes up to 4 attempts": the backend stopped at four; the fifth attempt is a person\'s decision, under the same key so it cannot double the connection; the rules count five attempts of one operation',
    judged: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Manual Retry Mezze' };
      const key = 'admin-ui-create-manual-retry-mezze';
      const random = seeded(2095);
      await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        (n) => 500 * 2 ** n + Math.floor(random() * 250),
        3,
      );
      await sleeper(t)(90_000);
      await createWith(t, a, body, key);
    },
  },
  {
    does: 'is a client retrying a gateway 503 that says Retry-After: 10 after its own 1 s, then 2 s (growing, but shorter than asked)',
    why: '"respect the wait time of the response" stands in the rate_limited (429) row; a 503 from a gateway is no code of the interface, so whether its Retry-After binds is not said; the rules judge a 503\'s Retry-After by no rule, and growing waits pass',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listCapabilities', retryAfterSeconds: 10, count: 2 });
      await loop(
        sleeper(t),
        () => get(t, a, '/capabilities'),
        (n) => 1_000 * 2 ** n + 37 * n,
        3,
      );
    },
  },
  {
    does: 'is a Kestra flow on a 30 s Schedule trigger whose task makes three attempts (1 s, 2 s) of a read; two runs in a row meet 500s, six attempts in 33 s',
    why: '"A sample client makes up to 4 attempts": each run stops at three, but the next scheduled run reads the same thing 27 s after the last failure, inside the 120 s in which the rules look for a retry; whether a scheduled run is a new operation the interface does not say',
    judged: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listConnections', count: 6 });
      for (let run = 0; run < 3; run++) {
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          (n) => 1_000 * 2 ** n,
          2,
        );
        // The trigger fires every 30 s; the run spent 3 s waiting between its attempts.
        await sleeper(t)(27_000);
      }
    },
  },
  {
    does: 'is a Lambda run by an EventBridge schedule every 10 minutes that opens the stream live-only (no cursor) and reads for its run, after a run cut short by a stream_cut',
    why: '"After an interruption, the client resumes without gaps": messages published between runs are never read, but the rule looks for a reconnect within 5 minutes of a stream\'s end (beyond it a fresh consumer starting live cannot be told from a reconnect), so the next run, 10 minutes later, is judged a new consumer',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      publish(t, a.tenant, 3);
      await sleeper(t)(600_000);
      await readStream(t, auth(t), { idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
