import { sleepOn } from '../harness.ts';
import { api, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { cenkalti } from './unnamed6-kit.ts';

/** Resolves once `onOpen` was called: a stream the client opened before the next step. */
const opened = () => {
  let open: () => void = () => {};
  return { wait: new Promise<void>((resolve) => (open = resolve)), onOpen: () => open() };
};

/**
 * Round 6, well-behaved stream consumers: "After an interruption, the client resumes without gaps by
 * sending Last-Event-ID or the query parameter cursor (last number read)." — across a proactive token
 * refresh, behind a proxy that cuts often, and through a restart with a Go SSE library's backoff.
 */
export const STREAM_CLIENTS_6: UnnamedClient2[] = [
  // "Tokens are short-lived and are renewed, not extended.": a 300 s token renewed at 80 % of its
  // lifetime (single-flight, in the background); the stream opened with the old token runs on until
  // the server closes it at that token's expiry, and is resumed at once with the new one.
  {
    does: 'renews its 300 s token at 80 % of its lifetime while polling every 60 s; its stream, opened with the old token, is closed at that token’s expiry and resumed at once with the new token from the last number read',
    pass: ['auth.token-reused', 'stream.resume-from-last-read'],
    async run(t) {
      const clock = t.sandbox.state.clock;
      const issue = () => {
        const x = t.sandbox.issueToken(undefined, 300);
        return { ...x, renewAt: clock.now() + 0.8 * (Date.parse(x.expiresAt) - clock.now()) };
      };
      let held = issue();
      const first = held;
      const o = opened();
      const reading = readStream(t, first, { idleMs: 5_000, onOpen: o.onOpen });
      await o.wait;
      publish(t, first.tenant, 2);
      for (let minute = 1; minute <= 5; minute++) {
        await sleepOn(t, 60_000);
        if (clock.now() >= held.renewAt) held = issue();
        const r = await api(t, held, 'GET', '/connections');
        if (r.status !== 200) throw new Error(`minute ${minute} answered ${r.status}`);
        if (minute === 3) publish(t, first.tenant, 1);
      }
      const ids = await reading; // closed by the server when the first token expired
      if (ids.length !== 3) throw new Error(`read ${ids.join(',')} on the first token`);
      if (held === first) throw new Error('the token was never renewed');
      await readStream(t, held, {
        cursor: ids.at(-1) ?? 0,
        idleMs: 400,
        onOpen: () => publish(t, first.tenant, 1),
      });
    },
  },
  // The same sentence: behind a corporate proxy that cuts long responses after a few messages, the
  // consumer reconnects five times within seconds (200-600 ms apart), alternating Last-Event-ID and
  // ?cursor= (the proxy's header allowlist is configured differently on its two nodes).
  {
    does: 'reads the stream behind a flaky proxy that cuts it five times after 1 to 3 messages, reconnecting 200-600 ms later each time from the last number read, alternating Last-Event-ID and ?cursor=',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const random = seeded(621);
      let last: number | undefined;
      let connection = 0;
      for (const n of [1, 3, 2, 1, 2]) {
        fault(t, { kind: 'stream_cut', afterMessages: n, count: 1, tenant: a.tenant });
        const from = last === undefined ? {} : { cursor: last, asQuery: connection % 2 === 1 };
        const ids = await readStream(t, a, { ...from, idleMs: 1_500, onOpen: () => publish(t, a.tenant, n) });
        if (ids.length !== n) throw new Error(`connection ${connection} read ${ids.join(',')}`);
        last = ids.at(-1);
        connection++;
        await sleepOn(t, 200 + Math.floor(random() * 400));
      }
      await readStream(t, a, { cursor: last ?? 0, idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // The same sentence, and "respect the wait time of the response": a Go consumer on r3labs/sse
  // reconnecting with cenkalti/backoff (500 ms, x1.5, randomisation 0.5), patched to sleep at least a
  // refusal's Retry-After, through a server restart (503s for 3 s); it resumes with Last-Event-ID.
  {
    does: 'is a Go r3labs/sse consumer reconnecting with cenkalti/backoff (500 ms, x1.5, ±50 %), at least a refusal’s Retry-After, through a 3 s server restart, then resuming with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const random = seeded(622);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 3_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 1_500, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1) ?? 0;
      const next = cenkalti(random);
      await sleepOn(t, next());
      for (let attempt = 0; attempt < 8; attempt++) {
        let refusedRetryAfter: number | undefined;
        await readStream(t, a, {
          cursor: last,
          idleMs: 500,
          onOpen: () => publish(t, a.tenant, 1),
          onRefused: (_s, ms) => (refusedRetryAfter = ms),
        });
        if (refusedRetryAfter === undefined) return;
        await sleepOn(t, Math.max(refusedRetryAfter, next()));
      }
      throw new Error('the stream never came back');
    },
  },
];
