// startSpruce(): the deployment on loopback. Two API listeners (main and alternate base address) share
// one state; a third listener plays Microsoft Entra ID (the token endpoint and its metadata).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuditLog } from './audit.ts';
import { type Client, createAuthority } from './auth.ts';
import { createConnectionStore } from './connections.ts';
import { type Deps, type SpruceOptions, withDefaults } from './deps.ts';
import { createRateLimiter } from './gateway.ts';
import { createIdempotencyStore } from './idempotency.ts';
import { handle } from './pipeline.ts';
import { createStatusStream } from './stream.ts';
import { createWebhookService } from './webhooks.ts';

export type { SpruceOptions } from './deps.ts';

export interface SpruceTarget {
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

const TENANTS = { tenant: 'contoso-bistro', otherTenant: 'fabrikam-diner', foreignTenant: 'northwind-grill' };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startSpruce(options: SpruceOptions = {}): Promise<SpruceTarget> {
  const opts = withDefaults(options);
  // Fixture credentials of a throwaway sandbox process, made fresh per start (never real secrets).
  const clientId = crypto.randomUUID();
  const clientSecret = `spruce~${crypto.randomUUID().replaceAll('-', '')}`;
  const clients = new Map<string, Client>([
    [
      clientId,
      {
        secret: clientSecret,
        tenants: [TENANTS.tenant, TENANTS.otherTenant],
        roles: ['Network.Read', 'Connections.ReadWrite'],
      },
    ],
  ]);
  const authServer = createServer();
  const authBase = await listen(authServer);
  const authority = createAuthority(authBase, clients, opts.tokenTtlSeconds);
  authServer.on('request', (req, res) => {
    authority.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"server_error"}');
    });
  });
  const stream = createStatusStream(opts);
  const webhooks = createWebhookService(opts);
  const deps: Deps = {
    options: opts,
    authority,
    stream,
    webhooks,
    idem: createIdempotencyStore(),
    audit: createAuditLog(),
    connections: createConnectionStore(opts, stream, webhooks),
  };
  const limiter = createRateLimiter(opts.rateLimit, opts.windowMs);
  const main = createServer();
  const alt = createServer();
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  main.on('request', (req, res) => void handle(req, res, baseUrl, deps, limiter));
  alt.on('request', (req, res) => void handle(req, res, altBaseUrl, deps, limiter));
  return {
    baseUrl,
    altBaseUrl,
    ...TENANTS,
    clientId,
    clientSecret,
    tokenUrl: authority.tokenUrl,
    async close() {
      stream.closeAll();
      webhooks.close();
      deps.connections.close();
      await Promise.all([shut(main), shut(alt), shut(authServer)]);
    },
  };
}
