// hickory: an independent deployment of the interface (NestJS-behind-a-Kong-gateway style), two loopback
// ports over one state. Every call passes: Service-Version, route, token, rate window, tenant, Idempotency-Key,
// body validation, idempotent replay, then the handler.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, checkTenant, countCall, metadata, tokenEndpoint } from './auth.ts';
import { describe, openapiDocument } from './describe.ts';
import { lookup, readKey, remember } from './idempotency.ts';
import { match, QUERY } from './routes.ts';
import { createState, type HickoryOptions, type State } from './state.ts';
import { openStream } from './stream.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  nanoid,
  readJsonBody,
  readRaw,
  sendError,
  sendJson,
  sendOk,
  VERSIONS,
} from './util.ts';
import { validate } from './validate.ts';

export type { HickoryOptions } from './state.ts';

function checkVersion(state: State, ctx: Ctx): void {
  const raw = ctx.req.headers['service-version'];
  if (raw === undefined) {
    if (state.options.versionRequired) {
      throw new ApiError('invalid_request', 'The header Service-Version is required.', {
        hint: `Send Service-Version: ${CURRENT_VERSION}.`,
      });
    }
    return;
  }
  const v = String(raw).trim();
  if (!VERSIONS.includes(v)) {
    throw new ApiError('invalid_request', 'Unknown Service-Version.', {
      hint: `Published versions: ${VERSIONS.join(', ')}; the current one is ${CURRENT_VERSION}.`,
    });
  }
  ctx.version = v;
}

/** What a Kong gateway in front adds to every answer: its own request id (not the service's), latencies. */
function gateway(state: State, res: ServerResponse): void {
  res.setHeader('via', '1.1 kong/3.7.1');
  res.setHeader('x-kong-request-id', randomBytes(12).toString('hex'));
  res.setHeader('x-kong-upstream-latency', '3');
  res.setHeader('x-kong-proxy-latency', '1');
  res.setHeader(
    'x-ratelimit-limit-minute',
    String(Math.round((state.options.rateLimit * 60_000) / state.options.windowMs)),
  );
}

async function serve(state: State, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const method = req.method ?? 'GET';
  if (method === 'POST' && path === '/oauth2/token') return tokenEndpoint(state, req, res);
  if (method === 'GET' && path.startsWith('/.well-known/oauth-authorization-server')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(metadata(origin)));
  }
  if (state.options.gatewayHeaders) gateway(state, res);
  const ctx: Ctx = {
    req,
    res,
    url,
    method,
    requestId: `req_${nanoid()}`,
    version: CURRENT_VERSION,
    origin,
    params: {},
    body: undefined,
    headers: {},
    offsetMin: state.options.timeOffsetMin,
  };
  try {
    checkVersion(state, ctx);
    const download = /^\/api\/public\/v1\/openapi\/(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(path);
    if (method === 'GET' && download && VERSIONS.includes(download[1] ?? '')) {
      // JSON is valid YAML 1.2, so the YAML file is the same text under a YAML type.
      const type = download[2] === 'yaml' ? 'application/yaml' : 'application/json';
      res.writeHead(200, {
        'content-type': `${type}; charset=utf-8`,
        'content-disposition': `attachment; filename="hickory-${download[1]}.${download[2]}"`,
      });
      return void res.end(JSON.stringify(openapiDocument(origin, download[1] ?? CURRENT_VERSION), null, 2));
    }
    const found = match(method, path);
    if (!found)
      throw new ApiError('not_found', `Cannot ${method} ${path}.`, { hint: 'See GET /api/public/v1 for the routes.' });
    const { route } = found;
    if (route.since && route.since > ctx.version) {
      throw new ApiError('not_found', `Cannot ${method} ${path} in version ${ctx.version}.`, {
        hint: `Added in ${route.since}.`,
      });
    }
    ctx.params = found.params;
    if (state.options.strictQuery) {
      const allowed = QUERY[route.operationId] ?? [];
      const unknown = [...url.searchParams.keys()].find((k) => !allowed.includes(k));
      if (unknown !== undefined) {
        throw new ApiError('invalid_request', `Query parameter ${unknown} should not exist.`, {
          hint: allowed.length
            ? `This operation reads ${allowed.join(', ')}.`
            : 'This operation reads no query parameters.',
        });
      }
    }
    if (route.operationId === 'describe') return sendOk(ctx, { status: 200, data: describe(state, ctx) });
    if (route.operationId === 'openapi') return sendJson(ctx, 200, openapiDocument(origin, ctx.version));
    if (route.operationId === 'stream') return openStream(state, ctx);
    if (route.auth) {
      authenticate(state, ctx);
      countCall(state, ctx);
      checkTenant(state, ctx);
    }
    const writes = method !== 'GET';
    if (writes) readKey(ctx, route.key === true);
    let body: Record<string, unknown> = {};
    if (route.body) {
      body = await readJsonBody(req);
      validate(body, route.body);
      ctx.body = body;
    } else if (writes) {
      await readRaw(req);
    }
    const stored = lookup(state, ctx);
    if (stored) {
      ctx.replayed = true;
      return sendOk(ctx, stored);
    }
    if (!route.handle) throw new ApiError('not_found', `Cannot ${method} ${path}.`);
    const result = route.handle(state, ctx, body);
    remember(state, ctx, result);
    sendOk(ctx, result);
  } catch (err) {
    if (err instanceof ApiError) return sendError(ctx, err);
    // Internal details stay in the server log; the caller gets the request id only.
    console.error(`hickory ${ctx.requestId}`, err);
    sendError(
      ctx,
      new ApiError('internal', 'Something went wrong on our side.', { hint: `Quote ${ctx.requestId} to support.` }),
    );
  }
}

export interface HickoryDeployment {
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

async function listen(state: State): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const server = createServer((req, res) => {
    serve(state, origin, req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

/** Starts hickory on two loopback ports sharing one state (main and alternate base address). */
export async function startHickory(options: HickoryOptions = {}): Promise<HickoryDeployment> {
  const state = createState(options);
  const main = await listen(state);
  const alt = await listen(state);
  return {
    baseUrl: main.origin,
    altBaseUrl: alt.origin,
    tenant: 'hickory-acme',
    otherTenant: 'hickory-globex',
    foreignTenant: 'hickory-initech',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${main.origin}/oauth2/token`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      for (const c of state.stream.clients) c.destroy();
      for (const s of [main.server, alt.server]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
