// medlar: the Network Connections Service as a Next.js App Router team on Vercel would build it (route handlers
// per path, Upstash sliding-window rate limiting, m2m tokens, QStash-style webhooks, edge streaming), ported to
// plain node:http with all state in memory. Two loopback listeners share one state.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { Auth, TOKEN_PATH } from './auth.ts';
import { Catalog } from './catalog.ts';
import { Connections } from './connections.ts';
import { dispatch } from './dispatcher.ts';
import { EventBus } from './events.ts';
import { IdempotencyStore } from './idempotency.ts';
import { SlidingWindowRatelimit } from './ratelimit.ts';
import type { App, MedlarOptions, Settings } from './types.ts';
import { Webhooks } from './webhooks.ts';

export type { MedlarOptions } from './types.ts';

export interface MedlarHandle {
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

export const DEFAULTS: Settings = {
  rateLimit: 1200,
  windowMs: 60_000,
  tokenTtlSeconds: 3600,
  unknownVersion: 'reject',
  streamStart: 'replay',
  keepAliveMs: 15_000,
  transitionMs: 300,
  webhookRetries: 3,
  webhookBackoffMs: 1000,
  auditPageSize: 50,
  idempotencyTtlSeconds: 86_400,
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startMedlar(options: MedlarOptions = {}): Promise<MedlarHandle> {
  const settings: Settings = { ...DEFAULTS, ...options };
  const tenants = { released: ['org_trattoria_nord', 'org_bistro_sued'], foreign: 'org_kantine_west' };
  const catalog = new Catalog();
  const events = new EventBus();
  const webhooks = new Webhooks(settings.webhookRetries, settings.webhookBackoffMs);
  const audit = new AuditLog();
  const app: App = {
    settings,
    auth: new Auth(settings.tokenTtlSeconds, tenants),
    ratelimit: new SlidingWindowRatelimit(settings.rateLimit, settings.windowMs),
    catalog,
    connections: new Connections({ catalog, events, webhooks, audit, transitionMs: settings.transitionMs }),
    idempotency: new IdempotencyStore(settings.idempotencyTtlSeconds),
    events,
    webhooks,
    audit,
    tokenPath: TOKEN_PATH,
  };
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let i = 0; i < 2; i++) {
    const server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path === TOKEN_PATH) {
        app.auth.tokenEndpoint(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'server_error' }));
        });
        return;
      }
      if (path.startsWith('/.well-known/oauth-authorization-server')) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(app.auth.metadata(origin)));
        return;
      }
      void dispatch(app, req, res, origin);
    });
    servers.push(server);
    ports.push(await listen(server));
  }
  const [port, altPort] = ports as [number, number];
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: tenants.released[0] as string,
    otherTenant: tenants.released[1] as string,
    foreignTenant: tenants.foreign,
    clientId: app.auth.client.id,
    clientSecret: app.auth.client.secret,
    tokenUrl: `http://127.0.0.1:${port}${TOKEN_PATH}`,
    async close() {
      webhooks.close();
      app.connections.close();
      await Promise.all(servers.map(stop));
    },
  };
}
