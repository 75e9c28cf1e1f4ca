import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { failsafeBackoff } from './unnamed25-kit.ts';

/**
 * Round 25, well-behaved clients whose correct behaviour looks like a violation: two workers on one token both
 * failing the same read at once, the remedy of a 428, two purpose-scoped tokens used side by side, a consumer
 * resuming after a deploy outside the reconnect window, waits equal only because the server set them, a create
 * abandoned and booked again later as a new operation.
 */
export const EDGES_WELL_BEHAVED_25: UnnamedClient2[] = [
  // "Processes sharing one token are one process": two Failsafe workers read the same path at once with one
  // cached token; both are refused 500, and each retries once after its own draw.
  {
    does: 'runs two Failsafe workers on one cached token reading connectors at once, both refused 500, each retrying once after its own draw',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      const first = await Promise.all([get(t, a, '/connectors'), get(t, a, '/connectors')]);
      if (first.some((r) => r.status !== 500)) throw new Error(`answered ${first.map((r) => r.status)}`);
      const [w1, w2] = [failsafeBackoff(seeded(2511))(0), failsafeBackoff(seeded(2512))(0)].sort((x, y) => x - y);
      await sleeper(t)(w1 ?? 0);
      ok('worker 1', await get(t, a, '/connectors'));
      await sleeper(t)((w2 ?? 0) - (w1 ?? 0));
      ok('worker 2', await get(t, a, '/connectors'));
    },
  },
  // "idempotency_required ... remedy: send the key": a create sent without a key (a misconfigured Flurl
  // template) is refused 428, and the same body goes again at once with a key: the remedy, not a repeat.
  {
    does: 'sends a create without a key, is refused 428 idempotency_required, and sends the same body at once with a key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Keyless Kedgeree' };
      const r = await api(t, a, 'POST', '/connections', { body });
      if (r.status !== 428) throw new Error(`answered ${r.status}`);
      ok('with key', await createWith(t, a, body, 'remedy-428-5a7c0d1e'));
    },
  },
  // "Service accounts: one account per tenant and purpose": one OAuth client holds two tokens for one tenant,
  // a reporting one and a provisioning one, each 1 h, used side by side every 30 s for ten minutes.
  {
    does: 'holds two purpose-scoped tokens of one client for one tenant (reporting and provisioning), used side by side every 30 s for ten minutes',
    pass: [],
    async run(t) {
      const reporting = auth(t, undefined, 3_600);
      const provisioning = auth(t, undefined, 3_600);
      for (let i = 0; i < 20; i++) {
        ok('report', await get(t, reporting, i % 2 ? '/connections' : '/providers'));
        ok('provision', await get(t, provisioning, i % 2 ? '/capabilities' : '/connectors'));
        await sleeper(t)(30_000);
      }
    },
  },
  // "resumes without gaps ... (last number read)": a consumer reads four messages and closes its stream for a
  // deploy; the new pod (a new token) resumes 7 minutes later from the cursor it persisted.
  {
    does: 'closes its stream after four messages for a deploy; the new pod (new token) resumes 7 minutes later from the persisted cursor',
    pass: [],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, { count: 4, onOpen: () => publish(t, a.tenant, 4) });
      const cursor = ids.at(-1) ?? 0;
      await sleeper(t)(420_000);
      const b = auth(t);
      const next = await readStream(t, b, { cursor, idleMs: 600, onOpen: () => publish(t, b.tenant, 1) });
      if (next[0] !== cursor + 1) throw new Error(`resumed at ${next[0]} after ${cursor}`);
    },
  },
  // "respect the wait time of the response": three reads each refused twice 429 with Retry-After 2, each wait
  // exactly 2 s: equal waits, but the server's, not the client's schedule.
  {
    does: 'waits exactly Retry-After 2 s after each of two 429s, on three reads (equal waits, all server-set)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 2 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => r.retryAfterMs,
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
  // "use a new key for each new operation": a create fails 500 twice and the job gives up; ten minutes later
  // an operator books the same venue again, a new operation under a new key.
  {
    does: 'gives up a create after two 500s under its key; ten minutes later an operator books the same venue under a new key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Abandoned Arancini' };
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'job-1-9f3e21c0'),
        failsafeBackoff(seeded(2516)),
        1,
      );
      if (r.status !== 500) throw new Error(`answered ${r.status}`);
      await sleeper(t)(600_000);
      ok('rebooked', await createWith(t, a, body, 'operator-2-6d1b0ae4'));
    },
  },
  // "After an interruption, the client resumes without gaps": one process reads its stream, cut after three,
  // resumes; the second cut after two more, resumes again, each time from the last number read.
  {
    does: 'is a backon-driven consumer cut twice (after three, then after two), resuming each time after its own jittered wait',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const one = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(1_300);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const two = await readStream(t, a, { cursor: one.at(-1) ?? 0, count: 2, onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(2_700);
      const three = await readStream(t, a, {
        cursor: two.at(-1) ?? 0,
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 1),
      });
      if (three[0] !== (two.at(-1) ?? 0) + 1) throw new Error(`resumed at ${three[0]}`);
    },
  },
  // "retry only after rate_limited and internal" concerns retries: a dashboard polling every 20 s keeps its
  // cadence through two 500s; its reads after the failures are the next polls, not waits that fail to grow.
  {
    does: 'polls the connections list every 20 s and keeps its cadence through two 500s (a read at a fixed cadence, not a retry sequence)',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        await get(t, a, '/connections');
        await sleeper(t)(20_000);
      }
    },
  },
];
