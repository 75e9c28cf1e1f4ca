// startOlive(): two loopback listeners (main and alternate base address) over one state, the token
// endpoint and RFC 8414 metadata beside the interface.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { createMux } from './mux.ts';
import { buildRoutes } from './routes.ts';
import { createState, type OliveOptions } from './state.ts';
import { createHub } from './stream.ts';

export type { OliveOptions } from './state.ts';

export interface Olive {
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

export async function startOlive(
  options: OliveOptions & { port?: number; altPort?: number; clientSecret?: string } = {},
): Promise<Olive> {
  const secret = options.clientSecret ?? `olive_cs_${randomBytes(20).toString('hex')}`;
  const state = createState(options, 'olive-integration', secret, ['olive-harbor', 'olive-meadow'], ['olive-quarry']);
  const hub = createHub(state);
  const streams = new Set<ServerResponse>();
  const serve = createMux(state, buildRoutes(state, hub, streams));

  const listen = async (port: number): Promise<Server> => {
    const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const path = (req.url ?? '/').split('?')[0];
      if (path === TOKEN_PATH) {
        tokenEndpoint(state, req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":"server_error"}');
        });
        return;
      }
      if (
        path === '/.well-known/oauth-authorization-server' ||
        path === '/.well-known/oauth-authorization-server/api/public/v1'
      ) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(metadata(origin)));
        return;
      }
      void serve(req, res, origin);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return server;
  };
  const main = await listen(options.port ?? 0);
  const alt = await listen(options.altPort ?? 0);
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    baseUrl: url(main),
    altBaseUrl: url(alt),
    tenant: 'olive-harbor',
    otherTenant: 'olive-meadow',
    foreignTenant: 'olive-quarry',
    clientId: state.clientId,
    clientSecret: secret,
    tokenUrl: `${url(main)}${TOKEN_PATH}`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      for (const s of streams) s.end();
      await Promise.all(
        [main, alt].map(
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
