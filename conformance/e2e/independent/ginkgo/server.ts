// startGinkgo(): the deployment on two loopback ports (main and alternate base address) sharing one state.
// Tenants: ginkgo-east and ginkgo-west are released for the client, ginkgo-north exists but is not (403).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import type { AuthState } from './auth.ts';
import { TOKEN_PATH } from './openapi.ts';

export interface GinkgoOptions {
  /** Calls per window per token and tenant (default 600). */
  rateLimit?: number;
  /** Rate-limit window in ms (default 15,000). */
  windowMs?: number;
  /** Token lifetime in ms (default 900,000). */
  tokenTtlMs?: number;
  /** pending -> ready after this many ms (default 300). */
  activationMs?: number;
  /** ready -> paused after this many ms (default: never). */
  pauseAfterMs?: number;
  /** Stream messages kept for resumption (default 1,000). */
  streamKeep?: number;
  /** Refuse calls without Service-Version (default: optional). */
  versionRequired?: boolean;
  /** Fixed ports (default: any free ones). */
  port?: number;
  altPort?: number;
  clientSecret?: string;
  accessLog?: boolean;
  /** Without a cursor the stream replays what it keeps (default: live messages only). */
  streamFromStart?: boolean;
  /** A resend logs a new delivery with its own logId (default: one more attempt of the logged one). */
  resendAsNew?: boolean;
  tokenAdvert?: 'absolute' | 'relative' | 'openapi';
  /** Idempotency also stores refusals (400, 404, 409) and replays them (default: only 200 answers). */
  storeRefusals?: boolean;
}

export interface GinkgoDeployment {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startGinkgo(options: GinkgoOptions = {}): Promise<GinkgoDeployment> {
  const auth: AuthState = {
    clientId: 'ginkgo-partner',
    clientSecret: options.clientSecret ?? `gks_${randomBytes(18).toString('base64url')}`,
    released: new Set(['ginkgo-east', 'ginkgo-west']),
    known: new Set(['ginkgo-east', 'ginkgo-west', 'ginkgo-north']),
    tokenTtlMs: options.tokenTtlMs ?? 900_000,
    tokens: new Map(),
    rateLimit: options.rateLimit ?? 600,
    windowMs: options.windowMs ?? 15_000,
    windows: new Map(),
  };
  const app = createApp({
    auth,
    activationMs: options.activationMs ?? 300,
    pauseAfterMs: options.pauseAfterMs,
    streamKeep: options.streamKeep ?? 1000,
    versionRequired: options.versionRequired ?? false,
    accessLog: options.accessLog,
    streamFromStart: options.streamFromStart,
    resendAsNew: options.resendAsNew,
    tokenAdvert: options.tokenAdvert,
    storeRefusals: options.storeRefusals,
  });
  const servers = [createServer(app.handle), createServer(app.handle)];
  for (const s of servers) {
    s.keepAliveTimeout = 5000;
  }
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'ginkgo-east',
    otherTenant: 'ginkgo-west',
    foreignTenant: 'ginkgo-north',
    clientId: auth.clientId,
    clientSecret: auth.clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    close: async () => {
      app.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
