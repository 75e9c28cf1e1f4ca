// catalpa: an independent deployment of the Network Connections Service interface, written from interface.md
// alone in the style of an enterprise Java/Spring team. Two loopback ports (main and alternate base address)
// share one state; the filter chain is: Service-Version, bearer token, tenant header, rate limit, tenant
// release, then the handler (body, Idempotency-Key, validation).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, metadata, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, CURRENT_VERSION, header, sendError, uuid, VERSIONS } from './http.ts';
import { match } from './routes.ts';
import type { Options, State } from './store.ts';
import { endStreams } from './stream.ts';

export type { Options } from './store.ts';

export interface Catalpa {
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

/** Drops options left undefined (start.ts passes every variable), so the defaults stay. */
const defined = (o: Options): Options => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function createState(options: Options): State {
  return {
    options: {
      rateLimit: 600,
      windowMs: 30_000,
      tokenTtlSeconds: 900,
      activationMs: 300,
      keepAliveMs: 15_000,
      ...defined(options),
    },
    clientId: 'catalpa-integration-client',
    clientSecret: randomBytes(24).toString('base64url'),
    tenants: { released: ['catalpa-rhine', 'catalpa-elbe'], known: ['catalpa-rhine', 'catalpa-elbe', 'catalpa-oder'] },
    tokens: new Map(),
    connections: new Map(),
    idem: new Map(),
    inFlight: new Set(),
    issuedKeys: new Map(),
    webhooks: new Map(),
    attempts: new Map(),
    audit: new Map(),
    messages: [],
    listeners: new Set(),
    rate: new Map(),
    timers: new Set(),
    closed: false,
  };
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const ctx: Ctx = { req, res, url, origin: `http://${host}`, requestId: uuid(), version: CURRENT_VERSION };
  try {
    if (url.pathname === '/oauth2/token') return await tokenEndpoint(state, ctx);
    if (url.pathname === '/.well-known/oauth-authorization-server' && req.method === 'GET') return metadata(ctx);
    const requested = header(ctx, 'service-version');
    if (requested !== undefined) {
      if (!VERSIONS.includes(requested.trim())) {
        throw new ApiError(
          'invalid_request',
          `Service-Version ${JSON.stringify(requested.slice(0, 40))} is not a published version.`,
          `Send one of ${VERSIONS.join(', ')}, or leave the header out for ${CURRENT_VERSION}.`,
        );
      }
      ctx.version = requested.trim();
    } else if (state.options.serviceVersionRequired) {
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is missing.',
        `Send Service-Version: ${CURRENT_VERSION}.`,
      );
    }
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const found = match(req.method ?? 'GET', path);
    if (!found)
      throw new ApiError(
        'not_found',
        `No endpoint ${req.method} ${path}.`,
        'Check the path against GET /api/public/v1/openapi.json.',
      );
    if (found.route.auth) authenticate(state, ctx);
    await found.route.run(state, ctx, found.params);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof ApiError) return sendError(ctx, err);
    // Internal details stay in the server log; the partner gets the request id only.
    console.error(`[catalpa] ${ctx.requestId}`, err);
    sendError(
      ctx,
      new ApiError('internal', 'An unexpected fault occurred.', `Quote request id ${ctx.requestId} to support.`),
    );
  }
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts catalpa on two loopback ports sharing one state. */
export async function startCatalpa(
  options: Options = {},
  ports: { main?: number; alt?: number } = {},
): Promise<Catalpa> {
  const state = createState(options);
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      handle(state, req, res).catch(() => res.destroy());
    }),
  );
  const [main, alt] = servers as [Server, Server];
  const mainPort = await listen(main, ports.main);
  const altPort = await listen(alt, ports.alt);
  const baseUrl = `http://127.0.0.1:${mainPort}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'catalpa-rhine',
    otherTenant: 'catalpa-elbe',
    foreignTenant: 'catalpa-oder',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${baseUrl}/oauth2/token`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      endStreams(state);
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
