// larch: an independent deployment of the Network Connections Service interface, written from interface.md
// alone in the manner of an enterprise Java/Spring Boot team. Two loopback listeners share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, tokenEndpoint } from './auth.ts';
import {
  ApiError,
  type Ctx,
  fail,
  instant,
  invalid,
  ok,
  parseJsonObject,
  readBody,
  sendJson,
  traceId,
} from './http-kit.ts';
import { readKey } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { BASE, KEY_PATTERN, type LarchOptions, resolveConfig, TOKEN_PATH, VERSION, VERSIONS } from './options.ts';
import { findRoute } from './routes.ts';
import { selfDescription } from './self-description.ts';
import { createState, type State } from './store.ts';
import { openStream } from './stream.ts';
import { toYaml } from './yaml.ts';

/** The per-version description as a downloadable file (Content-Disposition: attachment). */
function sendFile(ctx: Ctx, doc: unknown, yaml: boolean, name: string): void {
  const text = yaml ? toYaml(doc) : JSON.stringify(doc, null, 2);
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'content-disposition': `attachment; filename="${name}"`,
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

export type Larch = {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
};

const TENANT = 'tenant-4711';
const OTHER_TENANT = 'tenant-4712';
const FOREIGN_TENANT = 'tenant-4713';
const CLIENT_ID = 'larch-integration-client';

function versionOf(state: State, ctx: Ctx): void {
  const v = ctx.req.headers['service-version'];
  if (v === undefined) {
    if (state.config.serviceVersionRequired) {
      throw invalid(
        'Missing Service-Version',
        "Required request header 'Service-Version' is not present.",
        `Send Service-Version: ${VERSION}.`,
      );
    }
    return;
  }
  const value = String(v).trim();
  if (!VERSIONS.includes(value)) {
    throw invalid(
      'Unsupported Service-Version',
      `Service-Version '${value.slice(0, 40)}' is not offered.`,
      `Use one of ${VERSIONS.join(', ')}.`,
    );
  }
  ctx.version = value;
}

function pageStyle(state: State): 'page' | 'hal' | 'impl' {
  return state.config.pageImpl ? 'impl' : state.config.hal ? 'hal' : 'page';
}

async function handle(
  state: State,
  closers: Set<() => void>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const ctx: Ctx = {
    req,
    res,
    requestId: traceId(),
    version: VERSION,
    path: url.pathname,
    query: url.searchParams,
    origin,
    headers: {},
  };
  try {
    if (url.pathname === TOKEN_PATH) return tokenEndpoint(state, req, res, await readBody(req));
    if (url.pathname === '/realms/larch/.well-known/openid-configuration') {
      return sendJson(ctx, 200, {
        issuer: `${origin}/realms/larch`,
        token_endpoint: `${origin}${TOKEN_PATH}`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    if (!url.pathname.startsWith(BASE))
      throw new ApiError(
        'not_found',
        'No handler found',
        `No endpoint ${req.method} ${url.pathname.slice(0, 120)}.`,
        `All paths start with ${BASE}.`,
      );
    const sub = url.pathname.slice(BASE.length);
    const found = findRoute(req.method ?? 'GET', sub);
    const route = found.route;
    if (route && !route.auth) {
      versionOf(state, ctx);
      if (route.path === '/stream') return openStream(state, ctx, closers);
      if (route.path === '/openapi.json') return sendJson(ctx, 200, openApiDocument(origin, pageStyle(state)));
      const file = /^\/openapi\/([0-9-]+)\.(json|yaml)$/.exec(route.path);
      if (file)
        return sendFile(
          ctx,
          openApiDocument(origin, pageStyle(state), file[1]),
          file[2] === 'yaml',
          `larch-openapi-${file[1]}.${file[2]}`,
        );
      return ok(ctx, selfDescription(origin, state));
    }
    // Spring Security guards everything below the base path: an unknown path needs a token too.
    const who = authenticate(state, ctx);
    versionOf(state, ctx);
    if (!route) {
      throw new ApiError(
        'not_found',
        'No handler found',
        found.pathKnown
          ? `Request method '${req.method}' is not supported for this path.`
          : `No endpoint ${req.method} ${url.pathname.slice(0, 120)}.`,
        'Compare the path with the published OpenAPI description.',
      );
    }
    const key = route.key === 'none' ? undefined : readKey(ctx, route.key === 'required');
    if (route.key === 'none') {
      const sent = req.headers['idempotency-key'];
      if (typeof sent === 'string' && KEY_PATTERN.test(sent)) ctx.idempotencyKey = sent;
    }
    const raw = await readBody(req);
    const body = route.body ? parseJsonObject(ctx, raw) : {};
    if (route.path === '/info') {
      return ok(ctx, {
        clientId: who.clientId,
        tenant: who.tenant,
        environment: who.environment,
        purpose: 'conformance and integration tests',
        owner: 'platform-integration@larch.example',
        serverTime: instant(),
      });
    }
    route.run?.({ state, ctx, who, key, body, params: found.params });
  } catch (e) {
    if (e instanceof ApiError) return fail(ctx, e);
    // Internal details stay in the server log; the answer quotes the request id only.
    console.error(`[larch] ${ctx.requestId} internal error`, e);
    fail(
      ctx,
      new ApiError(
        'internal',
        'Internal server error',
        'An unexpected error occurred on the service side.',
        `Quote request id ${ctx.requestId} to support.`,
      ),
    );
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startLarch(options: LarchOptions = {}): Promise<Larch> {
  const clientSecret = `larch-sandbox-secret-${traceId()}`;
  const state = createState(resolveConfig(options), CLIENT_ID, clientSecret, [TENANT, OTHER_TENANT], FOREIGN_TENANT);
  const closers = new Set<() => void>();
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(state, closers, req, res);
    }),
  );
  const [main, alt] = servers as [Server, Server];
  // Tomcat's defaults: keep-alive 20 s, at most 100 requests per connection (then Connection: close).
  for (const s of servers) {
    s.keepAliveTimeout = 20_000;
    s.maxRequestsPerSocket = 100;
  }
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: CLIENT_ID,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      state.closed = true;
      for (const t of state.timers) clearTimeout(t);
      for (const c of [...closers]) c();
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
