// maple: an Envoy + grpc-gateway style deployment of the interface. Two loopback ports (main and
// alternate base address) share one state; the authorization server listens on a third origin.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Authority, TOKEN_LIFETIME_S, TOKEN_PATH } from './auth.ts';
import type { Call } from './http-kit.ts';
import {
  ApiError,
  CURRENT_VERSION,
  canonical,
  fail,
  newCall,
  ok,
  readJson,
  sendRaw,
  toYaml,
  VERSIONS,
} from './http-kit.ts';
import { openapi } from './openapi.ts';
import type { Ctx } from './operations.ts';
import * as op from './operations.ts';
import { Buckets } from './rate-limit.ts';
import { Store } from './store.ts';
import { openStream } from './stream.ts';
import { idempotencyKey } from './validate.ts';
import { Webhooks } from './webhooks.ts';

export interface StartOptions {
  /** token bucket capacity (50) and refill per second (25) */
  capacity?: number | undefined;
  refillPerSecond?: number | undefined;
  /** MAPLE_CURSOR_WINS: ?cursor wins over Last-Event-ID when both are sent */
  cursorWins?: boolean;
  /** MAPLE_STRICT_FIELDS: unknown body fields refused with 400 */
  strictFields?: boolean;
}

export interface Maple {
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

const P = '/api/public/v1';
type Handler = (c: Ctx, m: RegExpExecArray) => unknown;
interface Route {
  method: string;
  path: RegExp;
  purpose: string;
  show: string;
  keyed: boolean;
  run: Handler;
}
const r = (method: string, show: string, purpose: string, run: Handler, keyed = false): Route => ({
  method,
  show: `${P}${show}`,
  path: new RegExp(`^${P}${show.replace(/\{[a-zA-Z]+\}/g, '([^/:]+)')}$`),
  purpose,
  keyed,
  run,
});
const ROUTES: Route[] = [
  r('GET', '/info', 'the calling access', (c) => ({ tenant: c.tenant, clientId: c.clientId, environment: 'sandbox' })),
  r('GET', '/providers', 'list providers', op.listProviders),
  r('GET', '/connectors', 'list connectors', op.listConnectors),
  r('GET', '/capabilities', 'capability catalog', op.listCapabilities),
  r('POST', '/capabilities', 'check a capability of a connector', op.checkCapability),
  r('GET', '/connections', 'connections of the tenant', op.listConnections),
  r('POST', '/connections', 'create a connection', op.createConnection, true),
  r('POST', '/idempotency-keys', 'generate an idempotency key', op.createIdempotencyKey),
  r('POST', '/webhooks', 'create a webhook receiver', op.createWebhook, true),
  r('GET', '/webhooks/{webhookId}/deliveries', 'delivery log of a webhook', (c, m) => op.listDeliveries(c, m[1] ?? '')),
  r(
    'POST',
    '/webhooks/{webhookId}/deliveries/{deliveryId}:redeliver',
    'trigger a logged delivery again',
    (c, m) => op.redeliver(c, m[1] ?? '', m[2] ?? ''),
    true,
  ),
  r('GET', '/audit-log', 'audit log with a proof of integrity', op.auditLog),
];
const PUBLIC = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: `${P}/openapi.yaml`, purpose: 'OpenAPI 3.1 document (YAML)', auth: false },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
];

const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });

