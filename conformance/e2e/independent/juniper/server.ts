// startJuniper(): two loopback listeners (main and alternate base URL) over one state, an OAuth client
// released for two tenants, a third tenant that exists but is not released (403), and close().
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setUtcOffset } from './catalog.ts';
import { handle } from './routes.ts';
import type { JuniperOptions, State } from './types.ts';

export type Juniper = {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
};

export const DEFAULT_OPTIONS: JuniperOptions = {
  rateLimit: 1200,
  windowMs: 60_000,
  activationDelayMs: 400,
  redactKeyOnReplay: false,
  deliveryLogCurrentOnly: false,
  auditOldestFirst: false,
  tokenTtlSeconds: 1800,
  replayRefusals: false,
  utcOffsetMinutes: 0,
  replicaLagMs: 0,
  auditMaxPerPage: 100,
  jobDelayMs: 0,
  auditRefusals: false,
  sseCrlf: false,
  sseMultiline: false,
  sseKindInData: false,
  streamMaxMs: 0,
  relativeLinks: false,
  openapiServerVariables: false,
  connectionsNewestFirst: false,
  retrySameDelivery: false,
};

function newState(options: JuniperOptions, clientId: string, secret: string, tenants: string[], all: string[]): State {
  return {
    options,
    clients: new Map([[clientId, { secret, tenants }]]),
    tenants: new Set(all),
    tokens: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    issuedKeys: new Map(),
    stream: { seq: 0, messages: [], listeners: new Set() },
    audit: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    windows: new Map(),
    timers: new Set(),
    closed: false,
  };
}

function listen(state: State, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    handle(state, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Keep-alive like nginx's keepalive_timeout 65 s is too long for tests; 5 s is plenty for a client.
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function startJuniper(
  options: Partial<JuniperOptions> = {},
  ports: { port?: number; altPort?: number } = {},
): Promise<Juniper> {
  const clientId = 'juniper-integration';
  const clientSecret = `jsec_${randomBytes(20).toString('hex')}`;
  const [tenant, otherTenant, foreignTenant] = ['juniper-harbor', 'juniper-meadow', 'juniper-summit'];
  setUtcOffset(options.utcOffsetMinutes ?? 0);
  const state = newState(
    { ...DEFAULT_OPTIONS, ...options },
    clientId,
    clientSecret,
    [tenant, otherTenant],
    [tenant, otherTenant, foreignTenant],
  );
  const main = await listen(state, ports.port ?? 0);
  const alt = await listen(state, ports.altPort ?? 0);
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = url(main);
  return {
    baseUrl,
    altBaseUrl: url(alt),
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        [main, alt].map(
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
