import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROUTES } from '../../contract/route-table.ts';
import { count, mb, ms, ratio } from '../lib/format.ts';
import { startSimulator, type ServerProcess } from '../lib/processes.ts';
import { notAvailable, type Scenario, type ScenarioResult } from '../lib/types.ts';
import { CONNECTION_BODY } from './requests.ts';

const CONNECT_BATCH = 250;
const CONNECT_TIMEOUT_MS = 120_000;
const DELIVERY_TIMEOUT_MS = 10_000;

interface Subscriber {
  socket: Socket;
  open: boolean;
  /** When the marker arrived (performance.now()), once. */
  receivedAt?: number;
  /** The end of the previous chunk, so a marker split across two chunks is still seen. */
  tail: Buffer;
  /** Chunks seen after publishing began, kept until the connection id is known (bounded). */
  early: { at: number; bytes: Buffer }[];
}

/**
 * What subscribers look for once armed: the unique scopeLabel of the published connection (known
 * in advance) and its id (known when the POST answers; the event may arrive before that answer).
 * Bytes, not strings: 10,000 sockets' data must cost the measuring process as little as possible.
 */
interface Watch {
  armed: boolean;
  markers: Buffer[];
}

const EMPTY = Buffer.alloc(0);

function sawMarker(sub: Subscriber, watch: Watch, chunk: Buffer, at: number) {
  const bytes = sub.tail.length ? Buffer.concat([sub.tail, chunk]) : chunk;
  if (watch.markers.some((m) => bytes.includes(m))) {
    sub.receivedAt = at;
    sub.early = [];
    return;
  }
  sub.tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 200)));
  if (sub.early.length < 64) sub.early.push({ at, bytes });
}

/** The status stream route, when the route table has one (it lands from another branch). */
export function streamRoute() {
  return ROUTES.find((r) => r.kind === 'sse' && r.method === 'GET');
}

/** Opens one SSE subscriber on a raw socket (no client library: 10,000 of them must stay cheap). */
function subscribe(sim: FanoutTarget, path: string, watch: Watch): Promise<Subscriber> {
  const { port } = new URL(sim.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const sub: Subscriber = { socket, open: false, tail: EMPTY, early: [] };
    socket.once('connect', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${sim.token}\r\nx-service-tenant: ${sim.tenant}\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (!sub.open) {
        const bytes = sub.tail.length ? Buffer.concat([sub.tail, chunk]) : chunk;
        const eol = bytes.indexOf('\r\n');
        if (eol === -1) {
          sub.tail = bytes;
          return;
        }
        const status = bytes.toString('latin1', 0, eol);
        if (!/^HTTP\/1\.1 200/.test(status)) return reject(new Error(`the stream answered ${status}`));
        sub.open = true;
        sub.tail = EMPTY;
        resolve(sub);
        chunk = bytes;
      }
      if (watch.armed && sub.receivedAt === undefined) sawMarker(sub, watch, chunk, performance.now());
    });
    socket.once('error', reject);
  });
}

/** The server side a fan-out measurement needs: where it listens, an access, and its RSS. */
export type FanoutTarget = Pick<ServerProcess, 'baseUrl' | 'token' | 'tenant' | 'rss'>;

export interface FanoutResult {
  subscribers: number;
  received: number;
  connectMs: number;
  /** Publish to the last subscriber's receipt; Infinity when some never received it. */
  fanoutMs: number;
  firstMs: number;
  p50Ms: number;
  /** Until the POST's own answer arrived: the server answers after writing the event to every stream. */
  postMs: number;
  rssBefore: number;
  rssAfter: number;
}

/**
 * Opens `n` subscribers on `path`, creates one connection for their tenant and times its arrival
 * at each. Bounded: connecting within CONNECT_TIMEOUT_MS, delivery within DELIVERY_TIMEOUT_MS.
 * `settleMs` (default 1000) lets the server's memory settle around the subscribing.
 * @example const r = await measureFanout(sim, '/api/public/v1/stream', 10_000);
 */
