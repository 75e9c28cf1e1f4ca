// buckeye: an independent deployment of the Network Connections Service interface, written from
// interface.md alone in the manner of a Rust/axum team: strict HTTP (content negotiation, strict JSON bodies,
// strong ETags, compression, HEAD and OPTIONS everywhere), prefixed KSUIDs, a token bucket per access,
// tenant and environment. Two loopback ports (main and alternate base address) share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, metadata, TOKEN_PATH, takeToken, tokenEndpoint } from './auth.ts';
import { seedConnections } from './connections.ts';
import {
  ApiError,
  accepts,
  badRequest,
  type Ctx,
  fail,
  newCtx,
  notFound,
  readJson,
  send,
  VERSIONS,
} from './http-kit.ts';
import { requireKey } from './idempotency.ts';
import { OAI_JSON, OAI_YAML, openapiDocument, PUBLISHED, toYaml } from './openapi.ts';
import { match, openStream } from './routes.ts';
import { type BuckeyeOptions, CLIENT, createState, type State, TENANTS } from './state.ts';

export type { BuckeyeOptions };

async function dispatch(state: State, ctx: Ctx, origin: string): Promise<void> {
  const path = ctx.url.pathname;
  const { routes, params } = match(path);
  if (routes.length === 0) throw notFound('no such route', `${path} is not part of /api/public/v1`);
  const allow = [...new Set(routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])))]
    .concat('OPTIONS')
    .join(', ');
  if (ctx.method === 'OPTIONS') {
    ctx.res.writeHead(204, { allow, 'x-request-id': ctx.requestId, 'cache-control': 'no-store' });
    ctx.res.end();
    return;
  }
  const wanted = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  const route = routes.find((r) => r.method === wanted);
  if (!route) {
    // 405 in spirit; the interface's status set has no 405, so the request is "unsuitable" (400), with Allow.
    const err = badRequest(`method ${ctx.method} not allowed here`, `allowed: ${allow}`);
    err.headers.allow = allow;
    throw err;
  }
  ctx.params = params;
  const sv = ctx.req.headers['service-version'];
  const asked = Array.isArray(sv) ? sv[0] : sv;
  if (asked !== undefined) {
    if (!VERSIONS.includes(asked)) throw badRequest('unknown Service-Version', `published: ${VERSIONS.join(', ')}`);
    ctx.version = asked;
  } else if (route.auth && state.options.requireServiceVersion) {
    throw badRequest('Service-Version header missing', `send Service-Version: ${VERSIONS[0]}`);
  }
  if (route.produces === 'text/event-stream') return openStream(state, ctx);
  // 406 in spirit: an Accept that rules JSON out gets the contract's 400 (YAML routes also take YAML).
  const type = route.produces ?? 'application/json';
  if (!accepts(ctx.req.headers.accept, 'application/json') && !accepts(ctx.req.headers.accept, type)) {
    throw badRequest('not acceptable', `this resource is served as ${type}; send Accept: ${type}`);
  }
  if (path.includes('/openapi')) return serveOpenapi(state, ctx, origin);
  if (!route.auth && state.options.publicRateLimit) {
    // Public routes count against a bucket of the caller's address, with the same headers.
    takeToken(state, ctx, { clientId: `ip:${ctx.req.socket.remoteAddress ?? '?'}`, tenant: '-', expiresAt: 0 });
  }
  if (!route.auth)
    return void (await route.run({
      state,
      ctx,
      access: { clientId: '', tenant: '', expiresAt: 0 },
      key: '',
      body: {},
    }));
  const access = authenticate(state, ctx);
  takeToken(state, ctx, access);
  const key = route.key ? requireKey(ctx) : '';
  const body = route.method === 'POST' ? await readJson(ctx, route.fields === undefined) : {};
  const extra =
    route.fields && state.options.denyUnknownFields ? Object.keys(body).filter((k) => !route.fields?.includes(k)) : [];
  if (extra.length > 0)
    throw badRequest(`unknown field ${extra.join(', ')}`, `the body takes ${route.fields?.join(', ')}`);
  await route.run({ state, ctx, access, key, body });
}

