import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/**
 * A webhook receiver on 127.0.0.1 for the suite: records every call; /ok answers 204, /fail answers 500,
 * /flaky/<n> answers 500 to its first n calls and 204 after.
 */
export async function startReceiver() {
  const calls: Received[] = [];
  const flaky = new Map<string, number>();
  let waiters: { match: (c: Received) => boolean; resolve: (c: Received) => void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const call: Received = { path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') };
    calls.push(call);
    waiters = waiters.filter((w) => (w.match(call) ? (w.resolve(call), false) : true));
    if (call.path.startsWith('/flaky/')) {
      const n = (flaky.get(call.path) ?? 0) + 1;
      flaky.set(call.path, n);
      res.writeHead(n <= Number(call.path.split('/')[2]) ? 500 : 204).end();
    } else res.writeHead(call.path.startsWith('/fail') ? 500 : 204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    calls,
    /** Resolves with the first call (already received or coming) that matches, or rejects after `ms`. */
    waitFor(match: (c: Received) => boolean, ms = 5000): Promise<Received> {
      const seen = calls.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching webhook call arrived')), ms);
        waiters.push({ match, resolve: (c) => (clearTimeout(timer), resolve(c)) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
