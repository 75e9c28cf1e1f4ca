// startTamarack(): two loopback listeners (main and alternate base address) over one shared state, the
// authorization server on the main origin, and the tenants and client a conformance run needs.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import { createAuditLog } from './audit.ts';
import { handle } from './gateway.ts';
import { createIdempotencyStore } from './idempotency.ts';
import { createStatusStream } from './kafka-stream.ts';
import { createOAuth, SCOPES } from './oauth.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createStore, type Options } from './store.ts';
import { createRelay } from './webhooks.ts';

export type { Options as TamarackOptions } from './store.ts';

export const TENANT = 'tamarack-harbour';
export const OTHER_TENANT = 'tamarack-lakeside';
/** Exists, but the conformance client is not released for it: 403. */
export const FOREIGN_TENANT = 'tamarack-summit';
export const CLIENT_ID = 'tamarack-partner-ci';

export interface Tamarack {
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

export async function startTamarack(options: Options & { port?: number; altPort?: number } = {}): Promise<Tamarack> {
  const store = createStore(options);
  const clientSecret = options.clientSecret ?? `tmk_cs_${randomBytes(24).toString('base64url')}`;
  const expires = new Date(Date.now() + 90 * 86400_000).toISOString();
  store.tenants = new Set([TENANT, OTHER_TENANT, FOREIGN_TENANT]);
  store.clients.set(CLIENT_ID, {
    id: CLIENT_ID,
    secret: clientSecret,
    tenants: [TENANT, OTHER_TENANT],
    scopes: SCOPES,
    purpose: 'conformance runs in CI',
    owner: 'integration team',
    expiresAt: expires,
  });
  // A second client acts for the foreign tenant only, so that tenant is real but not released to the first.
  store.clients.set('tamarack-summit-pos', {
    id: 'tamarack-summit-pos',
    secret: randomBytes(24).toString('base64url'),
    tenants: [FOREIGN_TENANT],
    scopes: SCOPES,
    purpose: 'summit POS sync',
    owner: 'summit venues',
    expiresAt: expires,
  });
  let origin = '';
  const app: App = {
    store,
    idem: createIdempotencyStore(),
    stream: createStatusStream(store.options),
    relay: createRelay(store),
    audit: createAuditLog(),
    oauth: createOAuth(store, () => origin),
    limiter: createRateLimiter(store.options.rateLimit, store.options.windowMs),
    timers: new Set(),
  };
  const servers = [0, 1].map(() =>
    createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      void handle(app, req, res);
    }),
  );
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: origin,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: CLIENT_ID,
    clientSecret,
    tokenUrl: `${origin}/oauth2/token`,
    async close() {
      app.relay.close();
      app.stream.close();
      for (const t of app.timers) clearTimeout(t);
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
