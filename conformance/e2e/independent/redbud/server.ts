// Redbud: an independent deployment of the interface, written from interface.md alone as a Rust Rocket +
// Diesel team would build it, ported to node:http. One store, two loopback listeners (main and alternate).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { bearer, CLIENT_ID, CLIENT_SECRET, TOKEN_PATH, tenant as tenantGuard, tokenEndpoint } from './auth.ts';
import { Deliveries } from './deliveries.ts';
import { ApiError, type Ctx, fail, newCtx, ok, send, VERSIONS } from './http.ts';
import { issueKey } from './idempotency.ts';
import { openapi } from './openapi.ts';
import { Gcra, rateKey } from './rate-limit.ts';
import * as res from './resources.ts';
import { ROUTES, selfDescription } from './routes.ts';
import { newStore, type RedbudOptions } from './state.ts';
import { Hub } from './stream.ts';
import { EVENT_NAMES, Webhooks } from './webhooks.ts';
import { toYaml } from './yaml.ts';

export type { RedbudOptions } from './state.ts';

type Handler = (ctx: Ctx, who: { clientId: string; tenant: string }, params: string[]) => void | Promise<void>;

function compile(path: string): RegExp {
  return new RegExp(`^${path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
}

export async function startRedbud(options: RedbudOptions = {}) {
  const store = newStore(options);
  const audit = new AuditLog(store);
  const hub = new Hub();
  const webhooks = new Webhooks(store, audit);
  const deliveries = new Deliveries(store, webhooks, audit);
  const gcra = new Gcra(store);
  const deps = { store, hub, audit, webhooks };
  let origin = '';

  const handlers: Record<string, Handler> = {
    'GET /api/public/v1': (ctx) => ok(ctx, selfDescription(TOKEN_PATH, EVENT_NAMES)),
    'GET /api/public/v1/openapi.json': (ctx) => send(ctx, 200, openapi(`${origin}${TOKEN_PATH}`)),
    'GET /api/public/v1/openapi/{file}': (ctx, _w, [file]) => versionFile(ctx, file ?? ''),
    'GET /api/public/v1/info': (ctx, w) =>
      ok(ctx, { service: 'redbud network connections', version: ctx.version, environment: 'sandbox', ...w }),
    'GET /api/public/v1/providers': (ctx) => res.listProviders(ctx),
    'GET /api/public/v1/connectors': (ctx) => res.listConnectors(ctx),
    'GET /api/public/v1/capabilities': (ctx) => res.listCapabilities(ctx),
    'POST /api/public/v1/capabilities': (ctx) => res.checkCapability(ctx),
    'GET /api/public/v1/connections': (ctx, w) => res.listConnections(ctx, store, w.tenant),
    'POST /api/public/v1/connections': (ctx, w) => res.createConnection(ctx, deps, w.tenant, w.clientId),
    'POST /api/public/v1/idempotency-keys': (ctx, w) => issueKey(ctx, store, w.tenant),
    'GET /api/public/v1/stream': (ctx) => hub.open(ctx, store),
    'GET /api/public/v1/webhooks': (ctx, w) => webhooks.list(ctx, w.tenant),
    'POST /api/public/v1/webhooks': (ctx, w) => webhooks.create(ctx, w.tenant, w.clientId),
    'DELETE /api/public/v1/webhooks/{webhookId}': (ctx, w, [id]) =>
      webhooks.remove(ctx, w.tenant, w.clientId, id ?? ''),
    'GET /api/public/v1/webhook-deliveries': (ctx, w) => deliveries.list(ctx, w.tenant),
    'POST /api/public/v1/webhook-deliveries/{deliveryId}/retry': (ctx, w, [id]) =>
      deliveries.retry(ctx, w.tenant, w.clientId, id ?? ''),
    'GET /api/public/v1/audit-log': (ctx, w) => audit.list(ctx, w.tenant),
  };
  const table = ROUTES.map((r) => ({ r, re: compile(r.path), run: handlers[`${r.method} ${r.path}`] }));

  function versionFile(ctx: Ctx, file: string): void {
    const m = /^(2026-06-12|2026-07-01)\.(json|yaml)$/.exec(file);
    if (!m) throw new ApiError('not_found', 'No such document');
    const doc = openapi(`${origin}${TOKEN_PATH}`);
    doc.info.version = m[1];
    // The delivery log came with 2026-07-01; the earlier version's document does not describe it.
    if (m[1] === '2026-06-12')
      for (const p of Object.keys(doc.paths)) if (p.startsWith('/webhook-')) delete doc.paths[p];
    ctx.headers['content-disposition'] = `attachment; filename="redbud-openapi-${file}"`;
    if (m[2] === 'json') send(ctx, 200, doc);
    else send(ctx, 200, toYaml(doc), 'application/yaml; charset=utf-8');
  }

  async function handle(req: IncomingMessage, response: ServerResponse): Promise<void> {
    const ctx = newCtx(req, response, 'http://127.0.0.1');
    try {
      const sv = req.headers['service-version'];
      if (typeof sv === 'string') {
        if (!(VERSIONS as readonly string[]).includes(sv.trim())) {
          throw new ApiError('invalid_request', 'Unknown Service-Version', `supported: ${VERSIONS.join(', ')}`);
        }
        ctx.version = sv.trim();
      }
      if (ctx.url.pathname === TOKEN_PATH && req.method === 'POST') return await tokenEndpoint(ctx, store);
      const hit = table.find((t) => t.r.method === req.method && t.re.test(ctx.url.pathname));
      if (!hit?.run) throw new ApiError('not_found', 'No route for this method and path');
      const params = (hit.re.exec(ctx.url.pathname) ?? []).slice(1).map(decodeURIComponent);
      const who = { clientId: '', tenant: '' };
      let guardError: unknown;
      if (hit.r.auth) {
        try {
          who.clientId = bearer(ctx, store);
          who.tenant = tenantGuard(ctx, store);
        } catch (e) {
          guardError = e;
        }
      }
      gcra.check(ctx, rateKey(ctx, who.clientId || undefined, who.tenant || undefined));
      if (guardError) throw guardError;
      await hit.run(ctx, who, params);
    } catch (e) {
      if (response.headersSent) return void response.destroy();
      fail(ctx, e instanceof ApiError ? e : new ApiError('internal', 'Internal error'));
    }
  }

  const servers: Server[] = [createServer((q, s) => void handle(q, s)), createServer((q, s) => void handle(q, s))];
  const ports: number[] = [];
  for (const srv of servers) {
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    ports.push((srv.address() as AddressInfo).port);
  }
  origin = `http://127.0.0.1:${ports[0]}`;
  return {
    baseUrl: origin,
    altBaseUrl: `http://127.0.0.1:${ports[1]}`,
    tenant: 'trattoria-nord',
    otherTenant: 'bistro-sued',
    foreignTenant: 'kantine-west',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${origin}${TOKEN_PATH}`,
    async close(): Promise<void> {
      deliveries.stop();
      hub.closeAll();
      await Promise.all(
        servers.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()) && srv.closeAllConnections())),
      );
    },
  };
}
