// oak: an independent deployment of the Network Connections Service interface, written from interface.md alone
// in the style of a PHP Laravel team behind Cloudflare. Two loopback ports share one state.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readAudit } from './audit.ts';
import { authenticate, tokenEndpoint } from './auth.ts';
import { listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { checkCapability, createConnection, listConnections } from './connections.ts';
import { describeService, info, showConnection } from './describe.ts';
import type { Call } from './http-kit.ts';
import { BASE, CURRENT_VERSION, rayId, readBody, sendError, sendJson, sendRaw, VERSIONS } from './http-kit.ts';
import { issueKey } from './idempotency.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import { matchPath } from './routes.ts';
import type { OakOptions, State } from './state.ts';
import { CLIENT_ID, createState, TENANTS } from './state.ts';
import { openStream } from './stream.ts';
import { deleteWebhook, listAttempts, registerWebhook, resendAttempt, showWebhook } from './webhooks.ts';

/** Service-Version is optional; a value we do not publish is refused with the list in the hint. */
function checkVersion(state: State, call: Call): boolean {
  const sent = call.req.headers['service-version'];
  if (sent === undefined && !state.options.requireServiceVersion) return true;
  if (typeof sent === 'string' && VERSIONS.includes(sent.trim())) {
    call.version = sent.trim();
    return true;
  }
  sendError(
    call,
    'invalid_request',
    sent === undefined ? 'The Service-Version header is required.' : 'The Service-Version is not supported.',
    sent === undefined ? 'No Service-Version header was sent.' : 'The Service-Version names no published version.',
    `Send Service-Version with one of the published versions: ${VERSIONS.join(', ')} (current: ${CURRENT_VERSION}).`,
  );
  return false;
}

function auditCap(state: State) {
  return { max: state.options.auditMaxPerPage, refuse: state.options.auditLimitPolicy === 'refuse' };
}

async function dispatchRoute(
  state: State,
  call: Call,
  operationId: string,
  params: Record<string, string>,
): Promise<void> {
  const id = params.connectionId ?? params.webhookId ?? '';
  const needsBody = call.method === 'POST';
  const raw = needsBody ? await readBody(call.req) : '';
  switch (operationId) {
    case 'describeService':
      return describeService(call);
    case 'getOpenApiJson':
      return sendJson(call, 200, openApiDocument(call.origin, call.version, auditCap(state)));
    case 'getOpenApiYaml':
      return sendRaw(
        call,
        200,
        'application/yaml; charset=utf-8',
        toYaml(openApiDocument(call.origin, call.version, auditCap(state))),
      );
    case 'openStream':
      return openStream(state, call);
    case 'getInfo':
      return info(state, call);
    case 'listProviders':
      return listProviders(call);
    case 'listConnectors':
      return listConnectors(call);
    case 'listCapabilities':
      return listCapabilities(call);
    case 'checkCapability':
      return checkCapability(state, call, raw);
    case 'listConnections':
      return listConnections(state, call);
    case 'createConnection':
      return createConnection(state, call, raw);
    case 'showConnection':
      return showConnection(state, call, id);
    case 'createIdempotencyKey':
      return issueKey(state, call, raw);
    case 'createWebhook':
      return registerWebhook(state, call, raw);
    case 'showWebhook':
      return showWebhook(state, call, id);
    case 'deleteWebhook':
      return deleteWebhook(state, call, id);
    case 'listWebhookAttempts':
      return listAttempts(state, call, id);
    case 'resendWebhookAttempt':
      return resendAttempt(state, call, id, params.attemptId ?? '');
    case 'getAuditLog':
      return readAudit(state, call);
    default:
      return sendError(call, 'not_found', 'Not Found.', 'The route does not exist.');
  }
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const call: Call = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
    query: url.searchParams,
    origin: `http://${req.headers.host ?? 'localhost'}`,
    requestId: rayId(),
    version: CURRENT_VERSION,
    headers: {},
    escapeSlashes: state.options.escapeSlashes,
  };
  try {
    if (call.path === '/oauth/token' && call.method === 'POST') return await tokenEndpoint(state, req, res);
    const inside = call.path === BASE || call.path.startsWith(`${BASE}/`);
    const { routes, params } = matchPath(inside ? call.path.slice(BASE.length) : '\u0000');
    const route = routes.find((r) => r.method === call.method || (r.method === 'GET' && call.method === 'HEAD'));
    if (!route) {
      if (routes.length > 0) call.headers.allow = [...new Set(routes.map((r) => r.method))].join(', ');
      const detail = routes.length > 0 ? `${call.method} is not offered on this path.` : 'No route matches this path.';
      return sendError(call, 'not_found', 'Not Found.', detail, `See ${BASE} for the routes of this interface.`);
    }
    if (route.auth && !authenticate(state, call)) return;
    if (!checkVersion(state, call)) return;
    await dispatchRoute(state, call, route.operationId, params);
  } catch {
    sendError(
      call,
      'internal',
      'Server Error.',
      undefined,
      `Note the request id ${call.requestId} and inform support.`,
    );
  }
}

export interface OakTarget {
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

function listen(state: State, port: number, sockets: Set<Socket>) {
  const server = createServer((req, res) => void handle(state, req, res));
  server.keepAliveTimeout = 5000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise<typeof server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

export async function startOak(options: OakOptions & { port?: number; altPort?: number } = {}): Promise<OakTarget> {
  const clientSecret = `oak-secret-${randomBytes(16).toString('hex')}`;
  const state = createState(options, clientSecret);
  const sockets = new Set<Socket>();
  const main = await listen(state, options.port ?? 0, sockets);
  const alt = await listen(state, options.altPort ?? 0, sockets);
  const url = (s: typeof main) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const baseUrl = url(main);
  return {
    baseUrl,
    altBaseUrl: url(alt),
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      state.listeners.clear();
      for (const s of sockets) s.destroy();
      await Promise.all([main, alt].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
