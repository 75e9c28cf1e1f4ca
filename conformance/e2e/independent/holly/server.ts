// holly: an independent deployment of the interface, written from interface.md alone in the style of a
// gRPC-first team whose HTTP surface is a grpc-gateway-like transcoder. Two loopback listeners share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeToken, page } from './audit.ts';
import { authenticate, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { BodyError, type Call, drain, fail, newCall, ok, PUBLISHED_VERSIONS, readJsonObject } from './http.ts';
import { requireKey } from './idempotency.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import * as ops from './operations.ts';
import { match, ROUTES } from './routes.ts';
import { createState, type Options, type State, TENANTS } from './state.ts';
import { openStream } from './stream.ts';
import * as hooks from './webhooks.ts';

function describe(call: Call, origin: string) {
  ok(call, {
    service: 'holly network connections service',
    surface: 'public',
    version: call.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      headers: ['Authorization', 'x-service-tenant'],
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      retention: '86400s',
      scope: 'access, tenant and key',
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    webhooks: { events: hooks.EVENT_NAMES, signatureHeader: hooks.SIGNATURE_HEADER },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  });
}

async function body(call: Call): Promise<Record<string, unknown> | undefined> {
  try {
    return await readJsonObject(call.req);
  } catch (e) {
    const msg = e instanceof BodyError ? e.message : 'body could not be read';
    fail(call, 'invalid_request', msg, { violations: [{ field: 'body', description: msg }] });
    return undefined;
  }
}

/** AIP-136 custom methods send their request message as the body; an empty body is the empty message. */
async function optionalBody(call: Call): Promise<Record<string, unknown> | undefined> {
  const len = call.req.headers['content-length'];
  if ((len === undefined || len === '0') && call.req.headers['transfer-encoding'] === undefined) return {};
  return body(call);
}

function auditLog(state: State, call: Call, tenant: string) {
  const q = call.url.searchParams;
  const sizeRaw = q.get('page_size') ?? q.get('pageSize') ?? q.get('limit') ?? '50';
  const size = Number(sizeRaw);
  const token = q.get('page_token') ?? q.get('pageToken') ?? '';
  const offset = token === '' ? 0 : decodeToken(token);
  if (!/^\d+$/.test(sizeRaw) || size < 1 || size > 500 || offset === undefined) {
    return fail(call, 'invalid_request', 'page_size must be 1 to 500 and page_token one this list issued', {
      violations: [{ field: 'page_size', description: 'integer 1 to 500' }],
    });
  }
  ok(call, page(state, tenant, offset, size, { hex: state.opts.auditHex, numbers: state.opts.auditInt64Numbers }));
}

async function route(state: State, call: Call, origin: string): Promise<void> {
  const { req, url } = call;
  const method = req.method ?? 'GET';
  if (url.pathname === TOKEN_PATH && method === 'POST') return tokenEndpoint(state, req, call.res);
  if (url.pathname === '/.well-known/oauth-authorization-server' && method === 'GET') {
    call.res.writeHead(200, { 'content-type': 'application/json' });
    call.res.end(JSON.stringify(metadata(origin)));
    return;
  }
  const sv = req.headers['service-version'];
  if (typeof sv === 'string') {
    if (!PUBLISHED_VERSIONS.includes(sv.trim())) {
      await drain(req);
      return fail(call, 'invalid_request', 'Service-Version names no published version', {
        hint: `published: ${PUBLISHED_VERSIONS.join(', ')}`,
        violations: [{ field: 'Service-Version', description: `one of ${PUBLISHED_VERSIONS.join(', ')}` }],
      });
    }
    call.version = sv.trim();
  }
  const hit = match(method, url.pathname.replace(/(.)\/$/, '$1'));
  if (hit === undefined || hit === 'method') {
    await drain(req);
    return fail(call, 'not_found', 'no such method on this path', { hint: 'see GET /api/public/v1' });
  }
  const { route: r, params } = hit;
  if (!r.auth) {
    if (r.rpc === 'DiscoveryService.Describe') return describe(call, origin);
    if (r.rpc === 'StatusService.StreamStatus') return openStream(state, call);
    const doc = openApiDocument(origin, state.opts.auditInt64Numbers);
    if (r.rpc === 'DiscoveryService.GetOpenApi') {
      call.res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': call.requestId });
      return void call.res.end(JSON.stringify(doc));
    }
    call.res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', 'x-request-id': call.requestId });
    return void call.res.end(toYaml(doc));
  }
  const who = authenticate(state, call);
  if (!who) return drain(req);
  if (state.opts.serviceVersionRequired && typeof sv !== 'string') {
    await drain(req);
    return fail(call, 'invalid_request', 'the Service-Version header is required', {
      violations: [{ field: 'Service-Version', description: 'required header' }],
    });
  }
  const key = r.key ? requireKey(call) : undefined;
  if (r.key && key === undefined) return drain(req);
  const k = key ?? '';
  switch (r.rpc) {
    case 'ProviderService.ListProviders':
      return ops.listProviders(call);
    case 'ConnectorService.ListConnectors':
      return ops.listConnectors(call);
    case 'CapabilityService.ListCapabilities':
      return ops.listCapabilities(call);
    case 'ConnectionService.ListConnections':
      return ops.listConnections(state, call, who);
    case 'ConnectionService.GetConnection':
      return ops.getConnection(state, call, who, params[0] ?? '');
    case 'WebhookService.ListWebhooks':
      return hooks.listWebhooks(state, call, who);
    case 'WebhookService.GetWebhook':
      return hooks.getWebhook(state, call, who, params[0] ?? '');
    case 'WebhookService.ListDeliveries':
      return hooks.listDeliveries(state, call, who, params[0] ?? '');
    case 'AuditService.ListAuditEntries':
      return auditLog(state, call, who.tenant);
    case 'DiscoveryService.GetCallerInfo': {
      const access = state.clients.get(who.clientId);
      return ok(call, {
        tenant: who.tenant,
        client: `clients/${who.clientId}`,
        environment: 'sandbox',
        purpose: access?.purpose,
        owner: access?.owner,
        accessExpiresAt: access?.expiresAt,
      });
    }
    case 'WebhookService.DeleteWebhook':
      await drain(req);
      return hooks.deleteWebhook(state, call, who, k, params[0] ?? '');
    case 'WebhookService.RetryDelivery': {
      const b = await optionalBody(call);
      if (b) hooks.retryDelivery(state, call, who, k, [params[0] ?? '', params[1] ?? ''], b);
      return;
    }
  }
  const b = await body(call);
  if (!b) return;
  if (r.rpc === 'CapabilityService.CheckCapability') return ops.checkCapability(call, b);
  if (r.rpc === 'ConnectionService.CreateConnection') return ops.createConnection(state, call, who, k, b);
  if (r.rpc === 'IdempotencyService.CreateIdempotencyKey') return ops.issueKey(state, call, b);
  if (r.rpc === 'WebhookService.CreateWebhook') return hooks.createWebhook(state, call, who, k, b);
  fail(call, 'internal', 'no handler for this method');
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 5000 }, handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function startHolly(options: Options = {}) {
  const state = createState(options);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const call = newCall(req, res, new URL(req.url ?? '/', origin));
    route(state, call, origin).catch(() => {
      if (!res.headersSent) fail(call, 'internal', 'fault on the service side; quote the request id');
      else res.end();
    });
  };
  const main = await listen(handler);
  const alt = await listen(handler);
  const addr = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = addr(main);
  const access = state.clients.get('holly-conformance');
  return {
    baseUrl,
    altBaseUrl: addr(alt),
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: 'holly-conformance',
    clientSecret: access?.secret ?? '',
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise((r) => s.close(() => r(undefined)))));
    },
  };
}
