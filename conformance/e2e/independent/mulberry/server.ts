// mulberry: an independent deployment of the interface, written from interface.md alone, the way a
// Go team (chi, sqlc) would write it on node:http. Two loopback listeners share one state.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from './auth.ts';
import { newCtx } from './http.ts';
import { dispatch } from './router.ts';
import { createState, type Options } from './state.ts';
import { publish } from './stream.ts';
import { installDispatch } from './webhooks.ts';

export type { Options as MulberryOptions } from './state.ts';

export interface Mulberry {
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

export async function startMulberry(options: Options = {}): Promise<Mulberry> {
  const state = createState(options);
  installDispatch(state);
  publish(state, '', 'service.status', { status: 'operational', message: 'All systems normal.' });
  const servers: Server[] = [];
  const origins: string[] = [];
  for (const port of [options.port ?? 0, options.altPort ?? 0]) {
    const server = createServer((req, res) => {
      void dispatch(newCtx(req, res, state, origins[servers.indexOf(server)] ?? 'http://127.0.0.1'));
    });
    server.keepAliveTimeout = 5000;
    servers.push(server);
    origins.push(`http://127.0.0.1:${await listen(server, port)}`);
  }
  const [main = '', alt = ''] = origins;
  const clientId = 'mulberry-ci';
  const clientSecret = state.clients.get(clientId)?.secret ?? '';
  return {
    baseUrl: main,
    altBaseUrl: alt,
    tenant: 'tea-house',
    otherTenant: 'noodle-bar',
    foreignTenant: 'closed-bakery',
    clientId,
    clientSecret,
    tokenUrl: `${main}${TOKEN_PATH}`,
    close: async () => {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
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
