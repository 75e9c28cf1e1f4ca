// The router's table: public routes (self-description, OpenAPI, stream) and the authenticated ones.
import { ENVIRONMENTS } from './catalog-kv.ts';
import type { Route } from './http-kit.ts';
import { BASE, type Ctx, CURRENT_VERSION, invalid, sendJson, VERSIONS } from './http-kit.ts';
import { METADATA_PATH, TOKEN_PATH } from './oauth.ts';
import { buildOpenApi } from './openapi.ts';
import { catalogRoutes } from './routes-catalog.ts';
import { connectionRoutes } from './routes-connections.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { nonNegativeInt } from './validate.ts';
import { EVENT_NAMES, SIGNATURE_HEADER } from './webhook-queue.ts';
import type { World } from './world.ts';

function firstHeader(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function openStream(ctx: Ctx, w: World): void {
  // Last-Event-ID (what an EventSource sends on reconnect) wins over ?cursor when both are given.
  const lastId = firstHeader(ctx, 'last-event-id');
  const cursor = ctx.query.get('cursor');
  let after: number | undefined;
  if (cursor !== null) after = nonNegativeInt(cursor, 'cursor');
  if (lastId !== undefined && lastId.trim() !== '') after = nonNegativeInt(lastId.trim(), 'Last-Event-ID');
  const tenant = firstHeader(ctx, 'x-service-tenant')?.trim() ?? '';
  const hub = w.tenants.get(tenant)?.stream ?? w.publicStream;
  if (w.opts.refuseAhead && after !== undefined && after > hub.seq) {
    throw invalid(
      'The position is ahead of the stream: no message has that number yet.',
      `The last number sent is ${hub.seq}.`,
    );
  }
  // Without a position: live messages only, from the current sequence on (or the whole backlog, streamFromStart).
  hub.attach(ctx.res, after ?? (w.opts.streamFromStart ? 0 : hub.seq), w.opts.heartbeatMs, w.opts.streamMaxMs);
}

export function selfDescription(ctx: Ctx, w: World): Record<string, unknown> {
  const spell = (p: string): string => `${BASE}${w.opts.honoPaths ? p : p.replace(/:(\w+)/g, '{$1}')}`;
  return {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: w.opts.noMetadata ? null : `${ctx.origin}${METADATA_PATH}`,
      headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant' },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: routesOf(w)
        .filter((r) => r.key === 'required')
        .map((r) => `${r.method} ${spell(r.path)}`),
      retentionHours: 24,
      scope: 'tenant',
    },
    routes: routesOf(w)
      .filter((r) => r.since === undefined || ctx.version >= r.since)
      .map((r) => ({
        method: r.method,
        path: spell(r.path),
        purpose: r.purpose,
        auth: r.auth,
      })),
    versions: { current: CURRENT_VERSION, published: VERSIONS },
    environments: ENVIRONMENTS,
    webhooks: { events: EVENT_NAMES, signatureHeader: SIGNATURE_HEADER },
    openapi: Object.fromEntries(
      VERSIONS.map((v) => [v, { json: `${BASE}/openapi/${v}.json`, yaml: `${BASE}/openapi/${v}.yaml` }]),
    ),
  };
}

const publicRoutes: Route[] = [
  {
    method: 'GET',
    path: '',
    purpose: 'self-description',
    auth: false,
    key: 'none',
    contract: true,
    run: (ctx, w) => selfDescription(ctx, w),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    contract: true,
    raw: true,
    run: (ctx, w) => sendJson(ctx, 200, buildOpenApi(routesOf(w), CURRENT_VERSION, w.opts.publishedServers)),
  },
  {
    method: 'GET',
    path: '/stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    contract: true,
    raw: true,
    run: openStream,
  },
];

/** The routes this deployment serves with its options (the delivery log in one of two layouts). */
export function routesOf(w: World): Route[] {
  const layout = w.opts.flatDeliveryLog ? 'flat' : 'nested';
  return ROUTES.filter((r) => r.layout === undefined || r.layout === layout);
}

export const ROUTES: Route[] = [...publicRoutes, ...catalogRoutes, ...connectionRoutes, ...webhookRoutes];
