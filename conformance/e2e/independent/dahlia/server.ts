// dahlia: an independent deployment of the interface (TypeScript on plain node:http, hosted-IdP style auth).
// Two loopback ports share one state: the main and the alternate base address.

import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { createAudit } from './audit.ts';
import { createIssuer } from './auth.ts';
import { createConnections } from './connections.ts';
import { createIdempotency } from './idempotency.ts';
import { createRateLimit } from './rate-limit.ts';
import { createStreams } from './stream.ts';
import { iso, randomToken } from './util.ts';
import { createWebhooks } from './webhooks.ts';

export interface DahliaOptions {
  alg?: 'RS256' | 'HS256';
  tokenLifetimeSeconds?: number;
  rateLimit?: number;
  windowMs?: number;
  port?: number;
  altPort?: number;
}
export interface Dahlia {
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

async function listen(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startDahlia(options: DahliaOptions = {}): Promise<Dahlia> {
  const [tenant, otherTenant] = ['dahlia-orchard', 'dahlia-meadow'];
  const released = [tenant, otherTenant];
  const foreignTenant = 'dahlia-greenhouse'; // exists, but this client is not released for it
  const clientId = 'dahlia-partner-backend';
  const clientSecret = randomToken(32);
  const issuer = createIssuer({
    alg: options.alg ?? 'RS256',
    lifetimeSeconds: options.tokenLifetimeSeconds ?? 120,
    clientId,
    clientSecret,
    tenants: released,
  });
  const streams = createStreams();
  const webhooks = createWebhooks();
  const audit = createAudit();
  const connections = createConnections((tenant, event, live) => {
    const at = iso();
    // A snapshot: a retained message must not change when the connection later moves on (resumption
    // delivers it again unchanged).
    const c = structuredClone(live);
    streams.publish(`tenant:${tenant}`, event, { at, connection: c });
    // The public stream carries no tenant data: the state change and the connection id only.
    streams.publish('public', event, { at, connectionId: c.id, state: c.state });
    webhooks.dispatch(tenant, event, { connection: c });
    audit.record(tenant, event, event === 'connection.created' ? clientId : 'dahlia', { type: 'connection', id: c.id });
  });
  const app = createApp({
    services: { connections, idempotency: createIdempotency(), webhooks, audit },
    issuer,
    rateLimit: createRateLimit(options.rateLimit ?? 40, options.windowMs ?? 10_000),
    streams,
    tenants: [...released, foreignTenant],
  });
  const main = createServer();
  const alt = createServer();
  const baseUrl = await listen(main, options.port ?? 0);
  const altBaseUrl = await listen(alt, options.altPort ?? 0);
  // Each address answers with its own origin (links in metadata name the address that was called).
  main.on('request', (req, res) => void app(req, res, baseUrl));
  alt.on('request', (req, res) => void app(req, res, altBaseUrl));
  for (const s of [main, alt]) s.keepAliveTimeout = 5000;
  return {
    baseUrl,
    altBaseUrl,
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/auth/oauth/token`,
    async close() {
      webhooks.close();
      streams.closeAll();
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
