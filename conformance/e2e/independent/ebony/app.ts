// The request pipeline of ebony, as the API Connect gateway and z/OS Connect run it: transaction id, token URL,
// version, route, authentication, tenant, plan rate limit, body, idempotency, then the CICS-side handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TOKEN_PATH } from './auth.ts';
import {
  ApiError,
  BASE,
  type Call,
  CURRENT_VERSION,
  newRequestId,
  newTransactionId,
  parseBody,
  readRaw,
  sendError,
  sendJson,
  sendOk,
  VERSIONS,
} from './http.ts';
import { IdempotencyStore } from './idempotency.ts';
import { openapi } from './openapi.ts';
import { type Route, routes } from './routes.ts';
import type { Ebony } from './state.ts';
import { yamlDocument } from './yaml.ts';

const TABLE = routes().map((r) => ({
  route: r,
  names: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
  pattern: new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`),
}));

function match(method: string, path: string): { route: Route; params: Record<string, string> } | 'method' | undefined {
  let pathKnown = false;
  for (const t of TABLE) {
    const m = t.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (t.route.method !== method) continue;
    const params: Record<string, string> = {};
    t.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: t.route, params };
  }
  return pathKnown ? 'method' : undefined;
}

export function handler(ebony: Ebony) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void serve(ebony, req, res);
  };
}

async function serve(e: Ebony, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const call: Call = {
    req,
    res,
    url,
    requestId: newRequestId(),
    version: CURRENT_VERSION,
    params: {},
    clientId: '',
    tenant: '',
    body: {},
    rawBody: '',
    idempotencyKey: undefined,
  };
  res.setHeader('X-Global-Transaction-ID', newTransactionId());
  res.setHeader('X-Request-ID', call.requestId);
  try {
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (path === TOKEN_PATH) return await e.authority.tokenEndpoint(req, res);
    const asked = header(req, 'service-version');
    if (asked !== undefined) {
      if ((VERSIONS as readonly string[]).includes(asked)) call.version = asked;
      else if (e.options.strictServiceVersion) {
        throw new ApiError(
          'invalid_request',
          'Unknown Service-Version.',
          `Service-Version: one of ${VERSIONS.join(', ')}`,
        );
      }
    }
    res.setHeader('Service-Version', call.version);
    const found = path === BASE || path.startsWith(`${BASE}/`) ? match(req.method ?? 'GET', path) : undefined;
    if (found === undefined || found === 'method' || (found.route.since && found.route.since > call.version)) {
      throw new ApiError(
        'not_found',
        'The entry does not exist.',
        found === 'method' ? `method ${req.method} not offered on ${path}` : `no route ${path}`,
      );
    }
    const { route, params } = found;
    call.params = params;
    if (route.auth) {
      const client = e.authority.client(req);
      call.clientId = client.clientId;
      call.tenant = e.authority.tenant(req, client);
      e.limiter.take(`${client.clientId}|${call.tenant}|sandbox`, res);
    } else if (!route.path.endsWith('/stream')) {
      e.publicLimiter.take(`public|${req.socket.remoteAddress}`, res);
    }
    if (route.method !== 'GET') {
      // Required on the routes marked so; on any other modifying call a key sent is honoured all the same.
      if (route.key || req.headers['idempotency-key'] !== undefined) {
        call.idempotencyKey = IdempotencyStore.key(req.headers['idempotency-key']);
      }
      call.rawBody = await readRaw(req);
      call.body = parseBody(call.rawBody);
    }
    if (!route.data) return answerSelf(e, call, route);
    if (call.idempotencyKey === undefined) {
      const data = route.handle(call, e);
      return sendOk(call, data);
    }
    const key = call.idempotencyKey;
    const scope = `${call.clientId}|${call.tenant}`;
    const fp = IdempotencyStore.fingerprint(
      route.method,
      route.path.replace(/\{(\w+)\}/g, (_m, n: string) => params[n] ?? ''),
      call.body,
    );
    const earlier = e.idempotency.lookup(scope, key, fp);
    if (earlier) return sendOk(call, earlier.data, { idempotencyKey: key, replayed: true });
    // Handlers answer synchronously: lookup, effect and record happen in one turn, so a duplicate sent at the
    // same moment finds the record and replays instead of acting twice.
    const data = route.handle(call, e);
    e.idempotency.store(scope, key, fp, data);
    if (route.audit) e.audit.record(call, route.audit[0], route.audit[1], String((data as { id?: unknown }).id ?? ''));
    sendOk(call, data, { idempotencyKey: key, replayed: false });
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(call, err);
  }
}

function answerSelf(e: Ebony, call: Call, route: Route): void {
  if (route.path.endsWith('/stream')) {
    e.stream.serve(call);
    return;
  }
  if (route.path.endsWith('/openapi.json') && !call.params.version) {
    sendJson(call.res, 200, openapi(call.version, e.baseUrl, e.altBaseUrl));
    return;
  }
  const version = call.params.version ?? '';
  if (!(VERSIONS as readonly string[]).includes(version)) {
    throw new ApiError('not_found', 'The entry does not exist.', `no description for version ${version}`);
  }
  const doc = openapi(version, e.baseUrl, e.altBaseUrl);
  const isYaml = route.path.endsWith('.yaml');
  const body = isYaml ? yamlDocument(doc) : `${JSON.stringify(doc, null, 2)}\n`;
  call.res.writeHead(200, {
    'content-type': isYaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="ebony-ncs-${version}.${isYaml ? 'yaml' : 'json'}"`,
    'content-length': Buffer.byteLength(body),
  });
  call.res.end(body);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}
