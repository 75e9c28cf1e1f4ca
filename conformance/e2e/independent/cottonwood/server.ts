// Two loopback listeners over one store: the main and the alternate address of the same deployment.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { TOKEN_PATH } from './auth.ts';
import { CatalogRoutes } from './catalog.ts';
import { IdempotencyStore } from './idempotency.ts';
import { RateLimiter } from './rate-limit.ts';
import { ResourceRoutes } from './resources.ts';
import { Router } from './router.ts';
import { CLIENT_ID, CLIENT_SECRET, type CottonwoodOptions, createStore, TENANTS } from './state.ts';
import { StatusStream } from './stream.ts';
import { DeliveryQueue } from './webhook-queue.ts';
import { WebhookRoutes } from './webhooks.ts';

export type { CottonwoodOptions } from './state.ts';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts cottonwood on two free loopback ports; `close()` stops both and every pending delivery. */
export async function startCottonwood(options: CottonwoodOptions = {}) {
  const store = createStore(options);
  const idem = new IdempotencyStore();
  const stream = new StatusStream(store.options.streamRelayMs, store.options.streamMaxMs, store.options.streamUnnamed);
  const queue = new DeliveryQueue(store);
  const audit = new AuditLog(store);
  const router = new Router(store, new RateLimiter(store), stream, audit, {
    catalog: new CatalogRoutes(),
    resources: new ResourceRoutes(store, idem, stream, queue, audit),
    webhooks: new WebhookRoutes(store, idem, queue, audit),
  });
  const main = createServer((req, res) => void router.handle(req, res));
  const alt = createServer((req, res) => void router.handle(req, res));
  const [port, altPort] = [await listen(main), await listen(alt)];
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const timer of store.timers) clearTimeout(timer);
      stream.close();
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise((r) => s.close(() => r(undefined)))));
    },
  };
}
