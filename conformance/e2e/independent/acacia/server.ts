// acacia: an independent deployment of the Network Connections interface, written from interface.md alone in
// the style of a MuleSoft Anypoint team (experience API in front of a system API). Two loopback listeners
// (main and alternate base address, like two CloudHub workers) share one state.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAudit } from './audit.ts';
import { CLIENT, TENANTS } from './catalog.ts';
import { closeQueue, createQueue } from './mq.ts';
import { TOKEN_PATH } from './oauth.ts';
import { handle } from './router.ts';
import { type AcaciaOptions, createState, type State } from './state.ts';
import { createStream } from './stream.ts';

export type { AcaciaOptions } from './state.ts';

export interface AcaciaDeployment {
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

function listen(state: State, port: number): Promise<{ server: Server; url: string }> {
  return new Promise((resolve, reject) => {
    let url = '';
    const server = createServer((req, res) => {
      handle(state, req, res, url).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    server.keepAliveTimeout = 5000;
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ server, url });
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts acacia on two loopback ports (0: any free port). */
export async function startAcacia(
  options: AcaciaOptions & { port?: number; altPort?: number } = {},
): Promise<AcaciaDeployment> {
  const state = createState(options, createStream(), createQueue(), createAudit());
  const main = await listen(state, options.port ?? 0);
  const alt = await listen(state, options.altPort ?? 0);
  return {
    baseUrl: main.url,
    altBaseUrl: alt.url,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    tokenUrl: `${main.url}${TOKEN_PATH}`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      for (const res of state.stream.sockets) res.end();
      await closeQueue(state.queue);
      await Promise.all([stop(main.server), stop(alt.server)]);
    },
  };
}
