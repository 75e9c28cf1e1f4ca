// kowhai: the Network Connections Service as a Node team would build it on Express 5, express-validator,
// Sequelize/PostgreSQL, express-rate-limit, oauth2-server and Bull, ported to plain node:http in TypeScript with
// all state in memory. Two loopback listeners share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { OAuthServer, RateLimiter } from './auth.ts';
import { ConnectionTable } from './connections.ts';
import { EventTable } from './events.ts';
import { IdempotencyStore } from './idempotency.ts';
import { handle, type Pipeline } from './pipeline.ts';
import { buildRoutes } from './routes.ts';
import type { App, KowhaiOptions, Settings } from './types.ts';
import { WebhookQueue } from './webhooks.ts';

export type { KowhaiOptions } from './types.ts';

export interface KowhaiHandle {
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

const DEFAULTS: Settings = {
  limit: 1000,
  windowMs: 60_000,
  tokenTtlSeconds: 3600,
  activationMs: 300,
  webhookAttempts: 3,
  webhookBackoffMs: 1000,
  auditOrder: 'desc',
  unknownVersion: 'reject',
  idempotencyTtlHours: 24,
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startKowhai(options: KowhaiOptions = {}): Promise<KowhaiHandle> {
  const settings: Settings = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options))
    if (v !== undefined) (settings as unknown as Record<string, unknown>)[k] = v;
  const tenant = 'kowhai-cafe-wellington';
  const otherTenant = 'kowhai-cafe-auckland';
  const foreignTenant = 'rimu-bistro-dunedin';
  const clientId = `kowhai-ci-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const audit = new AuditLog();
  const app: App = {
    settings,
    oauth: new OAuthServer(
      { id: clientId, secret: clientSecret, tenants: [tenant, otherTenant] },
      settings.tokenTtlSeconds,
    ),
    limiter: new RateLimiter(settings.limit, settings.windowMs),
    events: new EventTable(),
    audit,
    idempotency: new IdempotencyStore(settings.idempotencyTtlHours * 3600_000),
    connections: new ConnectionTable(() => app),
    webhooks: new WebhookQueue(() => settings, audit),
    tenants: [tenant, otherTenant, foreignTenant],
    tokenPath: '/oauth/token',
  };
  const pipeline: Pipeline = { app, routes: buildRoutes(app), streams: new Set<ServerResponse>() };
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(pipeline, req, res);
    }),
  );
  const [port, altPort] = await Promise.all(servers.map(listen));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: `http://127.0.0.1:${port}${app.tokenPath}`,
    async close() {
      app.connections.close();
      app.webhooks.close();
      for (const s of pipeline.streams) s.end();
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
