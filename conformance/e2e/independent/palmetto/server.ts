// palmetto: an independent deployment of the interface in the manner of a Java Dropwizard team (Jersey
// resources, Jackson defaults, Hibernate Validator messages, JDBI sequences, a Managed webhook executor, an
// audit chain with a daily Merkle root), ported to node:http. Two addresses serve one store.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Audit } from './audit.ts';
import { Auth, CLIENT_ID, TENANTS, TOKEN_PATH } from './auth.ts';
import { ApiError, type Ctx, CURRENT, newRequestId, readBody, sendError, VERSIONS } from './http.ts';
import { Idempotency } from './idempotency.ts';
import { notFound, type Route, routes, type Services } from './routes.ts';
import { type PalmettoOptions, Store } from './state.ts';
import { Stream } from './stream.ts';
import { Webhooks } from './webhooks.ts';

export type { PalmettoOptions } from './state.ts';

function match(
  table: Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | 'method' | undefined {
  let pathMatched = false;
  for (const route of table) {
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/\{(\w+)\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}/?$`,
    );
    const m = re.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return pathMatched ? 'method' : undefined;
}

async function handle(s: Services, table: Route[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const raw = await readBody(req);
  if (url.pathname === TOKEN_PATH && req.method === 'POST') return s.auth.token(req, res, raw);
  const ctx: Ctx = {
    req,
    res,
    url,
    params: {},
    requestId: newRequestId(),
    version: CURRENT,
    raw,
    body: undefined,
    tenant: '',
    clientId: '',
    headers: {},
  };
  try {
    // Service-Version is optional; a known earlier version is answered as that version, an unknown one refused.
    const asked = req.headers['service-version'];
    if (typeof asked === 'string' && asked !== '') {
      if (!VERSIONS.includes(asked))
        throw new ApiError(
          400,
          'invalid_request',
          `Unsupported Service-Version ${asked}`,
          `supported: ${VERSIONS.join(', ')}`,
        );
      ctx.version = asked;
    }
    const found = match(table, req.method ?? 'GET', url.pathname);
    if (found === undefined) notFound();
    if (found === 'method') throw new ApiError(404, 'not_found', 'HTTP 405 Method Not Allowed');
    ctx.params = found.params;
    if (found.route.path.endsWith('/stream')) {
      const authed = req.headers.authorization !== undefined;
      if (authed) s.auth.authenticate(ctx);
      return s.stream.open(ctx, authed);
    }
    if (found.route.auth) s.auth.authenticate(ctx);
    found.route.handle(ctx, s);
  } catch (err) {
    sendError(ctx, err);
  }
}

/** Starts palmetto on two loopback ports; the handle is what the kit reads as a CI job's environment. */
export async function startPalmetto(options: PalmettoOptions = {}) {
  const store = new Store({
    rateLimit: 1200,
    windowMs: 60_000,
    tokenTtlSeconds: 3600,
    auditMaxPerPage: 100,
    auditGenesis: 'zeros',
    auditPaging: 'field',
    deliveryDelayMs: 0,
    ...options,
  });
  const s: Services = {
    store,
    auth: new Auth(store),
    idem: new Idempotency(),
    stream: new Stream(store),
    webhooks: new Webhooks(store),
    audit: new Audit(store),
  };
  const table = routes();
  const listen = async (): Promise<Server> => {
    const server = createServer((req, res) => {
      handle(s, table, req, res).catch((e) => {
        console.error('palmetto', e);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const main = await listen();
  const alt = await listen();
  const base = (srv: Server) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return {
    baseUrl: base(main),
    altBaseUrl: base(alt),
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: s.auth.clientSecret,
    tokenUrl: `${base(main)}${TOKEN_PATH}`,
    async close(): Promise<void> {
      s.stream.closeAll();
      await s.webhooks.drain();
      for (const srv of [main, alt]) {
        srv.closeAllConnections();
        await new Promise<void>((resolve) => srv.close(() => resolve()));
      }
    },
  };
}
