// cypress: an independent deployment of the interface, written from interface.md alone the way a Rails 7 API
// team would build it (Doorkeeper, Rack::Attack, jbuilder, Sidekiq, paper_trail). Two loopback listeners
// (main and alternate base address) share one state.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listAudit, newAudit } from './audit.ts';
import type { Call } from './handlers.ts';
import { fingerprint, lookup, remember } from './idempotency.ts';
import { authenticate, tenantOf, tokenEndpoint } from './oauth.ts';
import { openapiDocument, selfDescription, toYaml } from './openapi.ts';
import { throttle } from './rate-limit.ts';
import { match } from './routes.ts';
import { type CypressOptions, newSecret, resolveOptions, type State } from './state.ts';
import { closeStream, newStream, openStream } from './stream.ts';
import { ApiError, BASE, type Ctx, fail, header, newContext, ok, parseJsonObject, readBody, zonedIso } from './util.ts';
import { KEY_PATTERN } from './validate.ts';
import { newWebhookState } from './webhooks.ts';

export type { CypressOptions } from './state.ts';

const TENANT = 'cypress-harbor';
const OTHER_TENANT = 'cypress-summit';
const FOREIGN_TENANT = 'cypress-delta';

function newState(options?: CypressOptions): State {
  const resolved = resolveOptions(options);
  const iso = zonedIso(resolved.timeZone);
  let sequence = 0;
  return {
    options: resolved,
    iso,
    newId: () => (resolved.integerIds ? String(++sequence) : randomUUID()),
    clientId: 'cypress-integration',
    clientSecret: newSecret('cysec_', 24),
    released: new Set([TENANT, OTHER_TENANT]),
    tenants: new Set([TENANT, OTHER_TENANT, FOREIGN_TENANT]),
    tokens: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    throttle: new Map(),
    stream: newStream(iso),
    webhooks: newWebhookState(),
    audit: newAudit(),
    timers: new Set(),
    auditKey: randomBytes(32),
  };
}

/** Rack::Attack's discriminator: the access (client of a known token) and the tenant header. */
function discriminator(s: State, req: IncomingMessage): string {
  const m = /^bearer\s+(\S+)/i.exec(header(req, 'authorization') ?? '');
  const client = (m?.[1] && s.tokens.get(m[1])?.clientId) || `anonymous:${req.socket.remoteAddress ?? ''}`;
  return `${client}|${header(req, 'x-service-tenant') ?? ''}`;
}

function sendPublic(s: State, ctx: Ctx): void {
  const rest = ctx.path.slice(BASE.length);
  if (rest === '') {
    ok(ctx, selfDescription(ctx));
    return;
  }
  if (rest === '/stream') {
    openStream(s.stream, ctx, s.options.streamMaxMs);
    return;
  }
  const doc = openapiDocument(ctx);
  if (rest.endsWith('.yaml')) {
    const text = toYaml(doc);
    ctx.res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': 'attachment; filename="cypress-2026-07-01.yaml"',
      'x-request-id': ctx.requestId,
    });
    ctx.res.end(text);
    return;
  }
  ctx.res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  ctx.res.end(JSON.stringify(doc));
}

async function handle(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx = newContext(req, res);
  ctx.iso = s.iso;
  try {
    const raw = await readBody(req);
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.replace(/\/+$/, '');
    if (ctx.path === '/oauth/token' && ctx.method === 'POST') return tokenEndpoint(s, req, res, raw);
    const { route, params, pathKnown } = match(ctx.method, ctx.path);
    if (!route)
      throw new ApiError('not_found', pathKnown ? 'No route matches this method' : 'No route matches this path');
    if (!route.auth) return sendPublic(s, ctx);
    const t = throttle(s, discriminator(s, req));
    ctx.extraHeaders = { 'x-ratelimit-limit': String(t.limit), 'x-ratelimit-remaining': String(t.remaining) };
    if (t.retryAfter !== undefined) {
      ctx.extraHeaders['retry-after'] = String(t.retryAfter);
      throw new ApiError(
        'rate_limited',
        'Too many requests: throttle limit reached',
        `retry after ${t.retryAfter} s`,
        'respect Retry-After and retry with growing intervals',
      );
    }
    const access = authenticate(s, req);
    const tenant = tenantOf(s, req);
    const key = header(req, 'idempotency-key');
    if (route.key === 'required' && key === undefined) {
      throw new ApiError(
        'idempotency_required',
        'An Idempotency-Key header is required for this call',
        undefined,
        'send a key of 8 to 128 characters (A-Z a-z 0-9 . _ : -)',
      );
    }
    const useKey = route.key !== 'none' ? key : undefined;
    if (useKey !== undefined && !KEY_PATTERN.test(useKey)) {
      throw new ApiError(
        'invalid_request',
        'Idempotency-Key is invalid',
        'the key must match ^[A-Za-z0-9._:-]{8,128}$',
      );
    }
    const body =
      ctx.method === 'POST' && route.path !== '/webhook-deliveries/:deliveryId/retry'
        ? parseJsonObject(req, raw, s.options.formBodies)
        : {};
    const call: Call = { ctx, tenant, clientId: access.clientId, tokenExpiresAt: access.expiresAt, body, params };
    if (route.path === '/audit-log') return listAudit(s, ctx, tenant);
    // Keys per client (an OAuth application's key space): the tenant is then part of the content.
    const scope = s.options.keysPerClient ? access.clientId : `${access.clientId}|${tenant}`;
    const print = fingerprint(ctx.method, ctx.path, body, s.options.keysPerClient ? tenant : '');
    if (useKey !== undefined) {
      ctx.idempotencyKey = useKey;
      const earlier = lookup(s, scope, useKey, print);
      if (earlier !== undefined) {
        ctx.replayed = true;
        const data =
          s.options.redactKeyOnReplay && route.path === '/webhooks'
            ? { ...(earlier as object), signingKey: 'whsk_…(shown once)' }
            : earlier;
        return ok(ctx, data);
      }
    }
    const data = route.run?.(s, call);
    if (useKey !== undefined) remember(s, scope, useKey, print, data);
    ok(ctx, data);
  } catch (err) {
    if (res.headersSent) return void res.end();
    if (err instanceof ApiError) return fail(ctx, err);
    // Rails' public 500: the request id only, no exception class or backtrace.
    fail(
      ctx,
      new ApiError('internal', 'Something went wrong on our side', undefined, 'quote the request id to support'),
    );
  }
}

export interface CypressTarget {
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

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts cypress on two loopback ports (0: any free port) sharing one state. */
export async function startCypress(options?: CypressOptions, ports: [number, number] = [0, 0]): Promise<CypressTarget> {
  const s = newState(options);
  const servers = [0, 1].map(() => createServer((req, res) => void handle(s, req, res)));
  const [main, alt] = servers as [Server, Server];
  const mainPort = await listen(main, ports[0]);
  const altPort = await listen(alt, ports[1]);
  const baseUrl = `http://127.0.0.1:${mainPort}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const t of s.timers) clearTimeout(t);
      s.timers.clear();
      closeStream(s.stream);
      await Promise.all(
        servers.map(
          (srv) =>
            new Promise<void>((resolve) => {
              srv.closeAllConnections();
              srv.close(() => resolve());
            }),
        ),
      );
    },
  };
}
