// hornbeam: an independent deployment of the interface in the style of an edge/serverless team, on
// plain node:http. Two loopback listeners (main and alternate base address) share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { dispatch } from './dispatch.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { openapiDocument, selfDescription } from './openapi.ts';
import { take } from './rate-limit.ts';
import { BASE, match } from './routes.ts';
import { createState, type Options, type State } from './state.ts';
import { openStream, resumePoint } from './stream.ts';
import {
  type Answer,
  CURRENT_VERSION,
  envelope,
  fail,
  type Meta,
  ok,
  PUBLISHED_VERSIONS,
  readBody,
  sendJson,
  ulid,
} from './util.ts';

async function handle(state: State, req: IncomingMessage, res: ServerResponse, open: Set<ServerResponse>) {
  const requestId = ulid();
  const url = new URL(req.url ?? '/', 'http://hornbeam.invalid');
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const method = req.method ?? 'GET';
  const asked = req.headers['service-version'];
  const version = typeof asked === 'string' && PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Service-Version': version };
  if (typeof asked === 'string' && !PUBLISHED_VERSIONS.includes(asked))
    headers.Warning = `299 hornbeam "unknown Service-Version, answered as ${CURRENT_VERSION}"`;
  let meta: Meta = { requestId, version, at: '' };
  const reply = (a: Answer) => {
    meta.at = new Date().toISOString();
    sendJson(res, a.status, envelope(a, meta), { ...headers, ...a.headers });
  };
  const limited = (bucket: string): boolean => {
    const r = take(state, bucket);
    Object.assign(headers, r.headers);
    if (r.limited) reply(fail('rate_limited', 'too many calls in this window', 'wait Retry-After seconds'));
    return r.limited;
  };
  const raw = method === 'POST' || method === 'DELETE' ? await readBody(req) : '';
  const ip = `ip:${req.socket.remoteAddress ?? ''}`;

  if (path === TOKEN_PATH && method === 'POST') {
    if (limited(ip)) return;
    const t = tokenEndpoint(state, req, raw);
    return sendJson(res, t.status, t.body, { ...headers, 'cache-control': 'no-store' });
  }
  if (path === '/.well-known/oauth-authorization-server' && method === 'GET') {
    if (limited(ip)) return;
    return sendJson(res, 200, metadata(origin), headers);
  }
  const found = match(method, path === '/api/public/v1/' ? BASE : path);
  if (!found) {
    if (limited(ip)) return;
    return reply(fail('not_found', 'no such route', 'GET /api/public/v1 lists the routes'));
  }
  const { route, params } = found;
  if (state.opts.serviceVersionRequired && typeof asked !== 'string') {
    if (limited(ip)) return;
    return reply(fail('invalid_request', 'header Service-Version is required', `send ${CURRENT_VERSION}`));
  }
  if (!route.auth) {
    headers['Access-Control-Allow-Origin'] = '*';
    if (limited(ip)) return;
    if (route.id === 'describe') return reply(ok(selfDescription(state, origin)));
    if (route.id === 'stream') {
      const from = resumePoint(req, url);
      if (from !== null && typeof from === 'object') return reply(from);
      return openStream(state, streamFeed(state, req), res, from, headers, open);
    }
    const doc = JSON.stringify(openapiDocument(state), null, 2);
    // JSON is YAML 1.2: the YAML file is the same document, so the two can never disagree.
    const type = route.id === 'openapiYaml' ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8';
    res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(Buffer.byteLength(doc)) });
    return res.end(doc);
  }
  const who = bearer(state, req);
  if (!who) {
    if (limited(ip)) return;
    return reply(fail('unauthorized', 'a valid bearer token is required', `POST ${TOKEN_PATH} for one`));
  }
  const tenantHeader = req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader : '';
  if (!state.tenants.includes(tenant)) {
    if (limited(`client:${who.clientId}`)) return;
    return reply(fail('forbidden', 'this access is not released for the tenant', 'check x-service-tenant'));
  }
  if (limited(`access:${who.clientId}:${tenant}:sandbox`)) return;
  const keyHeader = req.headers['idempotency-key'];
  const key = typeof keyHeader === 'string' ? keyHeader : null;
  if (key === null && route.key)
    return reply(fail('idempotency_required', 'header Idempotency-Key is required', 'POST /idempotency-keys'));
  if (key !== null && method !== 'GET') {
    if (!KEY_PATTERN.test(key))
      return reply(fail('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$'));
    meta = { ...meta, idempotencyKey: key };
  }
  let body: unknown;
  if (method === 'POST') {
    try {
      body = raw.trim() === '' ? undefined : JSON.parse(raw);
    } catch {
      return reply(fail('invalid_request', 'the body is not valid JSON'));
    }
  }
  const out = await dispatch({
    state,
    route,
    params,
    query: url.searchParams,
    body,
    tenant,
    clientId: who.clientId,
    tokenExpiresAt: state.tokens.get(who.token)?.expiresAt ?? 0,
    requestId,
    key: method === 'GET' ? null : key,
  });
  if (meta.idempotencyKey !== undefined && out.answer.status === 200) meta.replayed = out.replayed === true;
  reply(out.answer);
}

/** The tenant's own feed for a released access when tenant streams are on, else the public one. */
function streamFeed(state: State, req: IncomingMessage): string {
  const tenant = req.headers['x-service-tenant'];
  if (!state.opts.tenantStreams || typeof tenant !== 'string' || !state.tenants.includes(tenant)) return 'public';
  return bearer(state, req) ? `tenant:${tenant}` : 'public';
}

export interface Hornbeam {
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

export async function startHornbeam(options: Options = {}): Promise<Hornbeam> {
  const state = createState(options);
  const open = new Set<ServerResponse>();
  const make = () =>
    createServer((req, res) => {
      handle(state, req, res, open).catch(() => {
        if (res.headersSent) return res.destroy();
        const meta = { requestId: ulid(), version: CURRENT_VERSION, at: new Date().toISOString() };
        sendJson(res, 500, envelope(fail('internal', 'fault on the service side'), meta), {
          'X-Request-Id': meta.requestId,
        });
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
    tenant: state.tenants[0] ?? '',
    otherTenant: state.tenants[1] ?? '',
    foreignTenant: 'moor-bakery',
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      for (const r of open) r.destroy();
      await Promise.all(
        [main, alt].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
