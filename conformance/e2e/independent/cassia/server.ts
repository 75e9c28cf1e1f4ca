// cassia: an independent deployment of the interface, written from interface.md alone in the style of a
// Clojure team on Pedestal (interceptor chains, Cheshire instants with microseconds, prefixed bigserial ids,
// offset/limit paging with a `next` link, a token bucket per access, tenant and environment, a go-loop for
// webhooks, buddy-sign for the audit head). Two loopback listeners share one store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from './auth.ts';
import { newCtx, readBody } from './http.ts';
import { handle } from './routes.ts';
import { type CassiaOptions, createStore } from './state.ts';

export type { CassiaOptions } from './state.ts';

export interface CassiaHandle {
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

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Starts cassia on two loopback ports (main and alternate address, one store).
 * @example const cassia = await startCassia({ burst: 250, refillPerSecond: 50 });
 */
export async function startCassia(options: CassiaOptions = {}): Promise<CassiaHandle> {
  const store = createStore(options);
  const open = new Set<() => void>();
  const make = () =>
    createServer((req, res) => {
      readBody(req)
        .then((raw) => handle(newCtx(store, req, res, raw), open))
        .catch(() => res.destroy());
    });
  const main = make();
  const alt = make();
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  const client = [...store.clients.entries()][0];
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'tn-larkspur-bistro',
    otherTenant: 'tn-quayside-deli',
    foreignTenant: 'tn-ember-grill',
    clientId: client?.[0] ?? '',
    clientSecret: client?.[1].secret ?? '',
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const stop of [...open]) stop();
      for (const t of store.timers) clearTimeout(t);
      store.timers.clear();
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
