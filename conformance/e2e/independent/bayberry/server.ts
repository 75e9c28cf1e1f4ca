// bayberry: an independent deployment of interface.md, as a Gleam team on the BEAM (wisp + mist) would write
// it, ported to node:http. Two loopback listeners share one store (the alternate address is a second mist
// listener under the same supervisor).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAudit } from './audit.ts';
import { authenticate, CLIENT_ID, CLIENT_SECRET, rateLimit, tokenEndpoint } from './auth.ts';
import * as dl from './deliveries.ts';
import { ApiError, type Ctx, fail, newRequestId, readBody } from './http.ts';
import { issueKey } from './idempotency.ts';
import { describe, info, openapiFile, openapiJson } from './public.ts';
import * as res from './resources.ts';
import { match, ROUTES } from './routes.ts';
import { type BayberryOptions, Store, VERSION, VERSIONS } from './state.ts';
import { openStream, startHeartbeat } from './stream.ts';
import * as wh from './webhooks.ts';

type Handler = (store: Store, ctx: Ctx, p: string[]) => void;

const HANDLERS: Record<string, Handler> = {
  describe: (_s, c) => describe(c),
  openapi: (_s, c) => openapiJson(c),
  openapi_json_file: (_s, c, p) => openapiFile(c, p[0] ?? '', 'json'),
  openapi_yaml_file: (_s, c, p) => openapiFile(c, p[0] ?? '', 'yaml'),
  info: (_s, c) => info(c),
  list_providers: (_s, c) => res.listProviders(c),
  list_connectors: (_s, c) => res.listConnectors(c),
  list_capabilities: (_s, c) => res.listCapabilities(c),
  check_capability: (s, c) => res.checkCapability(s, c),
  list_connections: (s, c) => res.listConnections(s, c),
  create_connection: (s, c) => res.createConnection(s, c),
  create_idempotency_key: (s, c) => issueKey(s, c),
  stream: (s, c) => openStream(s, c),
  list_webhooks: (s, c) => wh.listWebhooks(s, c),
  create_webhook: (s, c) => wh.createWebhook(s, c),
  get_webhook: (s, c, p) => wh.getWebhook(s, c, p[0] ?? ''),
  delete_webhook: (s, c, p) => wh.deleteWebhook(s, c, p[0] ?? ''),
  list_delivery_attempts: (s, c, p) => dl.listAttempts(s, c, p[0] ?? ''),
  replay_delivery_attempt: (s, c, p) => dl.replayAttempt(s, c, p[0] ?? '', p[1] ?? ''),
  audit_log: (s, c) => readAudit(s, c),
};

async function handle(store: Store, req: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const ctx: Ctx = { req, res: response, url, requestId: newRequestId(), version: VERSION, raw: '', headers: {} };
  try {
    ctx.raw = await readBody(req);
    if (url.pathname === '/oauth2/token' && req.method === 'POST') return tokenEndpoint(store, ctx);
    // Service-Version is optional; a value naming no published version is refused rather than guessed at.
    const asked = req.headers['service-version'];
    if (store.options.versionRequired && (typeof asked !== 'string' || asked === '')) {
      throw new ApiError(
        400,
        'invalid_request',
        'Service-Version header required',
        `Service-Version: one of ${VERSIONS.join(', ')}`,
      );
    }
    if (typeof asked === 'string' && asked !== '') {
      if (!VERSIONS.includes(asked))
        throw new ApiError(
          400,
          'invalid_request',
          'Unknown Service-Version',
          `Service-Version: one of ${VERSIONS.join(', ')}`,
        );
      ctx.version = asked;
    }
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    const candidates = ROUTES.map((r) => ({ r, p: match(r.path, path) })).filter((x) => x.p !== undefined);
    if (candidates.length === 0) throw new ApiError(404, 'not_found', 'No such route');
    const hit = candidates.find((x) => x.r.method === req.method);
    if (!hit) {
      const allow = candidates.map((x) => x.r.method).join(', ');
      // wisp answers 405 here; the interface pairs every code with one status and has no 405, so a method the
      // route does not offer is an unsuitable request (400), still naming the methods it does offer.
      throw new ApiError(400, 'invalid_request', 'Method not offered on this route', `allowed: ${allow}`, { allow });
    }
    if (hit.r.auth) {
      authenticate(store, ctx);
      ctx.headers = rateLimit(store, ctx);
    }
    if (store.options.deliveryLogSinceCurrent && ctx.version === '2026-06-12' && hit.r.op.includes('delivery')) {
      throw new ApiError(
        404,
        'not_found',
        'No such route in version 2026-06-12',
        'the delivery log was added in 2026-07-01',
      );
    }
    HANDLERS[hit.r.op]?.(store, ctx, hit.p ?? []);
  } catch (e) {
    if (e instanceof ApiError) fail(ctx, e);
    else fail(ctx, new ApiError(500, 'internal', 'Internal error; quote the request id to support'));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startBayberry(options: BayberryOptions = {}) {
  const store = new Store(options);
  const main = createServer((q, r) => void handle(store, q, r));
  const alt = createServer((q, r) => void handle(store, q, r));
  const [port, altPort] = await Promise.all([listen(main), listen(alt)]);
  const stopHeartbeat = startHeartbeat(store);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'lakeside-cafe',
    otherTenant: 'harbor-grill',
    foreignTenant: 'fjord-bistro',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}/oauth2/token`,
    async close(): Promise<void> {
      store.closed = true;
      stopHeartbeat();
      for (const s of [main, alt]) s.closeAllConnections();
      await Promise.all([main, alt].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
