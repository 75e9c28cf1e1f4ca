import type * as Http from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import type { CoreHandler } from '../core/types.ts';
import { answerClientError } from './client-error.ts';
import { numberConnection, PROCESS_CONNECTIONS } from './connection-numbers.ts';
import { createNodeListener, describeClientError, writeNodeResponse, writeRawResponse } from './node-http.ts';

// Loaded through require(): an ES import of node:http builds its module facade by reading every
// export, and node:http's lazy WebSocket/fetch getters then load Node's bundled undici (~25 ms of
// every `ncs serve` start, measured in the cold-start benchmark).
const { createServer } = createRequire(import.meta.url)('node:http') as typeof Http;

export interface TransportLimits {
  /** Time to receive all request headers (slowloris), ms. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, ms. */
  requestTimeoutMs: number;
  /** Idle keep-alive connection lifetime, ms. */
  keepAliveTimeoutMs: number;
  /** Requests served on one keep-alive connection before it is closed. */
  maxRequestsPerSocket: number;
  /** Largest accepted header block, bytes. */
  maxHeaderBytes: number;
  /**
   * At shutdown, how long idle keep-alive connections stay open for a request already on its way
   * (it is answered with Connection: close), ms. Closing them at once resets such a request.
   */
  shutdownGraceMs: number;
  /**
   * At shutdown, how long a connection accepted before the listener closed, that has not yet carried
   * a request, is kept for its first one, ms. A client connects in order to send a request: a fresh
   * connection closed under it resets a request that may not be retried (a POST), and a client on a
   * busy machine can take longer than the grace above between its connect and its first bytes.
   */
  firstRequestGraceMs: number;
  /**
   * At shutdown, how long the listener stays open at most while the kernel's queue of connections
   * (each with its request sent) is accepted, ms. libuv accepts one connection per poll phase, and a
   * starved process takes tens of ms per phase: a hundred queued connections can take seconds.
   */
  acceptQueueMs: number;
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  headersTimeoutMs: 10_000,
  // A body that stops arriving is refused after this, not held for half a minute (1 MiB takes far less).
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 10_000,
  maxHeaderBytes: 16 * 1024,
  shutdownGraceMs: 500,
  firstRequestGraceMs: 2_000,
  acceptQueueMs: 3_000,
};

export interface NodeServerOptions {
  limits?: Partial<TransportLimits>;
  maxBodyBytes?: number;
  /**
   * The origin clients reach this server at (OAuth issuer and metadata). Default: the address it
   * listens on. Never taken from the Host header, so a shared sandbox cannot be made to advertise another issuer.
   */
  publicUrl?: string;
  /** The clock connections are stamped on as accepted (the sandbox's: the client verdicts read it; default real time). */
  now?: () => number;
}

export interface NodeServer {
  server: Server;
  /** Listens on host:port and resolves with the base URL actually bound (port 0 = ephemeral). */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, ends open streams, waits for in-flight requests. */
  close(): Promise<void>;
}

/**
 * A node:http server around one core, with the transport limits and envelope answers for unreadable requests.
 * It knows nothing of tokens or sandboxes: the composition layer (app/serve.ts) decides what to serve.
 * @example const s = createNodeServer(core); const url = await s.listen(0, '127.0.0.1'); await s.close();
 */
