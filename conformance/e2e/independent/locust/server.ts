// The locust deployment (a Python Falcon team's service, ported to node:http): two loopback listeners (main and
// alternate address) over one store, seeded with three tenants and one OAuth client released to two of them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newContext, readRaw } from './http.ts';
import { route, TOKEN_PATH } from './router.ts';
import { type LocustOptions, Store } from './state.ts';

export type { LocustOptions } from './state.ts';

function listen(store: Store): Promise<Server> {
  const server = createServer((req, res) => {
    readRaw(req)
      .then((raw) => route(store, newContext(req, res, raw)))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
      });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function url(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1`;
}

/** Starts locust on two free loopback ports; `close()` ends streams, timers and both listeners. */
export async function startLocust(options: LocustOptions = {}) {
  const store = new Store(options);
  store.tenants.set('bistro-nord', { released: true });
  store.tenants.set('cafe-hafen', { released: true });
  store.tenants.set('imbiss-sued', { released: false });
  store.clients.set('locust-ci', { secret: 'locust-ci-secret-2b7f', tenants: ['bistro-nord', 'cafe-hafen'] });
  const main = await listen(store);
  const alt = await listen(store);
  store.baseUrl = url(main);
  return {
    baseUrl: url(main),
    altBaseUrl: url(alt),
    tenant: 'bistro-nord',
    otherTenant: 'cafe-hafen',
    foreignTenant: 'imbiss-sued',
    clientId: 'locust-ci',
    clientSecret: 'locust-ci-secret-2b7f',
    tokenUrl: `${new URL(url(main)).origin}${TOKEN_PATH}`,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      for (const s of store.streams) s.res.end();
      store.streams.clear();
      await Promise.all(
        [main, alt].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
