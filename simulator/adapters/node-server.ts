import { createServer, type Server } from 'node:http';
import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox.ts';
import type { Core } from '../core/create-core.ts';
import { createNodeListener, describeClientError, writeRawResponse } from './node-http.ts';

export interface ServeOptions extends Omit<SandboxOptions, 'baseUrl'> {
  host?: string;
  port?: number;
  /** Also listen here (same host): the interface's second address, served by the same state. */
  altPort?: number;
  /** Write {baseUrl, altBaseUrl?, token, tenant, adminToken, inspectorUrl?} as JSON here once listening. */
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
  requestTimeoutMs: 30_000,
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
  /** The inspector page with its one-time login token (absent when the inspector is off). */
  inspectorUrl?: string;
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
  const listenerOptions = {
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    onStreamOpen(stop: () => void) {
      streams.add(stop);
      return () => streams.delete(stop);
    },
  };
  const limits = { ...DEFAULT_TRANSPORT_LIMITS, ...options.limits };
  const make = (core: Core) => {
    const srv = createServer(
      {
        maxHeaderSize: limits.maxHeaderBytes,
        requestTimeout: limits.requestTimeoutMs,
        headersTimeout: limits.headersTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.min(1000, Math.max(50, limits.headersTimeoutMs / 4)),
      },
      createNodeListener(core, listenerOptions),
    );
    srv.maxRequestsPerSocket = limits.maxRequestsPerSocket;
    // node's own 400/408/431 answers have no envelope: answer in the contract's failure envelope instead.
    srv.on('clientError', (err: NodeJS.ErrnoException, socket) =>
      writeRawResponse(socket, core.reject('invalid_request', describeClientError(err))),
    );
    return srv;
  };
  const server = make(sandbox.core);
  const altServer = options.altPort !== undefined ? make(sandbox.altCore) : undefined;
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
  await sandbox.ready;
  const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
  // Listening beyond loopback was asked for explicitly: the inspector then answers there too (still behind its login).
  if (!/^(127\.|::1$|localhost$)/.test(host)) sandbox.inspector?.setLoopbackOnly(false);
  const inspectorUrl = sandbox.inspector?.loginUrl(baseUrl);
  if (options.readyFile)
    writeFileSync(
      options.readyFile,
      JSON.stringify(
        {
          baseUrl,
          ...(altBaseUrl ? { altBaseUrl } : {}),
          token,
          tenant,
          adminToken: sandbox.adminToken,
          ...(inspectorUrl ? { inspectorUrl } : {}),
        },
        null,
        2,
      ),
    );
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    server,
    baseUrl,
    token,
    tenant,
    ...(altBaseUrl ? { altBaseUrl } : {}),
    ...(inspectorUrl ? { inspectorUrl } : {}),
    close() {
      const closeOne = (srv: Server) =>
        new Promise<void>((resolve) => {
          // Connections that finish their last response go idle: close them as they do, not after keep-alive.
          const sweep = setInterval(() => srv.closeIdleConnections(), 25);
          srv.close(() => {
            clearInterval(sweep);
            resolve();
          });
          srv.closeIdleConnections();
        });
      closing ??= (async () => {
        const done = Promise.all([closeOne(server), ...(altServer ? [closeOne(altServer)] : [])]);
        for (const stop of [...streams]) stop();
        await done;
        await sandbox.state.close();
      })();
      return closing;
    },
  };
}
