import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 16, streams of two processes of one client (a token each, both in use at the same time, which the
 * call rules take for two processes): a consumer starting fresh beside another's ended stream resumes
 * nothing, and a 429 one got is owed by it alone. These are well-behaved; the stream rules matched streams
 * across the two processes and failed them (wrong verdicts, fixed in session 20: processes.ts counts streams).
 */
export const WELL_BEHAVED_STREAMS_16: UnnamedClient2[] = [
  // "resumes without gaps ... (last number read)": two consumers of one client with a token each (a
  // dashboard and an audit exporter); the dashboard's stream is cut, the exporter starts fresh from 0 a
  // second later (it has read nothing), then the dashboard resumes from its last number.
  {
    does: 'runs two stream consumers with a token each: the first is cut after 3, the second starts fresh with ?cursor=0 1 s later, the first resumes from its last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const dashboard = auth(t, undefined, 3_600);
      const exporter = auth(t, undefined, 3_600);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, dashboard, { idleMs: 600, onOpen: () => publish(t, dashboard.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, exporter, { cursor: 0, asQuery: true, idleMs: 600 });
      await sleeper(t)(1_000);
      await readStream(t, dashboard, { cursor: last, idleMs: 600, onOpen: () => publish(t, dashboard.tenant, 1) });
    },
  },
  // The same, with the second consumer a service that starts up reading live messages only (no cursor: it
  // has read nothing to resume from), 1 s after the first consumer's stream was cut.
  {
    does: 'runs two stream consumers with a token each: the first is cut after 3, a second starts up 1 s later reading live messages only (no cursor), the first resumes from its last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const dashboard = auth(t, undefined, 3_600);
      const live = auth(t, undefined, 3_600);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, dashboard, { idleMs: 600, onOpen: () => publish(t, dashboard.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, live, { idleMs: 600, onOpen: () => publish(t, live.tenant, 1) });
      await sleeper(t)(1_000);
      await readStream(t, dashboard, { cursor: last, idleMs: 600, onOpen: () => publish(t, dashboard.tenant, 1) });
    },
  },
  // "respect the wait time of the response" is owed by the process that got the 429: an exporter's first
  // stream call is refused 429 (Retry-After: 5) and it waits 5 s; meanwhile a dashboard of the same client,
  // with its own token, opens its own first stream 1 s after that 429.
  {
    does: 'runs two stream consumers with a token each: the exporter’s stream call is refused 429 (Retry-After: 5) and it waits 5 s, the dashboard opens its own stream 1 s after that 429',
    pass: [],
    async run(t) {
      const exporter = auth(t, undefined, 3_600);
      const dashboard = auth(t, undefined, 3_600);
      fault(t, { kind: 'rate_limited', route: '/api/public/v1/stream', retryAfterSeconds: 5, count: 1 });
      let retryAfterMs = 0;
      await readStream(t, exporter, { idleMs: 400, onRefused: (_s, ms) => (retryAfterMs = ms) });
      if (retryAfterMs !== 5_000) throw new Error(`no 429: ${retryAfterMs}`);
      await sleeper(t)(1_000);
      await readStream(t, dashboard, { idleMs: 400, onOpen: () => publish(t, dashboard.tenant, 1) });
      await sleeper(t)(4_100);
      await readStream(t, exporter, { idleMs: 400, onOpen: () => publish(t, exporter.tenant, 1) });
    },
  },
];
