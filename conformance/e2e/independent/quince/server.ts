// startQuince(): two loopback ports (main and alternate address) over one state, an Apigee-style token
// endpoint and every route of the interface. Order of a call: Service-Version, route, token, tenant, quota,
// Idempotency-Key, body, replay or handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, metadata, rateLimit, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { fingerprint, lookup, readKey, remember } from './idempotency.ts';
import { description, openapiDocument, openapiYaml } from './openapi.ts';
import { match } from './routes.ts';
import { createState, type Options, type State } from './state.ts';
import { openStream } from './stream.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  ok,
  parseJsonObject,
  readBody,
  requestTrace,
  sendJson,
  VERSIONS,
} from './util.ts';

export type QuinceOptions = Options;

function origin(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}`;
}

function versionOf(state: State, req: IncomingMessage): string {
  const v = req.headers['service-version'];
  if (v === undefined) {
    if (state.opts.serviceVersionRequired) {
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is required.',
        'SERVICE_VERSION_MISSING',
        `Send Service-Version: ${CURRENT_VERSION}.`,
      );
    }
    return CURRENT_VERSION;
  }
  if (typeof v !== 'string' || !VERSIONS.includes(v.trim())) {
    throw new ApiError(
      'invalid_request',
      'Unknown Service-Version.',
      'SERVICE_VERSION_UNKNOWN',
      `Published: ${VERSIONS.join(', ')}.`,
    );
  }
  return state.opts.pinVersion ? CURRENT_VERSION : v.trim();
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const trace = requestTrace(req);
  const span = Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(16, '1');
  const ctx: Ctx = {
    req,
    res,
    url,
    requestId: trace,
    version: CURRENT_VERSION,
    headers: { traceparent: `00-${trace}-${span}-01` },
  };
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  if (path === TOKEN_PATH) return tokenEndpoint(state, req, res);
  if (
    path === '/.well-known/oauth-authorization-server' ||
    path === '/.well-known/oauth-authorization-server/api/public/v1'
  ) {
    return sendJson(ctx, 200, metadata(origin(req)));
  }
  try {
    ctx.version = versionOf(state, req);
    const { route, params, known } = match(method, path);
    if (!route) {
      throw new ApiError(
        'not_found',
        known ? `Method ${method} is not offered on this path.` : 'No such path.',
        known ? 'METHOD_NOT_OFFERED' : 'PATH_NOT_FOUND',
      );
    }
    if (route.path.endsWith('/openapi.json')) return sendJson(ctx, 200, openapiDocument(origin(req)));
    if (route.path.endsWith('/openapi.yaml')) {
      res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', ...ctx.headers });
      return void res.end(openapiYaml(origin(req)));
    }
    if (route.path === '/api/public/v1') return ok(ctx, description(origin(req)));
    if (route.path.endsWith('/stream')) return openStream(state, ctx);
    const who = authenticate(state, ctx);
    rateLimit(state, ctx, `${who.clientId}|${who.tenant}`);
    const key = route.key === 'none' ? undefined : readKey(ctx, route.key === 'required');
    ctx.idempotencyKey = key;
    let body: Record<string, unknown> = {};
    if (method === 'POST') body = parseJsonObject(await readBody(req), req.headers['content-type']);
    else await readBody(req);
    const scope = `${who.clientId}|${who.tenant}`;
    const fp = fingerprint(ctx, body);
    if (key) {
      const prior = lookup(state, scope, key, fp);
      if (prior) {
        ctx.replayed = true;
        return ok(ctx, prior.data);
      }
    }
    const handler = route.handler;
    if (!handler) throw new ApiError('not_found', 'No such path.', 'PATH_NOT_FOUND');
    const data = handler({ state, ctx, clientId: who.clientId, tenant: who.tenant, body, params });
    if (key) remember(state, scope, key, fp, data);
    return ok(ctx, data);
  } catch (e) {
    if (e instanceof ApiError) return fail(ctx, e);
    console.error('quince: internal', e);
    return fail(
      ctx,
      new ApiError('internal', 'Fault on the service side; quote the request id to support.', 'INTERNAL'),
    );
  }
}

export interface Quince {
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

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startQuince(options: QuinceOptions & { port?: number; altPort?: number } = {}): Promise<Quince> {
  const state = createState(options);
  const make = () =>
    createServer((req, res) => {
      handle(state, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  const main = make();
  const alt = make();
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'quince-harbor',
    otherTenant: 'quince-meadow',
    foreignTenant: 'quince-frost',
    clientId: 'quince-ci',
    clientSecret: 'qs-sandbox-5f1c0b7e9a2d4c68',
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      for (const s of [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
