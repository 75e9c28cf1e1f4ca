// Tulip's server: two loopback listeners (the main and the alternate address) over one store, the token
// endpoint beside the API, and the middleware chain every authenticated route passes: error handling,
// authentication, tenant, rate limit, version, JSON body decoding, then the route.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, negotiateVersion, rateLimit, resolveTenant, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, newContext, readBody } from './http.ts';
import { match } from './router.ts';
import { ROUTES } from './routes.ts';
import { Store, type TulipOptions } from './state.ts';

export type { TulipOptions } from './state.ts';

const DEFAULTS: Required<TulipOptions> = {
  rateLimit: 600,
  windowMs: 60_000,
  tokenTtlSec: 300,
  auditDefaultLimit: 50,
  auditMaxLimit: 100,
  activationMs: 150,
  requireServiceVersion: false,
  javaInstants: false,
  pascalStates: false,
  auditProof: 'head-text',
  unnamedStreamEvents: false,
  cloudEvents: false,
  nestedWebhookAnswer: false,
  auditCursorPages: false,
  singleValuedQuery: false,
  unknownVersion: 'refuse',
  newestConnectionsFirst: false,
  outboxDelayMs: 0,
};

async function handle(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx = newContext(req, res);
  ctx.now = (ms?: number) => store.now(ms);
  try {
    if (ctx.path === TOKEN_PATH) return await tokenEndpoint(store, req, res);
    // An unmatched method is a 404 as http4s' `orNotFound` answers it (405 is not among the interface's statuses).
    const hit = ROUTES.filter((r) => r.method === ctx.method)
      .map((r) => ({ r, params: match(r.path, ctx.path) }))
      .find((x) => x.params);
    if (!hit?.params) throw new ApiError(404, 'not_found', 'No such route');
    ctx.params = hit.params;
    if (store.options.singleValuedQuery) {
      const repeated = [...new Set(ctx.query.keys())].find((k) => ctx.query.getAll(k).length > 1);
      if (repeated) throw new ApiError(400, 'invalid_request', 'Request is invalid', `${repeated}: a single value`);
    }
    if (hit.r.auth) {
      authenticate(store, ctx);
      resolveTenant(store, ctx);
      rateLimit(store, ctx);
    }
    negotiateVersion(store, ctx, hit.r.auth);
    await decodeBody(ctx);
    hit.r.handle(store, ctx);
  } catch (err) {
    fail(ctx, err);
  }
}

/** circe's `jsonOf` decoder: a body that is not JSON is a 400 before any route logic runs. */
async function decodeBody(ctx: Ctx): Promise<void> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return;
  ctx.rawBody = await readBody(ctx.req);
  if (ctx.rawBody.trim() === '') return;
  try {
    ctx.body = JSON.parse(ctx.rawBody);
  } catch {
    throw new ApiError(400, 'invalid_request', 'Request is invalid', 'body: malformed JSON');
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Starts tulip on two loopback ports sharing one store.
 * @example const t = await startTulip({ rateLimit: 250, windowMs: 5000 }); await t.close();
 */
export async function startTulip(options: TulipOptions = {}) {
  const tenants = ['tulip-harbor', 'tulip-garden'];
  const client = {
    id: `ncs-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(24).toString('base64url'),
    tenants,
  };
  const store = new Store({ ...DEFAULTS, ...options }, client, [...tenants, 'tulip-foreign']);
  const servers = [0, 1].map(() => createServer((req, res) => void handle(store, req, res)));
  const [baseUrl, altBaseUrl] = await Promise.all(servers.map(listen));
  return {
    baseUrl: baseUrl ?? '',
    altBaseUrl: altBaseUrl ?? '',
    tenant: 'tulip-harbor',
    otherTenant: 'tulip-garden',
    foreignTenant: 'tulip-foreign',
    clientId: client.id,
    clientSecret: client.secret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      for (const t of store.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
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
