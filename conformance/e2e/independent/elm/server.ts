// elm: an independent deployment of the interface (ASP.NET Core habits on plain node:http).
// Two loopback ports share one state: the main and the alternate base address.
import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAudit } from './audit.ts';
import { createAuth, TOKEN_LIFETIME_S } from './auth.ts';
import { createIdempotency } from './idempotency.ts';
import type { ElmDeps } from './routes.ts';
import { route } from './routes.ts';
import { createStore, publish, TENANTS } from './state.ts';
import { createWebhooks, fanOut } from './webhooks.ts';

export type ElmOptions = {
  port?: number;
  altPort?: number;
  rateLimit?: number;
  windowMs?: number;
  activationMs?: number;
  streamMaxMs?: number;
  outboxPollMs?: number;
  serviceVersionRequired?: boolean;
  tokenLifetimeS?: number;
  auditMaxLimit?: number;
};

export type Elm = {
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

const CLIENT_ID = 'elm-partner-ci';
const CLIENT_SECRET = 'elm-Secret-9f1c2a7d4b6e8035-local';

export async function startElm(options: ElmOptions = {}): Promise<Elm> {
  const store = createStore();
  const webhooks = createWebhooks(options.outboxPollMs ?? 500);
  const deps: ElmDeps = {
    store,
    webhooks,
    idem: createIdempotency(),
    audit: createAudit(options.auditMaxLimit ?? 100),
    auth: createAuth({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenLifetimeS: options.tokenLifetimeS ?? TOKEN_LIFETIME_S,
    }),
    activationMs: options.activationMs ?? 1000,
    streamMaxMs: options.streamMaxMs ?? 30_000,
    serviceVersionRequired: options.serviceVersionRequired ?? false,
    emit: (tenant, type, data) => {
      publish(store, type, data);
      fanOut(webhooks, tenant, type, data);
    },
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void route(req, res, deps);
  };
  const servers: Server[] = [createServer(handler), createServer(handler)];
  const ports = [options.port ?? 0, options.altPort ?? 0];
  const urls: string[] = [];
  for (const [i, server] of servers.entries()) {
    server.keepAliveTimeout = 5000;
    server.listen(ports[i], '127.0.0.1');
    await once(server, 'listening');
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  const [baseUrl = '', altBaseUrl = ''] = urls;
  return {
    baseUrl,
    altBaseUrl,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}/connect/token`,
    async close() {
      if (webhooks.timer) clearInterval(webhooks.timer);
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
