import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SIGNATURE_HEADER, verifyWebhook } from '../contract/webhook-signature.ts';

export interface ReceivedCall {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  verified: ReturnType<typeof verifyWebhook>;
}

/**
 * A webhook receiver for tests on 127.0.0.1 (port 0). Paths choose the behaviour:
 * /ok (verifies the signature: 204 or 400), /status/<code>, /flaky/<n> (500 for the first n calls, then
 * like /ok), /hang (never answers), /reset (destroys the socket), /redirect (302 to /ok).
 */
export async function startTestReceiver(secret: string, now: () => number) {
  const calls: ReceivedCall[] = [];
  const waiters: ((c: ReceivedCall) => void)[] = [];
  const flaky = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = req.url ?? '/';
    const verified = verifyWebhook(
      raw,
      req.headers[DEFAULT_SIGNATURE_HEADER.toLowerCase()] as string | undefined,
      secret,
      { now: now() / 1000 },
    );
    const call: ReceivedCall = { path, headers: req.headers, body: raw.toString('utf8'), verified };
    calls.push(call);
    waiters.splice(0).forEach((w) => {
      w(call);
    });
    const answerOk = () => res.writeHead(verified.ok ? 204 : 400).end(verified.ok ? undefined : verified.reason);
    if (path === '/ok') return answerOk();
    if (path.startsWith('/status/')) return res.writeHead(Number(path.slice(8))).end('no');
    if (path.startsWith('/flaky/')) {
      const seen = (flaky.get(path) ?? 0) + 1;
      flaky.set(path, seen);
      return seen <= Number(path.slice(7)) ? res.writeHead(500).end() : answerOk();
    }
    if (path === '/hang') return;
    if (path === '/reset') return req.socket.destroy();
    if (path === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    calls,
    /** Resolves with the next request the receiver sees. */
    nextCall: () => new Promise<ReceivedCall>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
