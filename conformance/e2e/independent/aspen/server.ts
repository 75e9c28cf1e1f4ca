// aspen: an independent deployment of the Network Connections Service interface (bank-grade, strict style).
// Two loopback listeners (main and alternate base address) share one state. Pipeline of an API call:
// route -> (public: optional Service-Version) | (token -> rate window -> Service-Version -> tenant) -> handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auditPage } from './audit.ts';
import { authenticate, checkVersion, METADATA_PATH, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Call, HttpError, newCall, readJsonObject, readText, sendError, sendOk, sendRaw } from './http-kit.ts';
import { once, readKey } from './idempotency.ts';
import { openapi, openapiFile } from './openapi.ts';
import { ROUTES, type Route, selfDescription } from './route-table.ts';
import * as r from './routes.ts';
import {
  type AspenOptions,
  CLIENT_ID,
  createState,
  FOREIGN_TENANT,
  OTHER_TENANT,
  type State,
  TENANT,
} from './state.ts';
import { closeStreams, openStream } from './stream.ts';
import { deleteWebhook, listDeliveries, redeliver, registerWebhook } from './webhooks.ts';

export type { AspenOptions } from './state.ts';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function match(method: string, path: string): { route?: Route; params: string[]; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (m === null) continue;
    pathKnown = true;
    if (route.method === method) return { route, params: m.slice(1), pathKnown };
  }
  return { params: [], pathKnown };
}

/** An empty body or `{}`: the redelivery and removal calls take no fields. */
async function emptyBody(call: Call): Promise<Record<string, unknown>> {
  const hasBody = call.req.headers['content-length'] !== undefined && call.req.headers['content-length'] !== '0';
  if (!hasBody && call.req.headers['transfer-encoding'] === undefined) {
    await readText(call.req);
    return {};
  }
  const body = await readJsonObject(call);
  if (Object.keys(body).length > 0) throw new HttpError('invalid_request', 'this call takes no body fields');
  return body;
}

async function handle(state: State, origin: string, call: Call): Promise<void> {
  const path = call.url.pathname.replace(/\/+$/, '') || '/';
  const method = call.req.method ?? 'GET';
  if (path === TOKEN_PATH) return tokenEndpoint(state, call.req, call.res);
  if (path === METADATA_PATH && method === 'GET') return sendRaw(call.res, 200, metadata(origin));
  const { route, params, pathKnown } = match(method, path);
  if (route === undefined) {
    throw new HttpError('not_found', pathKnown ? `method ${method} is not offered on this path` : 'no such endpoint', {
      hint: 'see GET /api/public/v1 for the routes',
    });
  }
  if (!route.auth) {
    if (route.id === 'stream') return openStream(state, call);
    checkVersion(call, state.opts.versionEverywhere);
    if (call.url.search !== '') throw new HttpError('invalid_request', 'this endpoint takes no query parameters');
    if (route.id === 'openapi')
      return sendRaw(call.res, 200, openapi(undefined, state.opts.versionEverywhere), {
        'x-request-id': call.requestId,
      });
    const file = route.id === 'openapi-file' ? openapiFile(path, state.opts.versionEverywhere) : undefined;
    if (file !== undefined) {
      call.res.writeHead(200, {
        'content-type': file.type,
        'cache-control': 'public, max-age=300',
        'content-disposition': `attachment; filename="${path.split('/').pop()}"`,
        'x-request-id': call.requestId,
      });
      return void call.res.end(file.text);
    }
    return sendOk(call, selfDescription(origin, call.version));
  }
  authenticate(state, call);
  if (route.key === 'none' && state.opts.refuseKeyOnReads && call.req.headers['idempotency-key'] !== undefined) {
    throw new HttpError('invalid_request', 'this call takes no Idempotency-Key', {
      hint: 'send keys on modifying calls only',
    });
  }
  const [a = '', b = ''] = params;
  if (params.some((p) => !ULID.test(p)))
    throw new HttpError('not_found', 'no such entry', { hint: 'identifiers are ULIDs' });
  switch (route.id) {
    case 'providers':
      return sendOk(call, r.listProviders(call));
    case 'connectors':
      return sendOk(call, r.listConnectors(call));
    case 'capabilities':
      return sendOk(call, r.listCapabilities(call));
    case 'capability-check':
      return sendOk(call, await r.checkCapability(state, call));
    case 'connections':
      return sendOk(call, r.listConnections(state, call));
    case 'connection-create':
      return r.createConnection(state, call);
    case 'idempotency-keys':
      return r.createKey(state, call);
    case 'info':
      return sendOk(call, r.info(state, call));
    case 'audit-log':
      return sendOk(call, auditPage(state, call));
    case 'deliveries':
      if (call.url.search !== '') throw new HttpError('invalid_request', 'this endpoint takes no query parameters');
      return sendOk(call, listDeliveries(state, call, a));
  }
  readKey(call, true);
  if (call.url.search !== '') throw new HttpError('invalid_request', 'this endpoint takes no query parameters');
  if (route.id === 'webhook-create') {
    const body = await readJsonObject(call);
    return once(state, call, body, () => registerWebhook(state, call, body)());
  }
  const body = await emptyBody(call);
  if (route.id === 'redeliver') return once(state, call, body, () => redeliver(state, call, a, b)());
  return once(state, call, body, () => deleteWebhook(state, call, a)());
}

function listener(state: State, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const call = newCall(req, res);
    handle(state, origin(), call).catch((err: unknown) => {
      if (err instanceof HttpError) return sendError(call, err);
      sendError(call, new HttpError('internal', 'internal fault; quote the requestId to support'));
    });
  };
}

async function listen(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface AspenDeployment {
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

export async function startAspen(
  options: AspenOptions & { port?: number; altPort?: number } = {},
): Promise<AspenDeployment> {
  const state = createState(options);
  let main = '';
  let alt = '';
  const servers = [createServer(listener(state, () => main)), createServer(listener(state, () => alt))];
  for (const s of servers) {
    s.keepAliveTimeout = 5000;
    s.headersTimeout = 10_000;
  }
  const [s1, s2] = servers as [Server, Server];
  main = await listen(s1, options.port ?? 0);
  alt = await listen(s2, options.altPort ?? 0);
  const client = state.clients.get(CLIENT_ID);
  return {
    baseUrl: main,
    altBaseUrl: alt,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: CLIENT_ID,
    clientSecret: client?.secret ?? '',
    tokenUrl: `${main}${TOKEN_PATH}`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      closeStreams(state);
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