export async function startMaple(options: StartOptions = {}): Promise<Maple> {
  const clientId = 'maple-ci-client';
  const clientSecret = `mcs_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const authority = new Authority([{ clientId, clientSecret, tenants: ['maple-north', 'maple-south'] }]);
  const known = new Set(['maple-north', 'maple-south', 'maple-west']);
  const store = new Store();
  const hooks = new Webhooks();
  const buckets = new Buckets({ capacity: options.capacity ?? 50, refillPerSecond: options.refillPerSecond ?? 25 });
  const token = await listen((req, res) => void authority.handle(req, res));
  authority.origin = token.url;
  const tokenUrl = `${token.url}${TOKEN_PATH}`;
  let baseUrl = '';

  const describe = () => ({
    service: 'network-connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenUrl,
      metadata: `${token.url}/.well-known/oauth-authorization-server`,
      tokenEndpointAuthMethods: ['client_secret_basic'],
      tokenLifetimeSeconds: TOKEN_LIFETIME_S,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      retention: 'PT24H from first use, per access and tenant',
      issuedKeyValidity: 'PT1H',
      requiredOn: ROUTES.filter((x) => x.keyed).map((x) => `${x.method} ${x.show}`),
    },
    documents: { json: `${P}/openapi.json`, yaml: `${P}/openapi.yaml` },
    routes: [...PUBLIC, ...ROUTES.map((x) => ({ method: x.method, path: x.show, purpose: x.purpose, auth: true }))],
  });

  async function handle(call: Call) {
    const { req, url } = call;
    const sv = req.headers['service-version'];
    if (typeof sv === 'string') {
      if (!VERSIONS.includes(sv))
        throw new ApiError('invalid_request', 'unknown Service-Version', `published: ${VERSIONS.join(', ')}`);
      call.version = sv;
    }
    const path = url.pathname;
    if (req.method === 'GET' && path === P) return ok(call, describe());
    if (req.method === 'GET' && path === `${P}/openapi.json`) {
      return sendRaw(call, 200, 'application/json', JSON.stringify(openapi(baseUrl, tokenUrl)));
    }
    if (req.method === 'GET' && path === `${P}/openapi.yaml`) {
      return sendRaw(call, 200, 'application/yaml', `${toYaml(openapi(baseUrl, tokenUrl)).slice(1)}\n`);
    }
    if (req.method === 'GET' && path === `${P}/stream`) return openStream(call, store, options.cursorWins ?? false);
    const route = ROUTES.find((x) => x.method === req.method && x.path.test(path));
    const match = route?.path.exec(path);
    if (!route || !match) throw new ApiError('not_found', 'no such endpoint', 'see GET /api/public/v1 for the routes');
    const client = authority.verify(req.headers.authorization);
    if (!client) {
      call.headers = buckets.peek();
      call.headers['www-authenticate'] = 'Bearer realm="maple"';
      throw new ApiError('unauthorized', 'a valid bearer token is required', 'request a new access token');
    }
    const tenantHeader = req.headers['x-service-tenant'];
    const tenant = Array.isArray(tenantHeader) ? tenantHeader[0] : tenantHeader;
    if (!tenant) {
      call.headers = buckets.peek();
      throw new ApiError('invalid_request', 'header x-service-tenant is required');
    }
    const take = buckets.take(`${client.clientId}|${tenant}|sandbox`);
    call.headers = take.headers;
    if (!take.allowed) throw new ApiError('rate_limited', 'too many calls', 'wait for Retry-After seconds');
    if (!known.has(tenant) || !client.tenants.includes(tenant)) {
      throw new ApiError(
        'forbidden',
        'this access is not released for the tenant',
        'check the permissions of the access',
      );
    }
    const key = route.keyed ? idempotencyKey(req.headers['idempotency-key'], true) : undefined;
    if (key !== undefined) call.idempotencyKey = key;
    const body = req.method === 'POST' ? await readJson(req) : {};
    const ctx: Ctx = {
      tenant,
      clientId: client.clientId,
      query: url.searchParams,
      body,
      strict: options.strictFields ?? false,
      store,
      hooks,
    };
    if (key === undefined) return ok(call, route.run(ctx, match));
    // keys are the string sent, scoped to this access and tenant; the fingerprint is method, path, body
    const scope = `${client.clientId}|${tenant}`;
    const fingerprint = `${req.method} ${path} ${canonical(body)}`;
    const earlier = store.recorded(scope, key);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_conflict',
          'this key was used with other content',
          'use a new key for each new operation',
        );
      }
      call.replayed = true;
      return ok(call, earlier.data);
    }
    const data = route.run(ctx, match);
    store.record(scope, key, { fingerprint, status: 200, data, firstUse: Date.now() });
    call.replayed = false;
    return ok(call, data);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const call = newCall(req, res);
    handle(call).catch((e: unknown) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof ApiError) return fail(call, e.code, e.message, e.hint);
      fail(call, 'internal', 'fault on the service side', 'quote meta.requestId to support');
    });
  };
  const main = await listen(onRequest);
  const alt = await listen(onRequest);
  baseUrl = main.url;
  const servers = [main.server, alt.server, token.server];
  return {
    baseUrl: main.url,
    altBaseUrl: alt.url,
    tenant: 'maple-north',
    otherTenant: 'maple-south',
    foreignTenant: 'maple-west',
    clientId,
    clientSecret,
    tokenUrl,
    async close() {
      hooks.close();
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
