import { sleepOn, type Target } from '../harness.ts';
import { api, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';

/** Resolves once `onOpen` was called: a stream the client opened before the next step. */
const opened = () => {
  let open: () => void = () => {};
  return { wait: new Promise<void>((resolve) => (open = resolve)), onOpen: () => open() };
};

/**
 * Resolves once the server has seen `n` of the tenant's streams end: a stream the client closed is
 * over for the server only when it notices the close (a transport matter, real time; at most 10 s), and
 * messages published before that would still be sent on it.
 */
async function untilEnded(t: Target, tenant: string, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  const ended = () =>
    (t.sandbox.verdicts?.observations.buckets({ tenant }) ?? []).reduce(
      (sum, b) => sum + b.streams.slice().filter((s) => s.endedAt > 0).length,
      0,
    );
  while (ended() < n) {
    if (Date.now() > deadline) throw new Error(`${n} ended stream(s) expected`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Round 3, well-behaved stream consumers: a batch run hours later, and two consumers of one client. */
export const STREAM_CLIENTS_3: UnnamedClient2[] = [
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID or the query
  // parameter cursor (last number read)." Hours later the cursor is past retention: the stream says so.
  {
    does: 'resumes a nightly batch 3 h later with an expired cursor, resyncs on stream.reset, then resumes a cut from what it read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const night = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await t.sandbox.control.advanceClock(3 * 3600);
      const b = auth(t); // the next night's run, a new token
      fault(t, { kind: 'cursor_expired', count: 1 });
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const morning = await readStream(t, b, {
        cursor: night.at(-1) ?? 0,
        count: 2,
        onOpen: () => publish(t, b.tenant, 2),
      });
      await api(t, b, 'GET', '/connections'); // the resync the reset asks for
      await sleepOn(t, 150);
      await readStream(t, b, { cursor: morning.at(-1) ?? 0, idleMs: 400, onOpen: () => publish(t, b.tenant, 1) });
    },
  },
  // "After an interruption, the client resumes ... (last number read)"; "Tokens are short-lived and are
  // renewed": the server closes a tenant stream when its token expires, and the client comes back with
  // a new token and its last number.
  {
    does: 'has its stream closed when its 60 s token expires and resumes with a new token from its last number',
    pass: ['stream.resume-from-last-read', 'auth.token-reused'],
    async run(t) {
      const a = auth(t, undefined, 60);
      await api(t, a, 'GET', '/connections');
      const o = opened();
      const reading = readStream(t, a, { idleMs: 5_000, onOpen: o.onOpen });
      await o.wait;
      publish(t, a.tenant, 2);
      await t.sandbox.control.advanceClock(61); // the token expires: the server closes the stream
      const ids = await reading;
      if (ids.length !== 2) throw new Error(`read ${ids.join(',')} before the close`);
      const b = auth(t, undefined, 600);
      await api(t, b, 'GET', '/connections');
      await readStream(t, b, { cursor: ids.at(-1) ?? 0, idleMs: 400, onOpen: () => publish(t, b.tenant, 1) });
    },
  },
  // The same sentence, per reading: "resumes without gaps by sending Last-Event-ID or the query
  // parameter cursor (last number read)". Two consumers of one OAuth client each read the stream for
  // themselves; each resumes from the last number *it* read.
  {
    does: 'runs two consumers under one client: a live worker cut after 6 messages and a batch job every 6 min, each resuming from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      fault(t, { kind: 'stream_cut', afterMessages: 6, count: 1 });
      const [o1, o2] = [opened(), opened()];
      const live = readStream(t, a, { count: 6, onOpen: o1.onOpen });
      await o1.wait;
      const firstBatch = readStream(t, a, { count: 3, onOpen: o2.onOpen });
      await o2.wait;
      publish(t, a.tenant, 3);
      const batchRead = (await firstBatch).at(-1) ?? 0;
      await untilEnded(t, a.tenant, 1); // the batch job is gone before anything more is published
      // Six minutes later the batch job runs again, just after the live worker's stream was cut.
      await t.sandbox.control.advanceClock(360);
      publish(t, a.tenant, 3);
      const liveRead = (await live).at(-1) ?? 0;
      await readStream(t, a, { cursor: batchRead, count: 3 });
      await sleepOn(t, 200);
      await readStream(t, a, { cursor: liveRead, idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
