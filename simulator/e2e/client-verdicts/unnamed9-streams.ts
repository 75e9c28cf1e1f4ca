import { sleepOn } from '../harness.ts';
import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';

/**
 * Round 9, well-behaved stream readers: a Deno EventSource replaced after a restart, a Temporal
 * activity resuming from its heartbeat on another worker, a bash curl loop, a Go consumer sending an
 * empty Last-Event-ID beside its persisted ?cursor=. Each must get no `fail` (the last one gets one
 * today: a wrong verdict, reported, the test kept as it should be).
 */
export const STREAMS_9: UnnamedClient2[] = [
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor": a Deno server's
  // EventSource gives up on a restart's 503; the app waits its Retry-After and opens a new EventSource
  // whose URL carries ?cursor= with the lastEventId it kept.
  {
    does: 'is a Deno server whose EventSource fails on a restart’s 503; it waits the Retry-After and opens a new EventSource with ?cursor= set to the lastEventId it kept',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 3, downMs: 2_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 1_500, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1) ?? 0;
      for (let attempt = 0; attempt < 6; attempt++) {
        let refused: number | undefined;
        await sleepOn(t, 1_000);
        const more = await readStream(t, a, {
          cursor: last,
          asQuery: true,
          idleMs: 500,
          onOpen: () => publish(t, a.tenant, 2),
          onRefused: (_s, ms) => (refused = ms),
        });
        if (refused === undefined) {
          if (more[0] !== last + 1) throw new Error(`resumed at ${more[0]}`);
          return;
        }
        await sleepOn(t, refused);
      }
      throw new Error('never resumed');
    },
  },
  // "resumes without gaps": a Temporal activity consuming the stream records the last number read in
  // its heartbeat details; its worker dies, and the retry on another worker (its own token) resumes
  // from the heartbeat with Last-Event-ID after the heartbeat timeout.
  {
    does: 'is a Temporal activity reading the stream that heartbeats the last number read; its worker dies after four messages and the retry on another worker (own token) resumes from the heartbeat details 10 s later',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const workerA = auth(t);
      const heartbeat = (await readStream(t, workerA, { count: 4, onOpen: () => publish(t, workerA.tenant, 4) })).at(
        -1,
      );
      await sleepOn(t, 10_000);
      const workerB = auth(t);
      const more = await readStream(t, workerB, {
        cursor: heartbeat ?? 0,
        idleMs: 500,
        onOpen: () => publish(t, workerB.tenant, 2),
      });
      if (more[0] !== (heartbeat ?? 0) + 1) throw new Error(`resumed at ${more[0]}`);
    },
  },
  // A bash consumer: `curl -N` piped into `while read`, the last `id:` written to a file; the outer
  // `while true` loop reconnects after `sleep 1` with -H "Last-Event-ID: $(cat last_id)".
  {
    does: 'is a bash loop reading the stream with curl -N, writing each id: to a file, and reconnecting after sleep 1 with Last-Event-ID from that file, through three cuts',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let lastIdFile: number | undefined;
      for (let run = 0; run < 4; run++) {
        if (run < 3) fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
        const ids = await readStream(t, a, {
          ...(lastIdFile === undefined ? {} : { cursor: lastIdFile }),
          idleMs: 800,
          onOpen: () => publish(t, a.tenant, 2),
        });
        lastIdFile = ids.at(-1) ?? lastIdFile;
        await sleepOn(t, 1_000);
      }
    },
  },
  // "resumes ... by sending Last-Event-ID or the query parameter cursor": a Go consumer that always sets
  // the Last-Event-ID header from its in-memory last id, empty in a new process, and puts the persisted
  // cursor in the URL. An empty Last-Event-ID is no Last-Event-ID (the SSE standard resets the id).
  {
    does: 'is a Go consumer that always sets Last-Event-ID from memory (empty in a fresh process) beside ?cursor= from its persisted store; after a cut the restarted process (own token) resumes with ?cursor=3 and Last-Event-ID: (empty)',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const first = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const persisted = (await readStream(t, first, { idleMs: 800, onOpen: () => publish(t, first.tenant, 3) })).at(-1);
      await sleepOn(t, 2_000);
      const restarted = auth(t);
      const more = await readStream(t, restarted, {
        cursor: persisted ?? 0,
        asQuery: true,
        headers: { 'last-event-id': '' },
        idleMs: 500,
        onOpen: () => publish(t, restarted.tenant, 2),
      });
      if (more[0] !== (persisted ?? 0) + 1) throw new Error(`resumed at ${more[0]}`);
    },
  },
];
