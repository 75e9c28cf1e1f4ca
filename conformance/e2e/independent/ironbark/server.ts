// ironbark: the Network Connections Service as an F# team would build it on Saturn/Giraffe with Marten and
// Hangfire, ported to node:http with all state in memory. Two loopback listeners share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Auth, RateLimiter } from './auth.ts';
import { handle } from './pipeline.ts';
import { Store } from './store.ts';
import type { App, IronbarkOptions } from './types.ts';
import { Webhooks } from './webhooks.ts';

export type { IronbarkOptions } from './types.ts';

export interface IronbarkHandle {
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

const DEFAULTS: Required<IronbarkOptions> = {
  rateLimit: 1000,
  windowMs: 20_000,
  projectionLagMs: 250,
  tokenTtlSeconds: 3600,
  unknownVersion: 'reject',
  transitionMs: 400,
  webhookAttempts: 5,
  webhookRetryMs: 1000,
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startIronbark(options: IronbarkOptions = {}): Promise<IronbarkHandle> {
  const opts: Required<IronbarkOptions> = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (opts as Record<string, unknown>)[k] = v;
  const tenant = 'contoso-gastro-north';
  const otherTenant = 'contoso-gastro-south';
  const foreignTenant = 'fabrikam-hospitality';
  const clientId = `ironbark-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const store = new Store(opts.projectionLagMs);
  const app: App = {
    store,
    auth: new Auth(
      { clientId, clientSecret, tenants: [tenant, otherTenant] },
      [tenant, otherTenant, foreignTenant],
      opts.tokenTtlSeconds,
      'sandbox',
    ),
    limiter: new RateLimiter(opts.rateLimit, opts.windowMs),
    webhooks: new Webhooks(store, opts.webhookAttempts, opts.webhookRetryMs),
    options: opts,
    environment: 'sandbox',
    tokenPath: '/connect/token',
  };
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(app, req, res);
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
      store.close();
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
