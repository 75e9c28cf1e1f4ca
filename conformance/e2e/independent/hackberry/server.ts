// startHackberry: two loopback listeners (main and alternate address) over one store, the token endpoint
// at /auth/token, and the Dream-style error handler that turns any throw into the failure envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkVersion, tokenEndpoint } from './auth.ts';
import { HANDLERS } from './handlers.ts';
import { type Call, Failure, fail, newCall } from './http.ts';
import { match, ROUTES } from './routes.ts';
import { type HackberryOptions, Store, withDefaults } from './state.ts';
import { closeStreams } from './stream.ts';

export type { HackberryOptions } from './state.ts';

async function handle(call: Call, store: Store): Promise<void> {
  if (call.req.method === 'POST' && call.path === '/auth/token') return tokenEndpoint(call, store);
  checkVersion(call);
  for (const route of ROUTES) {
    const params = match(route, call.req.method ?? 'GET', call.path);
    const handler = params && HANDLERS[route.id];
    if (params && handler) return handler(call, store, params);
  }
  // Dream's router answers an unmatched method or path alike: 404.
  throw new Failure('not_found', 'no such route', { hint: 'GET /api/public/v1 lists the routes' });
}

function listener(store: Store) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const call = newCall(req, res);
    handle(call, store).catch((e: unknown) => {
      if (e instanceof Failure) fail(call, e);
      else fail(call, new Failure('internal', 'internal error, quote the request id to support'));
    });
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startHackberry(options?: HackberryOptions) {
  const store = new Store(withDefaults(options));
  const main = createServer(listener(store));
  const alt = createServer(listener(store));
  const [port, altPort] = await Promise.all([listen(main), listen(alt)]);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'hb-north',
    otherTenant: 'hb-south',
    foreignTenant: 'hb-west',
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl: `${baseUrl}/auth/token`,
    async close(): Promise<void> {
      closeStreams(store);
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
