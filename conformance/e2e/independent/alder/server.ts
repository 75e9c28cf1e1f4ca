// startAlder(): two loopback listeners (main and alternate base address) over one shared state, an OAuth
// client-credentials token endpoint at /oauth/token, three tenants (two released, one not).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handle } from './pipeline.ts';
import { type AlderOptions, createState } from './state.ts';
import { closeStreams } from './stream.ts';

export type { AlderOptions } from './state.ts';

export interface AlderTarget {
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

export async function startAlder(options: AlderOptions = {}): Promise<AlderTarget> {
  const clientId = 'alder-integration';
  const clientSecret = `alder_cs_${randomBytes(18).toString('hex')}`;
  const tenants = ['alder-harbour', 'alder-meadow', 'alder-quarry'];
  const state = createState(options, clientId, clientSecret, tenants);
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(state, req, res);
    }),
  );
  for (const s of servers) s.keepAliveTimeout = 5000;
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: tenants[0] ?? '',
    otherTenant: tenants[1] ?? '',
    foreignTenant: tenants[2] ?? '',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(state);
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
