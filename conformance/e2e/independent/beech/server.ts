// beech: the interface as a Rails-minded team ported it to node:http. Two loopback ports share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, type Client, metadata, throttle, tokenEndpoint } from './access.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  ok,
  parseJsonObject,
  readBody,
  requestIdFor,
  sendJson,
  sendText,
  VERSIONS,
} from './http-kit.ts';
import { abandon, begin, fingerprint, finish } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import { seedDemo } from './resources.ts';
import { match } from './routes.ts';
import { selfDescription, toYaml } from './self-description.ts';
import { type Beech, type BeechOptions, createState } from './state.ts';
import { stream } from './stream.ts';
import { idempotencyKey } from './validate.ts';

const RELEASED = ['beech-bakery', 'beech-bistro'];
const FOREIGN = 'beech-brewery';

async function handle(s: Beech, client: Client, ctx: Ctx, streams: Set<() => void>): Promise<void> {
  const sent = ctx.req.headers['service-version'];
  if (typeof sent === 'string' && VERSIONS.includes(sent)) ctx.version = sent;
  else if (sent === undefined && s.options.serviceVersionRequired === true) {
    throw new ApiError(
      'invalid_request',
      'Service-Version header is required',
      undefined,
      `send Service-Version: ${CURRENT_VERSION}`,
    );
  }
  const origin = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
  if (ctx.path === '/oauth/token' && ctx.method === 'POST') return tokenEndpoint(s, client, ctx.req, ctx.res);
  if (ctx.method === 'GET' && /^\/\.well-known\/oauth-authorization-server(\/api\/public\/v1)?$/.test(ctx.path)) {
    return sendJson(ctx, 200, metadata(origin));
  }
  let found: ReturnType<typeof match>;
  try {
    found = match(ctx.method, ctx.path);
  } catch {
    found = undefined;
  }
  if (found === undefined)
    throw new ApiError('not_found', 'No route matches', `${ctx.method} ${ctx.path.slice(0, 100)}`);
  const { route, params } = found;
  if (!route.auth) {
    if (route.path.endsWith('/stream')) return stream(s, ctx, streams);
    if (route.path.startsWith('/api-docs/')) {
      const doc = openapiDocument(route.path.split('/')[2]);
      if (route.path.endsWith('.yaml')) return sendText(ctx, toYaml(doc), 'application/yaml; charset=utf-8');
      return sendJson(ctx, 200, doc);
    }
    if (route.path.endsWith('/openapi.json')) return sendJson(ctx, 200, openapiDocument(ctx.version));
    return ok(ctx, selfDescription(s, origin));
  }
  // Rack::Attack runs before the controller: every call to an authenticated endpoint is counted.
  const clientId = bearer(s, ctx.req.headers.authorization);
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' && tenantHeader !== '' ? tenantHeader : undefined;
  const t =
    clientId === undefined
      ? throttle(s, `ip:${ctx.req.socket.remoteAddress}`, s.options.rateLimit * 10)
      : throttle(s, `access:${clientId}:${tenant ?? '-'}:sandbox`, s.options.rateLimit);
  Object.assign(ctx.headers, t.headers);
  if (t.limited)
    throw new ApiError('rate_limited', 'Throttled', undefined, `retry after ${t.headers['Retry-After']} s`);
  if (clientId === undefined)
    throw new ApiError(
      'unauthorized',
      'Access token missing, invalid or expired',
      undefined,
      'request a new access token',
    );
  ctx.clientId = clientId;
  if (tenant === undefined)
    throw new ApiError(
      'invalid_request',
      'param is missing: x-service-tenant',
      undefined,
      'send the x-service-tenant header',
    );
  if (!client.tenants.includes(tenant))
    throw new ApiError(
      'forbidden',
      'This access is not released for the tenant',
      undefined,
      'check the permissions of the access',
    );
  ctx.tenant = tenant;
  if (route.read !== undefined) return ok(ctx, route.read(s, ctx, params));
  const key = route.key === 'none' ? undefined : idempotencyKey(ctx.req.headers['idempotency-key']);
  if (key !== undefined) ctx.idemKey = key;
  if (route.key === 'required' && key === undefined) {
    throw new ApiError(
      'idempotency_required',
      'Idempotency-Key header is required for this call',
      undefined,
      'send an Idempotency-Key',
    );
  }
  const raw = await readBody(ctx.req);
  const body = route.validate === undefined && raw.trim() === '' ? {} : parseJsonObject(ctx, raw);
  route.validate?.(body);
  const write = route.write;
  if (write === undefined) throw new ApiError('not_found', 'No route matches');
  if (key === undefined) {
    const r = write(s, ctx, body, params);
    return ok(ctx, r.data, r.status);
  }
  const fp = fingerprint(ctx, body);
  const stored = begin(ctx, key, fp);
  if (stored !== undefined) {
    ctx.replayed = true;
    return ok(ctx, redact(s, route.path, stored.data), stored.status);
  }
  try {
    const r = write(s, ctx, body, params);
    finish(ctx, key, fp, r.status, r.data);
    ctx.replayed = false;
    return ok(ctx, r.data, r.status);
  } catch (e) {
    abandon(ctx, key);
    throw e;
  }
}

function redact(s: Beech, path: string, data: unknown): unknown {
  if (s.options.redactKeyOnReplay !== true || !path.endsWith('/webhooks')) return data;
  const { signingKey: _k, ...rest } = data as Record<string, unknown>;
  return rest;
}

export interface BeechHandle {
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

export async function startBeech(options: BeechOptions = {}): Promise<BeechHandle> {
  const s = createState(options);
  const client: Client = {
    id: `beech-app-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(24).toString('hex'),
    tenants: RELEASED,
  };
  const streams = new Set<() => void>();
  if (options.seedDemo === true) seedDemo(s, RELEASED);
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ctx: Ctx = {
      req,
      res,
      url,
      path: url.pathname,
      method: req.method ?? 'GET',
      requestId: requestIdFor(req),
      started: process.hrtime.bigint(),
      version: CURRENT_VERSION,
      headers: {},
      utcOffset: s.options.utcOffset ?? 0,
    };
    handle(s, client, ctx, streams).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      // Internal details stay in the log; the answer carries only the request id.
      if (!(e instanceof ApiError)) console.error(`[beech] ${ctx.requestId}`, e);
      fail(
        ctx,
        e instanceof ApiError
          ? e
          : new ApiError('internal', 'Something went wrong', undefined, `quote request id ${ctx.requestId}`),
      );
    });
  };
  const servers: Server[] = [createServer(listener), createServer(listener)];
  const ports: number[] = [];
  for (const server of servers) {
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as AddressInfo).port);
  }
  const baseUrl = `http://127.0.0.1:${ports[0]}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${ports[1]}`,
    tenant: RELEASED[0] ?? '',
    otherTenant: RELEASED[1] ?? '',
    foreignTenant: FOREIGN,
    clientId: client.id,
    clientSecret: client.secret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const end of [...streams]) end();
      for (const t of s.timers) clearTimeout(t);
      s.timers.clear();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
