// startBaobab(): two loopback ports (main and alternate base address) over one state, the OAuth token
// endpoint, and the dispatcher: Service-Version, route, authentication and rate window, body validation,
// idempotency, handler, envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, type Caller, issueToken, METADATA_PATH, metadata, TOKEN_PATH } from './auth.ts';
import {
  ApiError,
  type CallContext,
  newId,
  PREVIOUS_VERSION,
  parseJsonObject,
  readRaw,
  sendData,
  sendError,
  VERSIONS,
} from './http-util.ts';
import { fingerprint, lookup, readKey, remember } from './idempotency.ts';
import { matchRoute } from './routes.ts';
import { type BaobabOptions, createState, type State } from './state.ts';
import { validateBody } from './validate.ts';

export type { BaobabOptions } from './state.ts';

const ANONYMOUS: Caller = { clientId: '', tenant: '', token: '', tokenExpiresAt: 0 };

function serviceVersion(state: State, req: IncomingMessage, ctx: CallContext): void {
  const v = req.headers['service-version'];
  if (v === undefined) {
    if (state.opts.serviceVersionRequired)
      throw new ApiError('invalid_request', 'Request validation failed', 'header.service-version: Field required');
    return;
  }
  if (typeof v !== 'string' || !VERSIONS.includes(v.trim())) {
    throw new ApiError(
      'invalid_request',
      'Unknown interface version',
      `header.service-version: Input should be ${VERSIONS.map((x) => `'${x}'`).join(' or ')}`,
    );
  }
  ctx.version = v.trim();
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse, ctx: CallContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const method = req.method ?? 'GET';
  if (url.pathname === TOKEN_PATH && method === 'POST') return issueToken(state, res, req, await readRaw(req));
  if (url.pathname === METADATA_PATH && method === 'GET') return metadata(res, origin);
  serviceVersion(state, req, ctx);
  const { route, params } = matchRoute(method, url.pathname);
  if (!route || (route.since && ctx.version === PREVIOUS_VERSION && route.since > PREVIOUS_VERSION)) {
    throw new ApiError('not_found', 'Not found', `path: no route ${method} ${url.pathname} in version ${ctx.version}`);
  }
  const caller = route.auth ? authenticate(state, req, ctx) : ANONYMOUS;
  let body: Record<string, unknown> = {};
  if (method === 'POST' && route.schema) {
    body = parseJsonObject(req, await readRaw(req));
  }
  // FastAPI order: headers and body are validated before the endpoint runs.
  const key = route.key ? readKey(req, route.key) : undefined;
  if (route.schema) validateBody(route.schema, body);
  const call = { state, req, res, ctx, params, query: url.searchParams, body, caller, origin };
  if (route.raw) {
    route.handle(call);
    return;
  }
  if (key === undefined) {
    sendData(res, ctx, route.handle(call));
    return;
  }
  ctx.idempotencyKey = key;
  const fp = fingerprint(method, url.pathname, body);
  // From here to remember() nothing awaits: concurrent same-key calls cannot both run the handler.
  const earlier = lookup(state, caller.tenant, key, fp, ctx);
  if (earlier) {
    ctx.replayed = true;
    sendData(res, ctx, earlier.data);
    return;
  }
  const data = route.handle(call);
  remember(state, caller.tenant, key, fp, data);
  ctx.replayed = false;
  sendData(res, ctx, data);
}

function listener(state: State) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const ctx: CallContext = { requestId: newId(16), version: '2026-07-01', headers: {} };
    handle(state, req, res, ctx).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // Anything unexpected is a plain 500 with the request id: no message, no stack.
      sendError(
        res,
        ctx,
        err instanceof ApiError ? err : new ApiError('internal', 'Internal error; quote the request id to support'),
      );
    });
  };
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface BaobabTarget {
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

export async function startBaobab(
  options: BaobabOptions & { port?: number; altPort?: number } = {},
): Promise<BaobabTarget> {
  const state = createState(options);
  const servers = [createServer(listener(state)), createServer(listener(state))];
  for (const s of servers) s.keepAliveTimeout = 5000;
  const [main, alt] = servers as [Server, Server];
  const mainPort = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  return {
    baseUrl: `http://127.0.0.1:${mainPort}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'baobab-kivu',
    otherTenant: 'baobab-tana',
    // Known to baobab, but this client is not released for it: 403.
    foreignTenant: 'baobab-omo',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `http://127.0.0.1:${mainPort}${TOKEN_PATH}`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
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
