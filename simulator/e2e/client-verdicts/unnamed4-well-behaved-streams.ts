import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { eventSource } from './unnamed4-event-source.ts';

const STREAM = '/api/public/v1/stream';

/** Round 4, well-behaved stream consumers: a browser EventSource on the public stream, a Kafka-style consumer. */
export const STREAM_CLIENTS_4: UnnamedClient2[] = [
  // "Public endpoints (no authentication): ... GET /api/public/v1/stream." and "After an interruption,
  // the client resumes without gaps by sending Last-Event-ID": a browser's EventSource does that by
  // itself, after the stream's retry: time, and sends no credentials ("never sent from a browser").
  {
    does: 'is a browser EventSource on the public stream without credentials: cut twice, it reconnects after retry: with Last-Event-ID by itself',
    pass: ['stream.resume-from-last-read'],
    options: { stream: { retryMs: 400 } },
    async run(t) {
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      const status = ['degraded', 'operational'] as const;
      const run = await eventSource(t, STREAM, {
        reconnects: 2,
        onOpen: () => {
          for (const s of status) void t.sandbox.control.setStatus({ status: s });
        },
      });
      if (run.ids.length !== 6) throw new Error(`read ${run.ids.join(',')}`);
    },
  },
  // The same sentence: a page reloaded opens `new EventSource('/stream?cursor=<saved>')`; after a cut
  // the browser reconnects to that same URL (its cursor now stale) adding Last-Event-ID with the newer
  // number. The service reads Last-Event-ID first, so it resumes without gaps.
  {
    does: 'is a reloaded page whose EventSource URL carries ?cursor=<saved>, then reconnects after a cut to the same URL plus a newer Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    options: { stream: { retryMs: 300 } },
    async run(t) {
      const publishTwo = () => {
        void t.sandbox.control.setStatus({ status: 'degraded' });
        void t.sandbox.control.setStatus({ status: 'operational' });
      };
      const first = await eventSource(t, STREAM, { reconnects: 0, onOpen: publishTwo });
      const saved = first.ids.at(-1) ?? 0;
      await t.sandbox.control.advanceClock(60); // the page is reloaded a minute later
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const second = await eventSource(t, `${STREAM}?cursor=${saved}`, { reconnects: 1, onOpen: publishTwo });
      if (second.ids.length !== 4 || second.ids[0] !== saved + 1) throw new Error(`read ${second.ids.join(',')}`);
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": a
  // Kafka-style consumer (max.poll.records 3, commitSync of the last record processed) closes its
  // connection after each batch and polls again from what it committed: the last number it read. The
  // server may have sent more before the close reached it; those the consumer never read.
  {
    does: 'consumes like a Kafka consumer: max.poll.records 3, commits the last record it read, closes, and polls again from it',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      let committed: number | undefined;
      let published = false;
      for (let poll = 0; poll < 4; poll++) {
        // The consumer takes at most max.poll.records from what the connection brought and closes it.
        const fetched = await readStream(t, a, {
          ...(committed === undefined ? {} : { cursor: committed }),
          count: 3,
          idleMs: 400,
          onOpen: () => {
            if (!published) publish(t, a.tenant, 8);
            published = true;
          },
        });
        const records = fetched.slice(0, 3);
        if (!records.length) break;
        committed = records.at(-1);
      }
      if (committed !== 8) throw new Error(`committed ${committed}`);
    },
  },
];
