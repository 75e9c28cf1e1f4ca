// startSassafras(): two loopback listeners (main and alternate base address) over one shared store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_ID, CLIENT_SECRET, TOKEN_PATH } from './auth.ts';
import { handle } from './router.ts';
import { type SassafrasOptions, Store, TENANTS } from './state.ts';
import { closeStreams } from './stream.ts';

export type { SassafrasOptions } from './state.ts';

export interface SassafrasDeployment {
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

function listen(store: Store, port = 0): Promise<Server> {
  const server = createServer((req, res) => {
    void handle(store, req, res);
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function startSassafras(
  options: SassafrasOptions & { port?: number; altPort?: number } = {},
): Promise<SassafrasDeployment> {
  const store = new Store(options);
  const main = await listen(store, options.port);
  const alt = await listen(store, options.altPort);
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = url(main);
  return {
    baseUrl,
    altBaseUrl: url(alt),
    tenant: TENANTS.released[0] ?? '',
    otherTenant: TENANTS.released[1] ?? '',
    foreignTenant: TENANTS.notReleased[0] ?? '',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      store.clear();
      closeStreams(store);
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