function serveOpenapi(state: State, ctx: Ctx, origin: string): void {
  const file = ctx.params.file;
  let version = ctx.url.searchParams.get('version') ?? ctx.version;
  let yaml = ctx.url.pathname.endsWith('.yaml');
  if (file !== undefined) {
    const m = file.match(/^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/);
    if (!m?.[1]) throw notFound('no such document', 'use {version}.json or {version}.yaml');
    version = m[1];
    yaml = m[2] === 'yaml';
  }
  if (!PUBLISHED.includes(version))
    throw notFound('no document for this version', `published: ${PUBLISHED.join(', ')}`);
  const oai = state.options.oaiMediaTypes;
  const doc = openapiDocument(version, origin, oai);
  const headers = { 'content-disposition': `inline; filename="ncs-openapi-${version}.${yaml ? 'yaml' : 'json'}"` };
  if (yaml)
    send(ctx, 200, toYaml(doc, state.options.yamlAnchors), {
      contentType: oai ? OAI_YAML : 'application/yaml; charset=utf-8',
      etagOf: doc,
      headers,
    });
  else send(ctx, 200, JSON.stringify(doc), { etagOf: doc, headers, contentType: oai ? OAI_JSON : undefined });
}

function handler(state: State, origin: () => string) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin());
    if (url.pathname === '/.well-known/oauth-authorization-server') return metadata(res, origin());
    if (url.pathname === TOKEN_PATH) return tokenEndpoint(state, req, res);
    const ctx = newCtx(req, res, url);
    // BUCKEYE_TRACE=1: one line per request on stderr (method, path, what the client accepts).
    if (process.env.BUCKEYE_TRACE === '1') {
      console.error(
        `buckeye ${ctx.requestId} ${req.method} ${req.url} accept=${req.headers.accept ?? '-'} enc=${req.headers['accept-encoding'] ?? '-'} tenant=${req.headers['x-service-tenant'] ?? '-'}`,
      );
    }
    if (process.env.BUCKEYE_TRACE === '1') {
      res.on('close', () => {
        if (!res.writableFinished) console.error(`buckeye ${ctx.requestId} closed before the answer was written`);
      });
    }
    try {
      await dispatch(state, ctx, origin());
    } catch (err) {
      if (res.headersSent) {
        console.error(`buckeye ${ctx.requestId} failed after its headers were sent`, err);
        return void res.destroy();
      }
      if (err instanceof ApiError) return fail(ctx, err);
      // No internal details leave the service: the request id is what support needs.
      console.error(`buckeye ${ctx.requestId}`, err);
      fail(
        ctx,
        new ApiError(500, 'internal', 'fault on the service side', undefined, `quote ${ctx.requestId} to support`),
      );
    }
  };
}

export interface BuckeyeHandle {
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

/** Starts buckeye on two loopback ports sharing one state (ports 0: any free ones). */
export async function startBuckeye(
  options: BuckeyeOptions = {},
  ports: [number, number] = [0, 0],
): Promise<BuckeyeHandle> {
  const state = createState(options);
  if (options.seedConnections) seedConnections(state, TENANTS.main, options.seedConnections);
  let mainOrigin = '';
  let altOrigin = '';
  const main = createServer(
    { keepAliveTimeout: state.options.keepAliveMs },
    handler(state, () => mainOrigin),
  );
  const alt = createServer(
    { keepAliveTimeout: state.options.keepAliveMs },
    handler(state, () => altOrigin),
  );
  mainOrigin = `http://127.0.0.1:${await listen(main, ports[0])}`;
  altOrigin = `http://127.0.0.1:${await listen(alt, ports[1])}`;
  return {
    baseUrl: mainOrigin,
    altBaseUrl: altOrigin,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `${mainOrigin}${TOKEN_PATH}`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        [main, alt].map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      );
    },
  };
}
