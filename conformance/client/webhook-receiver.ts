import type * as Http from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// Through require(), as in simulator/adapters/node-server.ts: an ES import of node:http reads every
// export to build its facade, and its lazy WebSocket/fetch getters then load Node's bundled undici
// (60-80 ms of CPU); `ncs serve` loads this module with the CLI's `webhook listen` command.
const { createServer } = createRequire(import.meta.url)('node:http') as typeof Http;

/** One request the receiver got, exactly as it came. */
export interface ReceivedDelivery {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Names lower-cased. */
  headers: Record<string, string>;
  /** The unchanged raw body (signatures cover these bytes). */
  rawBody: Buffer;
  /** Unix milliseconds when it arrived (the kit's clock: the signature's time window is judged against it). */
  receivedAt: number;
  /** The body was longer than the receiver keeps: rawBody holds its first MAX_RECEIVED_BODY bytes. */
  truncated?: boolean;
}

export interface KitReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Every request so far, oldest first (at most the newest maxBodies / maxBytes of them). */
  readonly received: readonly ReceivedDelivery[];
  /** Requests dropped to stay within the bounds, and bodies cut at MAX_RECEIVED_BODY bytes. */
  readonly stats: { dropped: number; cut: number };
  /**
   * Resolves with the requests matching `filter` once `enough(matches)` holds, or with what there is
   * after `timeoutMs` or once `signal` fires (the run stopped early).
   */
  waitFor(
    filter: (d: ReceivedDelivery) => boolean,
    timeoutMs: number,
    enough?: (matches: ReceivedDelivery[]) => boolean,
    signal?: AbortSignal,
  ): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * How the receiver answers one request: a status, a whole answer, or a broken connection ('reset') or
 * none at all ('hang') for testing a sender's retries and timeouts.
 */
export type ReceiverAnswer =
  | number
  | { status: number; headers?: Record<string, string>; body?: string | Uint8Array }
  | 'hang'
  | 'reset';

export interface KitReceiverOptions {
  /** Decides each answer once the request is recorded (default 204); a rejection answers 500. */
  respond?: (delivery: ReceivedDelivery) => ReceiverAnswer | Promise<ReceiverAnswer>;
  /** Keep only the newest this many requests (default all): a long-running listener must not grow. */
  keep?: number;
  /** Like keep, for the kit's runs: the newest this many requests. */
  maxBodies?: number;
  /** Keep the newest requests whose bodies add up to at most this many bytes. */
  maxBytes?: number;
}

/** Bodies larger than this are cut (a receiver under test must not be flooded). */
export const MAX_RECEIVED_BODY = 1024 * 1024;
const MAX_BODY = MAX_RECEIVED_BODY;

/**
 * The kit's webhook receiver: listens on 127.0.0.1 only, records every request and answers 204, so
 * the deployment under test records a successful delivery and does not retry.
 * @example const receiver = await startKitReceiver(0); const [d] = await receiver.waitFor((d) => d.path === '/x', 3000);
 * @example await startKitReceiver(0, { respond: (d) => (d.path === '/fail' ? 500 : 204), keep: 100 });
 */
export async function startKitReceiver(port = 0, options: KitReceiverOptions = {}): Promise<KitReceiver> {
  const received: ReceivedDelivery[] = [];
  const stats = { dropped: 0, cut: 0 };
  let keptBytes = 0;
  const keep = Math.min(options.keep ?? Number.POSITIVE_INFINITY, options.maxBodies ?? Number.POSITIVE_INFINITY);
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const listeners = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      const room = MAX_BODY - size;
      size += c.length;
      if (room > 0) chunks.push(c.length <= room ? c : c.subarray(0, room));
    });
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      const delivery: ReceivedDelivery = {
        method: req.method ?? 'POST',
        path: req.url ?? '/',
        headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
        ...(size > MAX_BODY ? { truncated: true } : {}),
      };
      if (size > MAX_BODY) stats.cut++;
      received.push(delivery);
      keptBytes += delivery.rawBody.length;
      // Oldest first out, by count and by bytes, so a flood cannot pin memory.
      while (received.length > 1 && (received.length > keep || keptBytes > maxBytes)) {
        const dropped = received.shift();
        if (!dropped) break;
        keptBytes -= dropped.rawBody.length;
        stats.dropped++;
      }
      // Answered before waiters hear of it, so a sender's log already shows the outcome they look up.
      const answer = (a: ReceiverAnswer) => {
        if (a === 'reset') req.socket.destroy();
        else if (a !== 'hang') {
          const full = typeof a === 'number' ? { status: a } : a;
          res.writeHead(full.status, full.headers).end(full.body);
        }
        for (const l of [...listeners]) l();
      };
      if (!options.respond) return answer(204);
      Promise.resolve()
        .then(() => options.respond?.(delivery) ?? 204)
        .then(answer, () => answer(500));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    stats,
    waitFor(filter, timeoutMs, enough = (m) => m.length > 0, signal) {
      return new Promise((resolve) => {
        const matches = () => received.filter(filter);
        if (enough(matches()) || signal?.aborted) return resolve(matches());
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          signal?.removeEventListener('abort', done);
          resolve(matches());
        };
        const check = () => {
          if (enough(matches())) done();
        };
        const timer = setTimeout(done, timeoutMs);
        listeners.add(check);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
