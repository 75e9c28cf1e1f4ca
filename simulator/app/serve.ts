import type { Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { createNodeServer, type TransportLimits } from '../adapters/node-server.ts';
import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts';

export { DEFAULT_TRANSPORT_LIMITS, type TransportLimits } from '../adapters/node-server.ts';

export interface ServeOptions extends Omit<SandboxOptions, 'baseUrl'> {
  host?: string;
  port?: number;
  /** Also listen here (same host): the interface's second address, served by the same state. */
  altPort?: number;
  /** Write {baseUrl, altBaseUrl?, token, tenant, adminToken} as JSON here once listening. */
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
  const transport = { maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024, limits: options.limits ?? {} };
  const main = createNodeServer(sandbox.core, transport);
  const alt = options.altPort !== undefined ? createNodeServer(sandbox.altCore, transport) : undefined;
  const baseUrl = await main.listen(options.port ?? 4010, host);
  const altBaseUrl = alt && options.altPort !== undefined ? await alt.listen(options.altPort, host) : undefined;
  await sandbox.ready;
  const { token, tenant } = sandbox.issueToken(undefined, 24 * 3600);
  if (options.readyFile) writeReadyFile(options.readyFile, { baseUrl, altBaseUrl, token, tenant, sandbox });
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    server: main.server,
    baseUrl,
    token,
    tenant,
    ...(altBaseUrl ? { altBaseUrl } : {}),
    close() {
      closing ??= (async () => {
        await Promise.all([main.close(), alt?.close()]);
        await sandbox.state.close();
      })();
      return closing;
    },
  };
}

/** The file `ncs serve --ready-file` writes once listening: where to reach the server and a token to do it. */
function writeReadyFile(
  file: string,
  r: { baseUrl: string; altBaseUrl: string | undefined; token: string; tenant: string; sandbox: Sandbox },
): void {
  const body = {
    baseUrl: r.baseUrl,
    altBaseUrl: r.altBaseUrl,
    token: r.token,
    tenant: r.tenant,
    adminToken: r.sandbox.adminToken,
  };
  writeFileSync(file, JSON.stringify(body, null, 2));
}
