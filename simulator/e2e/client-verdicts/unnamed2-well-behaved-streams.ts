import { sleepOn } from '../harness.ts';
import { auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { UnnamedClient2 } from './unnamed-kit.ts';

/** Well-behaved stream consumers of the second round: reconnect timing and resumption of unusual kinds. */
export const STREAM_CLIENTS: UnnamedClient2[] = [
  {
    does: "reconnects after a cut once the stream's retry: hint has passed, with Last-Event-ID",
    pass: ['stream.resume-from-last-read'],
    options: { stream: { retryMs: 400 } },
    async run(t) {
      const a = auth(t);
      let hint = 0;
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, {
        count: 2,
        onOpen: () => publish(t, a.tenant, 2),
        onRetry: (ms) => (hint = ms),
      });
      if (hint !== 400) throw new Error(`retry hint ${hint}`);
      await sleepOn(t, hint);
      await readStream(t, a, { cursor: ids.at(-1) ?? 0, idleMs: 500, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  {
    does: 'waits out a server restart (503 with Retry-After on the stream route), then resumes with ?cursor=',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 1_000, count: 1 });
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1) ?? 0;
      for (let attempt = 0; attempt < 4; attempt++) {
        let refused = 0;
        await readStream(t, a, {
          cursor: last,
          asQuery: true,
          idleMs: 500,
          onOpen: () => publish(t, a.tenant, 1),
          onRefused: (_s, ms) => (refused = ms || 1_000),
        });
        if (!refused) return;
        await sleepOn(t, refused);
      }
      throw new Error('the stream never came back');
    },
  },
  {
    does: 'restarts (a new process, a new token) and resumes the stream from the Last-Event-ID it persisted',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleepOn(t, 150);
      await readStream(t, auth(t), { cursor: ids.at(-1) ?? 0, idleMs: 500, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  {
    does: 'resumes sending both Last-Event-ID and ?cursor= with the same number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1) ?? 0;
      await sleepOn(t, 100);
      await readStream(t, a, {
        cursor: last,
        asQuery: true,
        headers: { 'last-event-id': String(last) },
        idleMs: 500,
        onOpen: () => publish(t, a.tenant, 1),
      });
    },
  },
  {
    does: 'reads the stream without a token, cut twice, resuming each time from its last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const tenant = auth(t).tenant;
      let last = 0;
      for (let round = 0; round < 3; round++) {
        if (round < 2) fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
        const ids = await readStream(t, undefined, {
          ...(round ? { cursor: last } : {}),
          count: 2,
          idleMs: 500,
          headers: { 'x-service-tenant': tenant },
          onOpen: () => publish(t, tenant, 2),
        });
        last = ids.at(-1) ?? last;
        await sleepOn(t, 100);
      }
    },
  },
  {
    does: 'consumes in batches: connects with its cursor every minute (sandbox clock), reads until idle, disconnects',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let last: number | undefined;
      for (let batch = 0; batch < 3; batch++) {
        const ids = await readStream(t, a, {
          ...(last === undefined ? {} : { cursor: last }),
          idleMs: 400,
          onOpen: () => publish(t, a.tenant, 2),
        });
        last = ids.at(-1) ?? last;
        await t.sandbox.control.advanceClock(60);
      }
    },
  },
  {
    does: 'is told its cursor expired (stream.reset), reads on, and after a cut resumes from what it read since',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const first = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      fault(t, { kind: 'cursor_expired', count: 1 });
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const after = await readStream(t, a, {
        cursor: first.at(-1) ?? 0,
        count: 2,
        onOpen: () => publish(t, a.tenant, 2),
      });
      await sleepOn(t, 100);
      await readStream(t, a, { cursor: after.at(-1) ?? 0, idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
];
