import { createServer, type Server } from 'node:http';
import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox.ts';
import type { Core } from '../core/create-core.ts';
import { createNodeListener, describeClientError, writeRawResponse } from './node-http.ts';

export interface ServeOptions extends Omit<SandboxOptions, 'baseUrl'> {
  host?: string;
  port?: number;
  /** Also listen here (same host): the interface's second address, served by the same state. */
  altPort?: number;
  /**
   * The origin clients reach this server at (behind a proxy, in a container): the OAuth issuer and
   * metadata name it. Default: the listening address. Never taken from the Host header.
   */
  publicUrl?: string;
  /** Write {baseUrl, altBaseUrl?, token, tenant, adminToken} as JSON here once listening. */
  readyFile?: string;
  /** Where request log lines go (default: none). */
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /** Transport limits against slow or greedy clients (see README "Reliability"). */
  limits?: Partial<TransportLimits>;
}

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
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  headersTimeoutMs: 10_000,
  // A body that stops arriving is refused after this, not held for half a minute (1 MiB takes far less).
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 10_000,
  maxHeaderBytes: 16 * 1024,
};

export interface RunningServer {
  sandbox: Sandbox;
  server: Server;
  baseUrl: string;
  /** Base URL of the second listener when altPort was given. */
  altBaseUrl?: string;
  /** A ready bearer token for the fixtures' default client, and its tenant. */
  token: string;
  tenant: string;
  /** Stops accepting, ends open streams, waits for in-flight requests. */
  close(): Promise<void>;
}

/**
 * Starts the simulator on node:http.
 * @example const s = await serve({ port: 0 }); await fetch(`${s.baseUrl}/api/public/v1`); await s.close();
 */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log;
  const sandbox = createSandbox({
    ...options,
    // A standalone server has no MSW around it: deliveries go out as they are.
    webhooks: { fetch: undiciFetch, ...options.webhooks },
    ...(log ? { onResponse: (e) => log(`${e.method} ${e.path} ${e.status} ${e.ms.toFixed(1)}ms ${e.requestId}`) } : {}),
    onError:
      options.onError ??
      ((err, id) => process.stderr.write(`internal error ${id}: ${(err as Error)?.stack ?? String(err)}\n`)),
  });
  const streams = new Set<() => void>();
  const publicUrl = options.publicUrl !== undefined ? publicOrigin(options.publicUrl) : undefined;
  // Filled in once listening (port 0 is only known then); requests cannot arrive before.
  const origins: { main?: string; alt?: string } = {};
  let draining = false;
  const listenerOptions = {
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    draining: () => draining,
    onStreamOpen(stop: () => void) {
      streams.add(stop);
      return () => streams.delete(stop);
    },
  };
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...options.limits };
  const make = (core: Core, origin: () => string | undefined) => {
    const srv = createServer(
      {
        maxHeaderSize: limits.maxHeaderBytes,
        requestTimeout: limits.requestTimeoutMs,
        headersTimeout: limits.headersTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.min(1000, Math.max(50, limits.headersTimeoutMs / 4)),
      },
      createNodeListener(core, { ...listenerOptions, origin }),
    );
    srv.maxRequestsPerSocket = limits.maxRequestsPerSocket;
    // node's own 400/408/431 answers have no envelope: answer in the contract's failure envelope instead.
    srv.on('clientError', (err: NodeJS.ErrnoException, socket) =>
      writeRawResponse(socket, core.reject('invalid_request', describeClientError(err))),
    );
    return srv;
  };
  const server = make(sandbox.core, () => origins.main);
  const altServer = options.altPort !== undefined ? make(sandbox.altCore, () => origins.alt) : undefined;
  const listen = (srv: Server, port: number) =>
    new Promise<string>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, host, () => {
        const addr = srv.address() as AddressInfo;
        resolve(`http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`);
      });
    });
  const baseUrl = await listen(server, options.port ?? 4010);
  const altBaseUrl = altServer ? await listen(altServer, options.altPort!) : undefined;
  origins.main = publicUrl ?? baseUrl;
  origins.alt = altBaseUrl;
  await sandbox.ready;
  const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
  if (options.readyFile)
    writeReadyFile(options.readyFile, {
      baseUrl,
      ...(altBaseUrl ? { altBaseUrl } : {}),
      token,
      tenant,
      adminToken: sandbox.adminToken,
    });
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    server,
    baseUrl,
    token,
    tenant,
    ...(altBaseUrl ? { altBaseUrl } : {}),
    close() {
      // Idle connections are closed only after a full poll phase (two setImmediate hops): a request
      // that already arrived on one has been read by then, so it is answered (Connection: close), not
      // reset. server.close() itself closes idle connections, so it waits for that point too.
      const afterPoll = (fn: () => void) => setImmediate(() => setImmediate(fn));
      const closeOne = (srv: Server) =>
        new Promise<void>((resolve) => {
          // Connections that finish their last response go idle: close them as they do, not after keep-alive.
          const sweep = setInterval(() => afterPoll(() => srv.closeIdleConnections()), 25);
          afterPoll(() =>
            srv.close(() => {
              clearInterval(sweep);
              resolve();
            }),
          );
        });
      closing ??= (async () => {
        draining = true;
        const done = Promise.all([closeOne(server), ...(altServer ? [closeOne(altServer)] : [])]);
        for (const stop of [...streams]) stop();
        await done;
        await sandbox.state.close();
        // The tokens in it die with the process: leave no credentials behind.
        if (options.readyFile) rmSync(options.readyFile, { force: true });
      })();
      return closing;
    },
  };
}

/**
 * Writes the ready file owner-only (it holds the admin and an access token) and whole at once:
 * written aside, then renamed, so a reader never sees half of it.
 * @example writeReadyFile('.ncs-ready.json', { baseUrl, token, tenant, adminToken });
 */
function writeReadyFile(file: string, info: Record<string, string>) {
  const aside = `${file}.${process.pid}.tmp`;
  rmSync(aside, { force: true });
  writeFileSync(aside, JSON.stringify(info, null, 2), { mode: 0o600, flag: 'wx' });
  renameSync(aside, file);
}

/**
 * Checks `--public-url`: an absolute http(s) URL without credentials, query or fragment; returns its origin.
 * @example publicOrigin('https://sandbox.partner.example/') // 'https://sandbox.partner.example'
 */
export function publicOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--public-url must be an absolute http(s) URL such as https://sandbox.example.com (got "${value}")`,
    );
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new Error(`--public-url must be an http(s) origin without credentials, query or fragment (got "${value}")`);
  if (url.pathname !== '/')
    throw new Error(`--public-url must be an origin without a path: the API lives at /api/public/v1 (got "${value}")`);
  return url.origin;
}
