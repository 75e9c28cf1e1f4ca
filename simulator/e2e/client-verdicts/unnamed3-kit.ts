import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { Target } from '../harness.ts';
import type { Auth, CallOpts, Reply } from './unnamed-kit.ts';

/**
 * Transports of the third round's clients, each another HTTP stack than fetch: a raw HTTP/1.1 socket
 * that pipelines, a forward proxy in front of the client, and node:http uploads (chunked, Expect:
 * 100-continue, a body cut off mid-upload). All on 127.0.0.1.
 */

const NO_ANSWER: Reply = { status: 0, json: undefined, retryAfterMs: 0 };

/** The head of a request as a raw HTTP/1.1 client writes it. */
function head(t: Target, auth: Auth, method: string, path: string, o: CallOpts, body: string): string {
  const url = new URL(`${t.baseUrl}/api/public/v1${path}`);
  const lines = [
    `${method} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: Bearer ${auth.token}`,
    `X-Service-Tenant: ${auth.tenant}`,
    ...(o.version === null ? [] : [`Service-Version: ${o.version ?? CURRENT_VERSION}`]),
    ...(o.key ? [`Idempotency-Key: ${o.key}`] : []),
    ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * One kept-alive HTTP/1.1 connection that pipelines: `send` writes every request at once, without
 * waiting for an answer, and reads the answers in order (the server answers JSON with Content-Length).
 * @example const pipe = await pipeline(t); const [a, b] = await pipe.send(auth, [['GET', '/providers'], ['GET', '/connectors']]);
 */
export async function pipeline(t: Target) {
  const url = new URL(t.baseUrl);
  const socket: Socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (c: Buffer) => {
    buffered = Buffer.concat([buffered, c]);
    waiting?.();
  });
  socket.on('close', () => waiting?.());
  const more = () => new Promise<void>((resolve) => (waiting = resolve));

  /** The next whole answer off the connection, or no answer once it closed. */
  async function next(): Promise<Reply> {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end !== -1) {
        const text = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
        if (buffered.length >= end + 4 + length) {
          const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
          buffered = buffered.subarray(end + 4 + length);
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {}
          const ra = /\r\nretry-after: *(\d+)/i.exec(text)?.[1];
          return {
            status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
            json,
            retryAfterMs: Number(ra ?? 0) * 1000,
          };
        }
      }
      if (socket.destroyed) return NO_ANSWER;
      await more();
    }
  }

  return {
    async send(auth: Auth, calls: [method: string, path: string, o?: CallOpts][]): Promise<Reply[]> {
      const text = calls
        .map(([method, path, o = {}]) => {
          const body = o.body === undefined ? '' : JSON.stringify(o.body);
          return head(t, auth, method, path, o, body) + body;
        })
        .join('');
      socket.write(text);
      const out: Reply[] = [];
      for (let i = 0; i < calls.length; i++) out.push(await next());
      return out;
    },
    close: () => void socket.end(),
  };
}

/**
 * A forward proxy on 127.0.0.1 as a company puts in front of its servers: it takes absolute-form
 * requests, adds its own headers (`add`), keeps only the request headers `allow` lets through (all when
 * absent), and sends everything upstream over one kept-alive connection. A failed upstream is a 502.
 */
export async function forwardProxy(o: { add: Record<string, string>; allow?: (name: string) => boolean }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers))
      if (name !== 'proxy-connection' && (!o.allow || o.allow(name))) headers[name] = value;
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        agent,
        headers: { ...headers, host: target.host, ...o.add, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      else res.destroy();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a node:http answer into a Reply. */
function replyOf(res: IncomingMessage): Promise<Reply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', () => resolve(NO_ANSWER));
    res.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      const ra = res.headers['retry-after'];
      resolve({ status: res.statusCode ?? 0, json, retryAfterMs: Number(ra ?? 0) * 1000 });
    });
  });
}

/** The headers every call of these clients carries. */
function apiHeaders(auth: Auth, o: CallOpts): Record<string, string> {
  return {
    authorization: `Bearer ${auth.token}`,
    'x-service-tenant': auth.tenant,
    ...(o.version === null ? {} : { 'service-version': o.version ?? CURRENT_VERSION }),
    ...(o.key ? { 'idempotency-key': o.key } : {}),
    ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...o.headers,
  };
}

/** One call through a forward proxy (absolute-form request line), as node:http sends it. */
export function viaProxy(
  t: Target,
  proxy: { port: number },
  auth: Auth,
  method: string,
  path: string,
  o: CallOpts = {},
): Promise<Reply> {
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: proxy.port,
        method,
        path: `${t.baseUrl}/api/public/v1${path}`,
        headers: { ...apiHeaders(auth, o), ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (res) => void replyOf(res).then(resolve),
    );
    req.on('error', () => resolve(NO_ANSWER));
    req.end(body);
  });
}

/**
 * A JSON upload as a streaming client sends it: chunked (no Content-Length), optionally announcing
 * `Expect: 100-continue` and sending the body only once the server said continue, and optionally cut
 * off halfway (the connection reset mid-upload: `cutAfterBytes`).
 */
export function upload(
  t: Target,
  auth: Auth,
  path: string,
  o: CallOpts & { expectContinue?: boolean; cutAfterBytes?: number },
): Promise<Reply> {
  const body = Buffer.from(JSON.stringify(o.body ?? {}));
  const url = new URL(`${t.baseUrl}/api/public/v1${path}`);
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        headers: { ...apiHeaders(auth, o), ...(o.expectContinue ? { expect: '100-continue' } : {}) },
      },
      (res) => void replyOf(res).then(resolve),
    );
    req.on('error', () => resolve(NO_ANSWER));
    const send = () => {
      if (o.cutAfterBytes === undefined) {
        // Two chunks: the body really is streamed, not sent in one piece.
        req.write(body.subarray(0, 20));
        req.end(body.subarray(20));
        return;
      }
      req.write(body.subarray(0, o.cutAfterBytes), () => setImmediate(() => req.destroy()));
    };
    if (o.expectContinue) req.on('continue', send);
    else send();
    req.flushHeaders();
  });
}