export async function measureFanout(
  sim: FanoutTarget,
  path: string,
  n: number,
  opts: { settleMs?: number } = {},
): Promise<FanoutResult> {
  const settleMs = opts.settleMs ?? 1000;
  const subs: Subscriber[] = [];
  const watch: Watch = { armed: false, markers: [] };
  try {
    await fetch(`${sim.baseUrl}/api/public/v1`).then((r) => r.arrayBuffer());
    await sleep(settleMs / 2);
    const rssBefore = sim.rss() ?? 0;
    const started = performance.now();
    while (subs.length < n) {
      if (performance.now() - started > CONNECT_TIMEOUT_MS)
        throw new Error(`only ${subs.length} of ${n} subscribers connected within ${CONNECT_TIMEOUT_MS} ms`);
      const batch = Math.min(CONNECT_BATCH, n - subs.length);
      subs.push(...(await Promise.all(Array.from({ length: batch }, () => subscribe(sim, path, watch)))));
    }
    const connectMs = performance.now() - started;
    // Let the server finish its per-subscriber set-up before RSS is read.
    await sleep(settleMs);
    const rssAfter = sim.rss() ?? 0;
    // Publish: a new connection of the subscribers' tenant, recognised by its scopeLabel or its id.
    const label = `Bench SSE ${Date.now().toString(36)}`;
    watch.markers.push(Buffer.from(label));
    watch.armed = true;
    const t0 = performance.now();
    const res = await fetch(`${sim.baseUrl}/api/public/v1/connections`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sim.token}`,
        'x-service-tenant': sim.tenant!,
        'content-type': 'application/json',
        'idempotency-key': `bench-sse-${Date.now()}`,
      },
      body: JSON.stringify({ ...JSON.parse(CONNECTION_BODY), scopeLabel: label }),
    });
    const created = (await res.json()) as { data?: { id?: string } };
    const postMs = performance.now() - t0;
    if (!created.data?.id) throw new Error(`publishing failed: ${res.status}`);
    const id = created.data.id;
    watch.markers.push(Buffer.from(id));
    for (const s of subs) {
      const hit = s.receivedAt === undefined ? s.early.find((c) => c.bytes.includes(id)) : undefined;
      if (hit) s.receivedAt = hit.at;
      s.early = [];
    }
    const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
    while (subs.some((s) => s.receivedAt === undefined) && performance.now() < deadline) await sleep(5);
    const times = subs
      .filter((s) => s.receivedAt !== undefined)
      .map((s) => s.receivedAt! - t0)
      .sort((a, b) => a - b);
    return {
      subscribers: n,
      received: times.length,
      connectMs,
      fanoutMs: times.length === n ? times.at(-1)! : Number.POSITIVE_INFINITY,
      firstMs: times[0] ?? Number.NaN,
      p50Ms: times[Math.floor(times.length / 2)] ?? Number.NaN,
      postMs,
      rssBefore,
      rssAfter,
    };
  } finally {
    for (const s of subs) s.socket.destroy();
  }
}

export const sseScenario: Scenario = {
  id: 'sse-fanout',
  title: 'SSE fan-out',
  measures:
    'N idle subscribers on GET /stream (tenant feed), one connection created: time from the POST to the last subscriber receiving its event, and server RSS per subscriber.',
  async run(ctx): Promise<ScenarioResult> {
    const route = streamRoute();
    if (!route)
      return notAvailable(
        this,
        'the route table has no SSE route (GET /api/public/v1/stream is being built on another branch)',
      );
    // The default cap is 1,000 open streams per feed: raise it to the subscribers measured.
    const n = ctx.config.sseSubscribers;
    // The floor: a bare node:http server holding the same streams and writing each POST to them.
    const b = await measureFanout(await ctx.baseline(), route.path, n);
    const sim = await startSimulator({ extra: ['--stream-limit', `${n}/${Math.max(n, 20_000)}`] });
    try {
      const r = await measureFanout(sim, route.path, n);
      const metrics = {
        subscribers: n,
        received: r.received,
        connectMs: r.connectMs,
        fanoutMs: r.fanoutMs,
        firstMs: r.firstMs,
        p50Ms: r.p50Ms,
        postMs: r.postMs,
        rssBeforeMb: r.rssBefore / 1024 / 1024,
        rssAfterMb: r.rssAfter / 1024 / 1024,
        rssPerSubscriberKb: (r.rssAfter - r.rssBefore) / n / 1024,
        baselineFanoutMs: b.fanoutMs,
        baselinePostMs: b.postMs,
        baselineRssPerSubscriberKb: (b.rssAfter - b.rssBefore) / n / 1024,
      };
      const result: ScenarioResult = {
        id: this.id,
        title: this.title,
        status: r.received === n ? 'ok' : 'failed',
        metrics,
        row: {
          result: `${count(n)} subscribers: last received after ${ms(r.fanoutMs)} (first ${ms(r.firstMs)}, median ${ms(r.p50Ms)}; the POST answered after ${ms(r.postMs)})`,
          memory: `${metrics.rssPerSubscriberKb.toFixed(1)} KB per subscriber (RSS ${mb(r.rssBefore)} -> ${mb(r.rssAfter)}; baseline ${metrics.baselineRssPerSubscriberKb.toFixed(1)} KB)`,
          baseline: `last received after ${ms(b.fanoutMs)}, POST answered after ${ms(b.postMs)}`,
          ratio: ratio(r.fanoutMs / b.fanoutMs),
        },
        notes: [`connecting ${count(n)} subscribers took ${ms(r.connectMs)}`],
      };
      if (r.received !== n)
        result.reason = `${n - r.received} of ${n} subscribers did not receive the event within ${DELIVERY_TIMEOUT_MS} ms`;
      return result;
    } finally {
      await sim.stop();
    }
  },
};
