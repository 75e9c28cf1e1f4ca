// Starts tamarind: the Flask app behind two loopback listeners (main and alternate address) sharing one
// store, with the Keycloak realm's endpoints served on the main origin (one process for the sandbox).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler } from './api.ts';
import { Realm } from './auth.ts';
import { Worker } from './delivery.ts';
import type { App } from './handlers.ts';
import { Limiter } from './rate-limit.ts';
import { Store, type TamarindOptions, TENANTS } from './state.ts';
import { StreamHub } from './stream.ts';
import { dispatch } from './webhooks.ts';

export type { TamarindOptions } from './state.ts';

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Starts the deployment; the handle carries what a CI job reads from its environment. */
export async function startTamarind(options: TamarindOptions = {}) {
  const store = new Store(options);
  const realm = new Realm(store.options.tokenLifetimeSeconds);
  const worker = new Worker(store);
  const hub = new StreamHub();
  const environment = 'sandbox';
  const app: App = {
    store,
    realm,
    worker,
    hub,
    origin: '',
    environment,
    publish: (tenant, event, data) => {
      dispatch(store, worker, tenant, event, data);
      // The outbox relay keeps commit order: every change waits the same time before it is streamed.
      const relay = store.options.streamRelayMs;
      if (relay > 0) setTimeout(() => hub.publish(tenant, event, data), relay).unref();
      else hub.publish(tenant, event, data);
    },
  };
  const limiter = new Limiter(store.options.rateLimit, store.options.windowMs, environment);
  const main = createServer(handler(app, limiter));
  const alt = createServer(handler(app, limiter));
  const [port, altPort] = await Promise.all([listen(main), listen(alt)]);
  app.origin = `http://127.0.0.1:${port}`;
  realm.issuer = `${app.origin}/realms/ncs-sandbox`;
  return {
    baseUrl: app.origin,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: realm.client.clientId,
    clientSecret: realm.client.secret,
    tokenUrl: `${app.origin}/realms/ncs-sandbox/protocol/openid-connect/token`,
    async close(): Promise<void> {
      worker.stop();
      hub.closeAll();
      await Promise.all([close(main), close(alt)]);
    },
  };
}
