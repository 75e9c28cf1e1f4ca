import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createNodeServer, type TransportLimits } from '../adapters/node-server.ts';
import { writeReadyFile } from '../contract/ready-file.ts';
import { maskUrl } from '../lib/mask-url.ts';
import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts';

export { DEFAULT_TRANSPORT_LIMITS, type TransportLimits } from '../adapters/node-server.ts';

export interface ServeOptions extends Omit<SandboxOptions, 'baseUrl'> {
  /** Share the state with other replicas: a redis:// URL (see README "Shared sandbox"). */
  store?: string;
  host?: string;
  port?: number;
  /** Also listen here (same host): the interface's second address, served by the same state. */
  altPort?: number;
  /**
   * The origin clients reach the main address at (behind a proxy, in a container): the OAuth issuer and
   * metadata name it. Default: the listening address. Never taken from the Host header.
   */
  publicUrl?: string;
  /** Write {baseUrl, altBaseUrl?, token, tenant, adminToken, inspectorUrl?} as JSON here once listening (0600, removed at close). */
  readyFile?: string;
  /** Where request log lines go (default: none). */
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /** Transport limits against slow or greedy clients (see README "Reliability"). */
  limits?: Partial<TransportLimits>;
}

export interface RunningServer {
  sandbox: Sandbox;
  server: Server;
  baseUrl: string;
  /** Base URL of the second listener when altPort was given. */
  altBaseUrl?: string;
  /** The inspector page with its one-time login token (absent when the inspector is off). */
  inspectorUrl?: string;
  /** The shared store's URL (password masked), when the state is shared. */
  store?: string;
  /** A ready bearer token for the fixtures' default client, and its tenant. */
  token: string;
  tenant: string;
  /** Stops accepting, ends open streams, waits for in-flight requests. */
  close(): Promise<void>;
}

/**
 * Starts the simulator on node:http: a sandbox, one node server per address, a ready token and the ready file.
 * @example const s = await serve({ port: 0 }); await fetch(`${s.baseUrl}/api/public/v1`); await s.close();
 */
export async function serve(
  options: ServeOptions = {},
  hooks: {
    /** Runs once listening, just before the ready file appears (a script may kill the server right then). */
    beforeReady?(): void;
  } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log;
  // Only --store loads the shared sandbox's modules (and they the optional Redis client).
  const shared = options.store
    ? await (await import('./shared-sandbox.ts')).openSharedStore(options.store)
    : options.shared;
  const sandbox = createSandbox({
    ...options,
    ...(shared ? { shared } : {}),
    // A standalone server has no MSW around it: deliveries go out as they are.
    webhooks: { fetch: undiciFetch, ...options.webhooks },
    onResponse: log
      ? (e) => log(`${e.method} ${e.path} ${e.status} ${e.ms.toFixed(1)}ms ${e.requestId}`)
      : options.onResponse,
    onError:
      options.onError ??
      ((err, id) => process.stderr.write(`internal error ${id}: ${(err as Error)?.stack ?? String(err)}\n`)),
  });
  const transport = {
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    limits: options.limits ?? {},
    // Connections stamped on the sandbox clock: time the control plane advances passes for them too.
    now: () => sandbox.state.clock.now(),
  };
  const publicUrl = options.publicUrl !== undefined ? publicOrigin(options.publicUrl) : undefined;
  const main = createNodeServer(sandbox.core, { ...transport, ...(publicUrl ? { publicUrl } : {}) });
  const alt = options.altPort !== undefined ? createNodeServer(sandbox.altCore, transport) : undefined;
  const baseUrl = await main.listen(options.port ?? 4010, host);
  const altBaseUrl = alt && options.altPort !== undefined ? await alt.listen(options.altPort, host) : undefined;
  await sandbox.ready;
  const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
  // Listening beyond loopback was asked for explicitly: the inspector then answers there too (still behind its login).
  if (!/^(127\.|::1$|localhost$)/.test(host)) sandbox.inspector?.setLoopbackOnly(false);
  const inspectorUrl = sandbox.inspector?.loginUrl(baseUrl);
  hooks.beforeReady?.();
  if (options.readyFile)
    writeReadyFile(options.readyFile, {
      baseUrl,
      altBaseUrl,
      token,
      tenant,
      adminToken: sandbox.adminToken,
      inspectorUrl,
    });
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    server: main.server,
    baseUrl,
    token,
    tenant,
    altBaseUrl,
    ...(inspectorUrl ? { inspectorUrl } : {}),
    ...(shared ? { store: shared.engine.url } : {}),
    close() {
      closing ??= (async () => {
        await Promise.all([main.close(), alt?.close()]);
        await sandbox.state.close();
        // The tokens in it die with the process: leave no credentials behind.
        if (options.readyFile) rmSync(options.readyFile, { force: true });
      })();
      return closing;
    },
  };
}

/**
 * Checks `--public-url`: an absolute http(s) URL without credentials, path, query or fragment; returns its origin.
 * @example publicOrigin('https://sandbox.partner.example/') // 'https://sandbox.partner.example'
 */
export function publicOrigin(value: string): string {
  // Quoted back with any password masked: a URL pasted with credentials must not print them.
  const shown = maskUrl(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--public-url must be an absolute http(s) URL such as https://sandbox.example.com (got "${shown}")`,
    );
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new Error(`--public-url must be an http(s) origin without credentials, query or fragment (got "${shown}")`);
  if (url.pathname !== '/')
    throw new Error(`--public-url must be an origin without a path: the API lives at /api/public/v1 (got "${shown}")`);
  return url.origin;
}
