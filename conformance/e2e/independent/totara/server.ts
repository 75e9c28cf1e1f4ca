// totara: the Network Connections Service as a Node team would build it on Fastify with TypeBox, Prisma, @fastify/jwt,
// @fastify/rate-limit, BullMQ and Redis Streams, ported to plain node:http with every table, queue and stream in
// memory. Two loopback listeners (the base address and the alternate one) share one App.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from './app.ts';
import { TOKEN_PATH } from './auth.ts';
import { DEFAULTS, type TotaraOptions } from './types.ts';

export type { TotaraOptions } from './types.ts';

export interface TotaraHandle {
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

/**
 * Starts totara on two loopback ports sharing one state.
 * @example const t = await startTotara({ rateLimitMax: 200 }); ...; await t.close();
 */
export async function startTotara(options: TotaraOptions = {}): Promise<TotaraHandle> {
  const settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const app = new App(settings);
  const clientId = 'totara-ci-client';
  const clientSecret = `tts_${randomBytes(24).toString('base64url')}`;
  const [tenant, otherTenant, foreignTenant] = ['kowhai-cafe', 'rimu-bistro', 'matai-bakery'];
  for (const t of [tenant, otherTenant, foreignTenant]) app.auth.tenants.add(t);
  app.auth.clients.set(clientId, {
    clientId,
    clientSecret,
    tenants: [tenant, otherTenant],
    scope: 'ncs.read ncs.write',
  });
  app.auth.clients.set('totara-bakery-client', {
    clientId: 'totara-bakery-client',
    clientSecret: randomBytes(24).toString('base64url'),
    tenants: [foreignTenant],
    scope: 'ncs.read ncs.write',
  });

  const handler = (req: Parameters<App['handle']>[0], res: Parameters<App['handle']>[1]) => {
    app.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  const main = createServer(handler);
  const alt = createServer(handler);
  const port = await listen(main);
  const altPort = await listen(alt);
  const sweep = setInterval(() => {
    app.limiter.sweep();
    app.idempotency.sweep();
  }, 30_000);
  sweep.unref();

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: `http://127.0.0.1:${port}${TOKEN_PATH}`,
    async close() {
      clearInterval(sweep);
      app.connections.close();
      app.webhooks.close();
      await Promise.all([stop(main), stop(alt)]);
    },
  };
}
