// guava: an independent deployment of the Network Connections Service interface, written the way a Perl
// team on Mojolicious would build it, ported to node:http. Two loopback listeners (main and alternate
// address) share one store; three tenants exist, two released to the test client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from './auth.ts';
import { handle } from './dispatch.ts';
import { createStore, type GuavaOptions, PREFIX, TENANTS } from './state.ts';

export type { GuavaOptions } from './state.ts';

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Starts guava on two free loopback ports.
 * @example const guava = await startGuava({ windowMs: 2000 }); ...; await guava.close();
 */
export async function startGuava(options: GuavaOptions = {}) {
  const store = createStore(options);
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(store, req, res);
    }),
  );
  const [main, alt] = servers;
  if (!main || !alt) throw new Error('guava: servers not created');
  const port = await listen(main);
  const altPort = await listen(alt);
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}${PREFIX}`,
    altBaseUrl: `http://127.0.0.1:${altPort}${PREFIX}`,
    tenant: TENANTS[0] ?? '',
    otherTenant: TENANTS[1],
    foreignTenant: TENANTS[2],
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl: `${origin}${TOKEN_PATH}`,
    async close(): Promise<void> {
      store.closed = true;
      for (const timer of store.timers) clearTimeout(timer);
      store.timers.clear();
      await Promise.all(
        servers.map(
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
