// almond: an independent deployment of the Network Connections Service interface in the style of an Eclipse
// Vert.x team, ported to node:http. Composition root: settings, shared state, one Router on two loopback
// listeners (the base address and the alternate base address), the client and its tenants.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from './auth.ts';
import { createRouter } from './router.ts';
import { closeApp, createApp, seed } from './state.ts';
import type { AlmondOptions, Settings } from './types.ts';

export type { AlmondOptions } from './types.ts';

export interface AlmondHandle {
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
  tokenTtlSeconds: 300,
  unknownVersion: 'reject',
  transitionMs: 500,
  listLagMs: 0,
  auditCheckpointEvery: 5,
  webhookAttempts: 4,
  webhookRetryMs: 500,
  breakerMaxFailures: 5,
  breakerResetMs: 10_000,
  idempotencyKeyTtlSeconds: 86_400,
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function shut(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startAlmond(options: AlmondOptions = {}): Promise<AlmondHandle> {
  const settings: Settings = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options))
    if (v !== undefined) (settings as unknown as Record<string, unknown>)[k] = v;
  const app = createApp(settings);
  const tenant = 'trattoria-nord';
  const otherTenant = 'trattoria-sued';
  const foreignTenant = 'bistro-fremd';
  const clientId = `almond-ci-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  seed(app, { clientId, clientSecret, released: [tenant, otherTenant], foreign: foreignTenant });
  const router = createRouter(app);
  const main = createServer(router);
  const alt = createServer(router);
  const [port, altPort] = await Promise.all([listen(main), listen(alt)]);
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
      closeApp(app);
      await Promise.all([shut(main), shut(alt)]);
    },
  };
}
