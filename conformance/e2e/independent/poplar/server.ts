// startPoplar(): two loopback ports (main and alternate base address, like two ESPv2 hostnames in front of one
// Cloud Run service) sharing one state, plus the token endpoint on the same origins.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handle } from './routes.ts';
import { newState, type PoplarOptions, type State } from './state.ts';
import { closeStreams } from './stream.ts';

export type { PoplarOptions } from './state.ts';

export interface PoplarTarget {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  state: State;
  close(): Promise<void>;
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startPoplar(
  options: PoplarOptions = {},
  ports: [number, number] = [0, 0],
): Promise<PoplarTarget> {
  const state = newState(options);
  const make = () => {
    const srv = createServer((req, res) => void handle(state, req, res));
    srv.keepAliveTimeout = 5000;
    return srv;
  };
  const main = make();
  const alt = make();
  const [p1, p2] = [await listen(main, ports[0]), await listen(alt, ports[1])];
  const baseUrl = `http://127.0.0.1:${p1}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${p2}`,
    tenant: 'poplar-orchard',
    otherTenant: 'poplar-grove',
    foreignTenant: 'poplar-ridge',
    clientId: state.auth.clientId,
    clientSecret: state.auth.clientSecret,
    tokenUrl: `${baseUrl}/oauth2/v4/token`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(state);
      for (const srv of [main, alt]) srv.closeAllConnections();
      await Promise.all([main, alt].map((srv) => new Promise<void>((r) => srv.close(() => r()))));
    },
  };
}