export function createNodeServer(core: CoreHandler, opts: NodeServerOptions = {}): NodeServer {
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...opts.limits };
  const streams = new Set<{ stop(): void }>();
  // Set once listening (port 0 is only known then); no request can arrive before.
  let origin = opts.publicUrl;
  let draining = false;
  const connections = PROCESS_CONNECTIONS;
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, limits.headersTimeoutMs / 4)),
      // Checked by the listener instead, so a missing Host gets the envelope, not node's bare 400.
      requireHostHeader: false,
    },
    createNodeListener(core, {
      maxBodyBytes: opts.maxBodyBytes ?? 1024 * 1024,
      origin: () => origin,
      draining: () => draining,
      openStreams: streams,
      connections,
    }),
  );
  // Numbered as accepted: the client verdicts tell a call sent beside another from a retry by it.
  server.on('connection', (socket) => numberConnection(connections, socket, opts.now));
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // Every open connection, and those that have carried a request: node counts a connection without
  // one idle, so its closeIdleConnections() at shutdown would reset a first request on its way (close()).
  const open = new Set<Socket>();
  const served = new WeakSet<Socket>();
  let accepted = 0;
  // One listener for every socket (`this` is the socket), not a closure and once() wrapper per connection.
  const forget = function (this: Socket) {
    open.delete(this);
  };
  server.on('connection', (socket: Socket) => {
    accepted++;
    open.add(socket);
    socket.on('close', forget);
  });
  server.on('request', (req: Http.IncomingMessage) => served.add(req.socket));
  // node's own 400/408/431 answers have no envelope: answer in the contract's failure envelope instead.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) =>
    answerClientError(socket, () => core.reject('invalid_request', describeClientError(err))),
  );
  // CONNECT (a proxy tunnel) and an Expect other than 100-continue: node answers the first with nothing
  // (it closes the socket) and the second with a bare 417. Both get the envelope and a closed connection.
  server.on('connect', (_req, socket) =>
    writeRawResponse(socket, core.reject('invalid_request', 'CONNECT is not offered: this server is not a proxy.')),
  );
  server.on('checkExpectation', (_req, res) => {
    const out = core.reject(
      'invalid_request',
      'Only Expect: 100-continue is understood; send the request without Expect.',
    );
    out.headers.connection = 'close';
    writeNodeResponse(res, out);
  });
  let closing: Promise<void> | undefined;
  return {
    server,
    listen: (port, host) =>
      new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const addr = server.address() as AddressInfo;
          const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
          origin ??= url;
          resolve(url);
        });
      }),
    close() {
      // A request that already arrived on an idle connection is read within one poll phase (two
      // setImmediate hops), so waiting that long before closing anything answers it rather than resets it.
      const afterPoll = (fn: () => void) => setImmediate(() => setImmediate(fn));
      // node's closeIdleConnections() (the same test: no unfinished answer on the connection), except
      // that a connection that has not carried a request yet is kept until firstRequestGraceMs.
      let spareFresh = true;
      const closeIdle = () =>
        afterPoll(() => {
          for (const socket of open) {
            const answer = (socket as Socket & { _httpMessage?: { finished: boolean } | null })._httpMessage;
            if ((answer && !answer.finished) || (spareFresh && !served.has(socket))) continue;
            socket.destroy();
          }
        });
      closing ??= new Promise<void>((resolve) => {
        let sweep: NodeJS.Timeout | undefined;
        let grace: NodeJS.Timeout | undefined;
        let firstGrace: NodeJS.Timeout | undefined;
        // Stop listening. A connection still queued in the kernel when the listener closes is reset, with its
        // request already sent: a process that was busy (or starved) when SIGTERM came can have many
        // queued. So the listener closes only after a poll phase that accepted nothing (libuv accepts one
        // connection per phase), at most acceptQueueMs on (clients connecting without end cannot hold
        // the shutdown): the window left is microseconds.
        // -1: the phase SIGTERM came in began before it, so one more phase is always polled.
        let seen = -1;
        const acceptUntil = performance.now() + limits.acceptQueueMs;
        const closeListener = () =>
          setImmediate(() => {
            if (accepted !== seen && performance.now() < acceptUntil) {
              seen = accepted;
              return closeListener();
            }
            stopListening();
          });
        const stopListening = () => {
          // node's server.close() also closes idle connections at once, which resets a request already
          // on its way on one: it is kept from doing so here (an own property shadowing the method).
          const idleCloser = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
          server.closeIdleConnections = () => undefined;
          server.close(() => {
            clearTimeout(grace);
            clearTimeout(firstGrace);
            clearInterval(sweep);
            resolve();
          });
          if (idleCloser) Object.defineProperty(server, 'closeIdleConnections', idleCloser);
          else Reflect.deleteProperty(server, 'closeIdleConnections');
          // From now on every answer says Connection: close, and node closes the connection after it.
          // Not before: a client told so connects anew, and while clients keep connecting the queue
          // never runs empty.
          draining = true;
        };
        closeListener();
        for (const stream of [...streams]) stream.stop();
        // Idle keep-alive connections stay open for the grace time: a client may have sent its next
        // request a moment ago. Then they are closed, and connections that go idle after their last
        // answer are closed as they do, not after the keep-alive time.
        grace = setTimeout(() => {
          closeIdle();
          sweep = setInterval(closeIdle, 25);
        }, limits.shutdownGraceMs);
        firstGrace = setTimeout(
          () => {
            spareFresh = false;
            closeIdle();
          },
          Math.max(limits.firstRequestGraceMs, limits.shutdownGraceMs),
        );
      });
      return closing;
    },
  };
}
