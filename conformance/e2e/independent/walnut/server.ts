// walnut: an independent deployment of the interface, written from interface.md alone in the manner
// of a Django REST Framework team ported to node:http. startWalnut() listens on two loopback ports
// (main and alternate base address) over one shared state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API,
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  newRequestId,
  sendError,
  sendOk,
  VERSIONS,
  type WalnutOptions,
} from './core.ts';
import { TOKEN_PATH } from './oauth.ts';
import { openapiDocument } from './openapi.ts';
import { match } from './routes.ts';
import { selfDescription } from './self-description.ts';
import { CLIENT, createState, type State, TENANTS } from './state.ts';
import { KEY_PATTERN } from './validate.ts';
import { yamlDocument } from './yaml.ts';

async function handle(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  if (url.pathname === TOKEN_PATH || url.pathname === TOKEN_PATH.slice(0, -1)) return s.oauth.tokenEndpoint(req, res);
  if (url.pathname.startsWith('/.well-known/oauth-authorization-server')) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(s.oauth.metadata(origin)));
    return;
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const ctx: Ctx = {
    req,
    res,
    time: s.time,
    requestId: newRequestId(),
    version: CURRENT_VERSION,
    origin,
    path,
    query: url.searchParams,
  };
  try {
    await dispatch(s, ctx);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof ApiError) return sendError(ctx, err, errorMeta(ctx));
    // Never the exception itself: the request id is all support needs.
    return sendError(
      ctx,
      new ApiError({
        status: 500,
        code: 'internal',
        message: 'A server error occurred.',
        hint: 'Note the request identifier and inform support.',
      }),
    );
  }
}

function errorMeta(ctx: Ctx) {
  return ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {};
}

async function dispatch(s: State, ctx: Ctx): Promise<void> {
  const { req, path } = ctx;
  const sent = req.headers['service-version'];
  if (typeof sent === 'string' && sent !== '') {
    if (!VERSIONS.includes(sent.trim()))
      fail(
        'invalid_request',
        `Service-Version: unknown version "${sent.slice(0, 40)}" (one of ${VERSIONS.join(', ')}).`,
      );
    ctx.version = sent.trim();
  } else if (s.opts.serviceVersionRequired) {
    fail('invalid_request', 'Service-Version: this header is required.');
  }
  if (path !== API && !path.startsWith(`${API}/`)) fail('not_found', 'No route matches this path.');
  let found: ReturnType<typeof match>;
  try {
    found = match(path.slice(API.length));
  } catch {
    fail('not_found', 'No route matches this path.');
  }
  if (found.length === 0) fail('not_found', 'No route matches this path.');
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const hit = found.find((f) => f.route.method === method);
  if (!hit)
    fail('invalid_request', `Method "${req.method}" not allowed.`, {
      Allow: found.map((f) => f.route.method).join(', '),
    });
  const { route, params } = hit;
  if (!route.auth) return publicView(s, ctx, route.path, params[0]);
  authenticate(s, ctx);
  ctx.rateHeaders = s.throttle.allow(`${ctx.clientId}|${ctx.tenant}`, route.scope);
  if (route.key !== 'none') {
    const raw = req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) {
      if (route.key === 'required')
        fail('idempotency_required', 'Idempotency-Key: this header is required for this call.');
    } else if (!KEY_PATTERN.test(key)) {
      fail('invalid_request', 'Idempotency-Key: 8 to 128 characters of A-Z a-z 0-9 . _ : - are required.');
    } else ctx.idempotencyKey = key;
  }
  await route.handler(s, ctx, ...params);
}

/** Authentication, then the tenant permission; refusals carry the throttle state without counting. */
function authenticate(s: State, ctx: Ctx): void {
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
  try {
    const client = s.oauth.authenticate(ctx.req.headers.authorization);
    ctx.clientId = client.id;
    if (tenant === '') fail('forbidden', 'x-service-tenant: this header is required to select the tenant.');
    if (!client.tenants.includes(tenant)) fail('forbidden', 'This access is not released for the tenant.');
    ctx.tenant = tenant;
  } catch (err) {
    ctx.rateHeaders = s.throttle.peek(`${ctx.clientId ?? ctx.req.socket.remoteAddress}|${tenant}`, 'refused');
    throw err;
  }
}

function publicView(s: State, ctx: Ctx, path: string, file?: string): void {
  if (path === '') {
    sendOk(ctx, selfDescription(s, ctx.origin, ctx.version));
    return;
  }
  if (path === '/stream') {
    s.stream.open(ctx, s.stream.resumeFrom(ctx));
    return;
  }
  let version = CURRENT_VERSION;
  let format = path === '/openapi.yaml' ? 'yaml' : 'json';
  if (file !== undefined) {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
    if (!m?.[1] || !m[2] || !VERSIONS.includes(m[1]))
      fail(
        'not_found',
        `No schema file "${file.slice(0, 40)}" (one of ${VERSIONS.map((v) => `${v}.json, ${v}.yaml`).join(', ')}).`,
      );
    version = m[1];
    format = m[2];
  }
  const doc = openapiDocument(ctx.origin, version, {
    audit: s.opts.auditMaxLimit ?? 500,
    delivery: s.opts.deliveryMaxLimit ?? 100,
  });
  const text = format === 'yaml' ? yamlDocument(doc) : JSON.stringify(doc);
  const type =
    format === 'yaml'
      ? 'application/vnd.oai.openapi; charset=utf-8'
      : 'application/vnd.oai.openapi+json; charset=utf-8';
  const name = `walnut-${version}.${format}`;
  const disposition = path === '/openapi.json' ? `inline; filename="${name}"` : `attachment; filename="${name}"`;
  ctx.res.writeHead(200, { 'Content-Type': type, 'X-Request-Id': ctx.requestId, 'Content-Disposition': disposition });
  ctx.res.end(text);
}

export interface Walnut {
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

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startWalnut(options: WalnutOptions = {}): Promise<Walnut> {
  const s = createState(options);
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(s, req, res);
    }),
  );
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main);
  const altPort = await listen(alt);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `http://127.0.0.1:${port}${TOKEN_PATH}`,
    async close() {
      s.stream.closeAll();
      s.hooks.close();
      for (const t of s.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
          (srv) =>
            new Promise<void>((resolve) => {
              srv.closeAllConnections();
              srv.close(() => resolve());
            }),
        ),
      );
    },
  };
}
