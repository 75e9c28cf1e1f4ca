// startYarrow(): two loopback ports (the main and the alternate base address) over one shared state, the
// OAuth token endpoint on both.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_PATH } from './auth.ts';
import { CLIENT_ID, CLIENT_SECRET, FOREIGN_TENANT, OTHER_TENANT, TENANT } from './catalog.ts';
import { resolveOptions, type YarrowOptions } from './options.ts';
import { createHandler } from './router.ts';
import { createState } from './state.ts';

export interface YarrowDeployment {
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

export async function startYarrow(options: YarrowOptions = {}): Promise<YarrowDeployment> {
  const state = createState(resolveOptions(options));
  const handler = createHandler(state);
  const main = createServer(handler);
  const alt = createServer(handler);
  const servers = [main, alt];
  for (const s of servers) s.keepAliveTimeout = 5000;
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      state.messenger.close();
      for (const t of state.timers) clearTimeout(t);
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
