// pawpaw: an independent deployment of the interface, written as a Kotlin Micronaut team would (ported to
// node:http): two loopback addresses over one store, routing, security filter, rate limiter, error handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auditLog, checkpoint, record } from './audit.ts';
import { authenticate, rateLimit, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Ctx, checkVersion, fail, HttpProblem, makeCtx, sendJson } from './http.ts';
import { issueKey } from './idempotency.ts';
import { describe, info } from './meta.ts';
import { openapi, yaml } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { match } from './routes.ts';
import { createStore, type PawpawOptions, type Store, VERSIONS } from './state.ts';
import { stream } from './stream.ts';
import { deliveryLog, list, redeliver, register, remove, retryDue } from './webhooks.ts';

function handle(store: Store, ctx: Ctx, ops: string, params: string[]) {
  const [a = '', b = ''] = params;
  const table: Record<string, () => void> = {
    describe: () => describe(store, ctx),
    openApi: () => sendJson(ctx, 200, openapi(ctx.version, store.options.versionedDeliveryLog)),
    info: () => info(ctx),
    listProviders: () => listProviders(ctx),
    listConnectors: () => listConnectors(ctx),
    listCapabilities: () => listCapabilities(ctx),
    checkCapability: () => checkCapability(store, ctx),
    listConnections: () => listConnections(store, ctx),
    createConnection: () => createConnection(store, ctx),
    createIdempotencyKey: () => issueKey(ctx),
    stream: () => stream(store, ctx),
    listWebhooks: () => list(store, ctx),
    createWebhook: () => register(store, ctx),
    deleteWebhook: () => remove(store, ctx, a),
    listDeliveryAttempts: () => deliveryLog(store, ctx, a),
    retryDeliveryAttempt: () => redeliver(store, ctx, a, b),
    auditLog: () => auditLog(store, ctx),
  };
  table[ops]?.();
}

/** Per-version OpenAPI files: /api/public/v1/openapi/network-connections-<version>.json|.yml */
function specFile(store: Store, ctx: Ctx): boolean {
  const m = /^\/api\/public\/v1\/openapi\/network-connections-([\d-]+)\.(json|yml|yaml)$/.exec(ctx.path);
  if (ctx.method !== 'GET' || !m?.[1] || !(VERSIONS as readonly string[]).includes(m[1])) return false;
  const doc = openapi(m[1], store.options.versionedDeliveryLog);
  const disposition = { 'content-disposition': `attachment; filename="network-connections-${m[1]}.${m[2]}"` };
  if (m[2] === 'json') sendJson(ctx, 200, doc, 'application/json', disposition);
  else sendJson(ctx, 200, `${yaml(doc).trimStart()}\n`, 'application/yaml', disposition);
  return true;
}

async function serve(store: Store, ctx: Ctx) {
  if (ctx.path === TOKEN_PATH && ctx.method === 'POST') return tokenEndpoint(store, ctx);
  checkVersion(ctx);
  if (specFile(store, ctx)) return;
  const found = match(ctx.method, ctx.path);
  const newer = found?.route.since && found.route.since > ctx.version && store.options.versionedDeliveryLog;
  // An unknown path and a known path with another method are both "no such entry" (404), never 405.
  if (!found || newer) throw new HttpProblem('not_found', `No route for ${ctx.method} ${ctx.path}`);
  if (found.route.auth) {
    authenticate(store, ctx);
    ctx.extra = rateLimit(store, ctx);
  } else if (store.options.limitPublic > 0) ctx.extra = rateLimit(store, ctx, store.options.limitPublic);
  handle(store, ctx, found.route.operationId, found.params);
}

export async function startPawpaw(options: PawpawOptions = {}) {
  const store = createStore(options);
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const ctx = await makeCtx(req, res);
    ctx.utcOffset = store.options.utcOffsetMinutes;
    ctx.indent = store.options.indentOutput ? 2 : 0;
    try {
      await serve(store, ctx);
    } catch (e) {
      const p =
        e instanceof HttpProblem
          ? e
          : new HttpProblem(
              'internal',
              'Internal server error',
              undefined,
              'Note the request identifier and inform support.',
            );
      fail(ctx, p, p.headers);
      // Micronaut's audit filter habit: a refusal of a signed-in call is a traceable event too.
      if (store.options.auditRefused && ctx.tenant && p.status !== 429)
        record(store, ctx.tenant, 'REQUEST_REFUSED', ctx.requestId, ctx.clientId, {
          method: ctx.method,
          path: ctx.path,
          status: p.status,
          code: p.code,
        });
    }
  };
  const servers: Server[] = [createServer(listener), createServer(listener)];
  const ports: number[] = [];
  for (const s of servers) {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    ports.push((s.address() as AddressInfo).port);
  }
  const scheduler = setInterval(() => {
    retryDue(store);
    checkpoint(store);
  }, store.options.schedulerMs);
  const [client, cred] = [...store.clients.entries()][0] ?? ['', { secret: '' }];
  const baseUrl = `http://127.0.0.1:${ports[0]}/api/public/v1`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${ports[1]}/api/public/v1`,
    tenant: 'wirtshaus-a',
    otherTenant: 'wirtshaus-b',
    foreignTenant: 'wirtshaus-c',
    clientId: client,
    clientSecret: cred.secret,
    tokenUrl: `http://127.0.0.1:${ports[0]}${TOKEN_PATH}`,
    async close() {
      clearInterval(scheduler);
      for (const t of store.timers) clearTimeout(t);
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
