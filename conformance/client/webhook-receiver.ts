import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
}

export interface KitReceiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Every request so far, oldest first. */
  readonly received: readonly ReceivedDelivery[];
  /** Resolves with the requests matching `filter` once `enough(matches)` holds, or with what there is after `timeoutMs`. */
  waitFor(
    filter: (d: ReceivedDelivery) => boolean,
    timeoutMs: number,
    enough?: (matches: ReceivedDelivery[]) => boolean,
  ): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/** Bodies larger than this are cut (a receiver under test must not be flooded). */
const MAX_BODY = 1024 * 1024;

/**
 * The kit's webhook receiver: listens on 127.0.0.1 only, records every request and answers 204, so
 * the deployment under test records a successful delivery and does not retry.
 * @example const receiver = await startKitReceiver(0); const [d] = await receiver.waitFor((d) => d.path === '/x', 3000);
 */
export async function startKitReceiver(port = 0): Promise<KitReceiver> {
  const received: ReceivedDelivery[] = [];
  const listeners = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      received.push({
        method: req.method ?? 'POST',
        path: req.url ?? '/',
        headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      });
      res.writeHead(204).end();
      for (const l of [...listeners]) l();
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
    waitFor(filter, timeoutMs, enough = (m) => m.length > 0) {
      return new Promise((resolve) => {
        const matches = () => received.filter(filter);
        if (enough(matches())) return resolve(matches());
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(matches());
        };
        const check = () => {
          if (enough(matches())) done();
        };
        const timer = setTimeout(done, timeoutMs);
        listeners.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
