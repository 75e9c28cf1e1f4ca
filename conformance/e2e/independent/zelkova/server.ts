// startZelkova(): two loopback ports (main and alternate base address) over one state, the way zelkova's
// Fiber app runs behind two hostnames with one Postgres behind it.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handle } from './app.ts';
import { AuditLog } from './audit.ts';
import { IdempotencyStore } from './idempotency.ts';
import { slidingLog } from './rate-limit.ts';
import type { State, ZelkovaOptions } from './state.ts';
import { StatusStream } from './stream.ts';
import { WebhookWorker } from './webhooks.ts';

export type { ZelkovaOptions } from './state.ts';

export const TENANTS = { tenant: 'kestrel-foods', otherTenant: 'heron-dining', foreignTenant: 'osprey-hotels' };

export interface ZelkovaHandle {
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

export async function startZelkova(options: ZelkovaOptions = {}): Promise<ZelkovaHandle> {
  const clientId = 'zelkova-integrator';
  const clientSecret = `zk_sandbox_${randomBytes(18).toString('hex')}`;
  const state: State = {
    options,
    auth: {
      jwtSecret: randomBytes(32),
      tokenTtlSec: options.tokenTtlSec ?? 900,
      clients: [
        {
          id: clientId,
          secret: clientSecret,
          tenants: [TENANTS.tenant, TENANTS.otherTenant],
          purpose: 'conformance and integration tests',
          owner: 'platform-team@zelkova.example',
          expiresAt: '2027-06-30T00:00:00.000000+00:00',
        },
      ],
      tenants: Object.values(TENANTS),
      refresh: new Map(),
    },
    idem: new IdempotencyStore(options.storeRefusals ?? false, options.keyScope ?? 'tenant', options.keyTtlMs),
    limiter: slidingLog(options.rateLimit ?? 600, options.windowMs ?? 60_000),
    stream: new StatusStream({
      tenantStreams: options.tenantStreams,
      fromStart: options.streamFromStart,
      relayDelayMs: options.relayDelayMs,
      sseStyle: options.sseStyle,
    }),
    hooks: new WebhookWorker(options.workerPollMs),
    audit: new AuditLog(),
    connections: [],
    timers: new Set(),
    origin: '',
    authOrigin: '',
  };
  type Role = 'api' | 'auth' | 'both';
  const apiRole: Role = options.separateAuth ? 'api' : 'both';
  const roles: Role[] = options.separateAuth ? [apiRole, apiRole, 'auth'] : [apiRole, apiRole];
  const servers = roles.map((role) =>
    createServer({ keepAliveTimeout: 5000 }, (req, res) => void handle(state, req, res, role)),
  );
  const [main, alt, auth] = servers;
  if (!main || !alt) throw new Error('servers not created');
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  state.origin = `http://127.0.0.1:${port}`;
  state.authOrigin = auth ? `http://127.0.0.1:${await listen(auth, 0)}` : state.origin;
  return {
    baseUrl: state.origin,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    ...TENANTS,
    clientId,
    clientSecret,
    tokenUrl: `${state.authOrigin}/auth/v1/token`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.hooks.close();
      state.stream.closeAll();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
