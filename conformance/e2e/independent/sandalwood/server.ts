// sandalwood: the Network Connections Service interface on node:http, two loopback addresses over one state.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Call, CURRENT_VERSION, fail, newId, ok, PREFIX, readJson, VERSIONS } from './http.ts';
import { KEY_PATTERN, KEY_TTL_MS, readKey } from './idempotency.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import { match } from './router.ts';
import { ROUTES, type Route } from './routes.ts';
import { RELEASED_TENANTS, type SandalwoodOptions, State, UNRELEASED_TENANT } from './state.ts';
import { endStreams } from './stream.ts';
import { SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

export type { SandalwoodOptions } from './state.ts';

export interface Sandalwood {
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

interface Origins {
  servers: string[];
  tokenUrl: string;
}

function describe(call: Call, origins: Origins): unknown {
  return {
    service: 'sandalwood',
    surface: 'public',
    version: call.version,
    versions: [...VERSIONS],
    environment: 'sandbox',
    baseUrls: origins.servers.map((s) => `${s}${PREFIX}`),
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: origins.tokenUrl,
      clientAuthentication: ['client_secret_basic', 'client_secret_post'],
      bearerHeader: 'Authorization',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      ttlSeconds: KEY_TTL_MS / 1000,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${r.path}`),
    },
    rateLimit: {
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After'],
      scope: 'access, tenant, environment',
    },
    webhooks: {
      events: WEBHOOK_EVENTS,
      signatureHeader: SIGNATURE_HEADER,
      signature: 't=<unix-seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">',
      toleranceSeconds: 300,
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

function serveDocument(call: Call, route: Route, params: string[], origins: Origins): void {
  const version = route.operationId.startsWith('download') ? (params[0] ?? '') : call.version;
  if (!(VERSIONS as readonly string[]).includes(version))
    throw new ApiError('not_found', 'No document for this version.');
  const doc = openApiDocument(version, origins.servers, origins.tokenUrl);
  const yaml = route.operationId.includes('Yaml');
  const headers: Record<string, string> = {
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'x-request-id': call.requestId,
  };
  if (route.operationId.startsWith('download'))
    headers['content-disposition'] = `attachment; filename="sandalwood-openapi-${version}.${yaml ? 'yaml' : 'json'}"`;
  call.res.writeHead(200, headers);
  call.res.end(yaml ? `${toYaml(doc).trimStart()}\n` : JSON.stringify(doc, null, 2));
}

async function handle(state: State, origins: Origins, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === TOKEN_PATH) return tokenEndpoint(state, req, res);
  const call: Call = { req, res, url, requestId: newId('req', 20), version: CURRENT_VERSION };
  try {
    const asked = req.headers['service-version'];
    const v = Array.isArray(asked) ? asked[0] : asked;
    if (v !== undefined && v !== '') {
      if (!(VERSIONS as readonly string[]).includes(v))
        throw new ApiError('invalid_request', `Unknown Service-Version ${v}.`, {
          hint: `Use one of ${VERSIONS.join(', ')}.`,
          field: 'Service-Version',
        });
      call.version = v;
    }
    const found = match(req.method ?? 'GET', url.pathname);
    if (!found) throw new ApiError('not_found', 'No such route.', { hint: `See GET ${PREFIX} for the routes.` });
    const { route, params } = found;
    if (route.auth) authenticate(state, call);
    if (route.key) readKey(call, true); // a missing key is told before the body is judged
    const body = route.body ? (await readJson(req)).body : {};
    if (route.operationId === 'describeService') return ok(call, describe(call, origins));
    if (route.operationId.toLowerCase().includes('openapi')) return serveDocument(call, route, params, origins);
    const data = route.run({ state, call, params, body });
    if (data !== undefined) ok(call, data);
  } catch (e) {
    if (res.headersSent) return void res.end();
    fail(
      call,
      e instanceof ApiError ? e : new ApiError('internal', 'Internal fault; quote the request identifier to support.'),
    );
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** Starts both addresses over one state; resolves to the handle the kit reads. */
export async function startSandalwood(options: SandalwoodOptions = {}): Promise<Sandalwood> {
  const state = new State(options, `sws_${randomBytes(24).toString('base64url')}`);
  const origins: Origins = { servers: [], tokenUrl: '' };
  const servers = [0, 1].map(() => createServer((req, res) => void handle(state, origins, req, res)));
  const [base, alt] = await Promise.all(servers.map(listen));
  origins.servers.push(base ?? '', alt ?? '');
  origins.tokenUrl = `${base}${TOKEN_PATH}`;
  state.publish('service.ready', { service: 'sandalwood', version: CURRENT_VERSION });
  return {
    baseUrl: `${base}${PREFIX}`,
    altBaseUrl: `${alt}${PREFIX}`,
    tenant: RELEASED_TENANTS[0] ?? '',
    otherTenant: RELEASED_TENANTS[1] ?? '',
    foreignTenant: UNRELEASED_TENANT,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: origins.tokenUrl,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      endStreams(state);
      await Promise.all(
        servers.map(
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
