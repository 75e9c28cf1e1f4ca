import type * as Http from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { CoreHandler } from '../core/types.ts';
import { numberConnection, PROCESS_CONNECTIONS } from './connection-numbers.ts';
import { createNodeListener, describeClientError, writeRawResponse } from './node-http.ts';

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
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  headersTimeoutMs: 10_000,
  // A body that stops arriving is refused after this, not held for half a minute (1 MiB takes far less).
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 10_000,
  maxHeaderBytes: 16 * 1024,
  shutdownGraceMs: 500,
};

export interface NodeServerOptions {
  limits?: Partial<TransportLimits>;
  maxBodyBytes?: number;
  /**
   * The origin clients reach this server at (OAuth issuer and metadata). Default: the address it
   * listens on. Never taken from the Host header, so a shared sandbox cannot be made to advertise another issuer.
   */
  publicUrl?: string;
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
  server.on('connection', (socket) => numberConnection(connections, socket));
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // node's own 400/408/431 answers have no envelope: answer in the contract's failure envelope instead.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) =>
    writeRawResponse(socket, core.reject('invalid_request', describeClientError(err))),
  );
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
      const closeIdle = () => afterPoll(() => server.closeIdleConnections());
      closing ??= new Promise<void>((resolve) => {
        let sweep: NodeJS.Timeout | undefined;
        let grace: NodeJS.Timeout | undefined;
        // Stop listening first, before any answer says Connection: close: a client told so connects
        // anew, and a connection still queued in the kernel when the listener closes is reset. node's
        // server.close() also closes idle connections at once, which resets a request already on its
        // way on one: it is kept from doing so here (an own property shadowing the method, for this call).
        const idleCloser = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
        server.closeIdleConnections = () => undefined;
        server.close(() => {
          clearTimeout(grace);
          clearInterval(sweep);
          resolve();
        });
        if (idleCloser) Object.defineProperty(server, 'closeIdleConnections', idleCloser);
        else Reflect.deleteProperty(server, 'closeIdleConnections');
        // From now on every answer says Connection: close, and node closes the connection after it.
        draining = true;
        for (const stream of [...streams]) stream.stop();
        // Idle keep-alive connections stay open for the grace time: a client may have sent its next
        // request a moment ago. Then they are closed, and connections that go idle after their last
        // answer are closed as they do, not after the keep-alive time.
        grace = setTimeout(() => {
          closeIdle();
          sweep = setInterval(closeIdle, 25);
        }, limits.shutdownGraceMs);
      });
      return closing;
    },
  };
}
