import { sleepOn, type Target } from '../harness.ts';
import { type Auth, auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';

/** Resolves once `onOpen` was called: a stream the client opened before the next step. */
const opened = () => {
  let open: () => void = () => {};
  return { wait: new Promise<void>((resolve) => (open = resolve)), onOpen: () => open() };
};

/**
 * Opens `n` streams for one tenant one after another (each open before the next), stream i cut by the
 * server after i + 1 messages, then publishes n messages: the shards' readings, each ending at another
 * number.
 */
async function shardsCut(t: Target, a: Auth, n: number): Promise<number[][]> {
  const readings: Promise<number[]>[] = [];
  for (let i = 0; i < n; i++) {
    fault(t, { kind: 'stream_cut', afterMessages: i + 1, count: 1, tenant: a.tenant });
    const o = opened();
    readings.push(readStream(t, a, { idleMs: 1_500, onOpen: o.onOpen }));
    await o.wait;
  }
  publish(t, a.tenant, n);
  return Promise.all(readings);
}

/**
 * Round 7 stream consumers. "After an interruption, the client resumes without gaps by sending
 * Last-Event-ID or the query parameter cursor (last number read)."
 */
export const STREAMS_7: UnnamedClient2[] = [
  // A consumer that persists the last number it read (Redis SET after each message); a rolling
  // deploy stops the old version gracefully (it closes its stream on SIGTERM), and the new version,
  // 45 s later with a token of its own, resumes with ?cursor= from the persisted number.
  {
    does: 'persists the last number read after each message; a rolling deploy stops it (it closes its stream on SIGTERM) and the new version, 45 s later with its own token, resumes with ?cursor= from the persisted number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const store = new Map<string, number>();
      const v1 = auth(t);
      const o = opened();
      const reading = readStream(t, v1, { count: 4, idleMs: 1_500, onOpen: o.onOpen });
      await o.wait;
      publish(t, v1.tenant, 4);
      for (const id of await reading) store.set(`cursor:${v1.tenant}`, id);
      await sleepOn(t, 20_000);
      publish(t, v1.tenant, 2); // while no version reads
      await sleepOn(t, 25_000);
      const v2 = auth(t);
      const cursor = store.get(`cursor:${v2.tenant}`);
      if (cursor === undefined) throw new Error('nothing persisted');
      const ids = await readStream(t, v2, { cursor, asQuery: true, idleMs: 400 });
      if (ids[0] !== cursor + 1) throw new Error(`resumed at ${ids[0]} after ${cursor}`);
    },
  },
  // Many parallel streams: six shards of one consumer, each on its own connection, cut by the server
  // at six different points; each reconnects 150 ms later from its own last number (three with
  // Last-Event-ID, three with ?cursor=).
  {
    does: 'opens six parallel streams (shards of one consumer) that the server cuts after 1 to 6 messages; each reconnects 150 ms later from its own last number, half with Last-Event-ID and half with ?cursor=',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const readings = await shardsCut(t, a, 6);
      await sleepOn(t, 150);
      const resumed = readings.map((ids, i) =>
        readStream(t, a, { cursor: ids.at(-1) ?? 0, asQuery: i % 2 === 1, idleMs: 500 }),
      );
      await sleepOn(t, 50);
      publish(t, a.tenant, 1);
      await Promise.all(resumed);
    },
  },
  // A multi-tenant consumer with one token for three tenants, persisting the cursor per tenant
  // (`cursor:<tenant>`), all three cut at once by a restart of the stream and resumed each from its own.
  {
    does: 'consumes the streams of three tenants with one token, persisting a cursor per tenant; each cut after another count and resumed from its own tenant’s cursor',
    pass: ['stream.resume-from-last-read'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3600);
      const tenants = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
      const cursors = new Map<string, number>();
      await Promise.all(
        tenants.map(async (tenant, i) => {
          const a = { ...one, tenant };
          fault(t, { kind: 'stream_cut', afterMessages: i + 2, count: 1, tenant });
          const o = opened();
          const reading = readStream(t, a, { idleMs: 1_500, onOpen: o.onOpen });
          await o.wait;
          publish(t, tenant, i + 2);
          cursors.set(`cursor:${tenant}`, (await reading).at(-1) ?? 0);
        }),
      );
      await sleepOn(t, 200);
      await Promise.all(
        tenants.map((tenant) =>
          readStream(t, { ...one, tenant }, { cursor: cursors.get(`cursor:${tenant}`) ?? 0, idleMs: 400 }),
        ),
      );
    },
  },
  // Many more parallel streams: twenty shards cut at twenty different points, each resuming its own
  // (forty stream connections of one client and tenant in all).
  {
    does: 'opens twenty parallel streams that the server cuts after 1 to 20 messages; each reconnects 150 ms later from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const readings = await shardsCut(t, a, 20);
      await sleepOn(t, 150);
      const resumed = readings.map((ids) => readStream(t, a, { cursor: ids.at(-1) ?? 0, idleMs: 500 }));
      await sleepOn(t, 50);
      publish(t, a.tenant, 1);
      await Promise.all(resumed);
    },
  },
];

/** Round 7 stream consumers that break the sentence above. */
export const STREAM_FAULTS_7: FaultyClient2[] = [
  // The same six shards, but the reconnect logic lives in the shard coordinator, which hands the
  // cursor only to shard 0; the other five reconnect without one (a gap each).
  {
    does: 'opens six parallel streams cut at different points, but only shard 0 reconnects with its last number; the coordinator gives the other five no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const readings = await shardsCut(t, a, 6);
      await sleepOn(t, 150);
      const resumed = readings.map((ids, i) =>
        readStream(t, a, { ...(i === 0 ? { cursor: ids.at(-1) ?? 0 } : {}), idleMs: 500 }),
      );
      await sleepOn(t, 50);
      publish(t, a.tenant, 1);
      await Promise.all(resumed);
    },
  },
  // A multi-tenant consumer persisting one cursor for all tenants (`cursor` without the tenant): each
  // tenant resumes from whichever tenant wrote last, here a number one tenant never reached and another
  // passed long ago.
  {
    does: 'consumes the streams of three tenants with one token but persists a single cursor for all of them, so each tenant resumes from the number the last tenant wrote',
    fails: ['stream.resume-from-last-read'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const one = auth(t, 'network-integrator', 3600);
      const tenants = ['harbour-kitchens', 'alpine-bistro', 'lakeside-cafes'];
      let shared = 0;
      for (const [i, tenant] of tenants.entries()) {
        fault(t, { kind: 'stream_cut', afterMessages: 2 + 2 * i, count: 1, tenant });
        const o = opened();
        const reading = readStream(t, { ...one, tenant }, { idleMs: 1_500, onOpen: o.onOpen });
        await o.wait;
        publish(t, tenant, 2 + 2 * i);
        shared = (await reading).at(-1) ?? 0;
      }
      await sleepOn(t, 200);
      for (const tenant of tenants) await readStream(t, { ...one, tenant }, { cursor: shared, idleMs: 400 });
    },
  },
];
