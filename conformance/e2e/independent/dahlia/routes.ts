// The route table (also the source of the self-description and the OpenAPI paths) and the request pipeline.
import type { Issuer } from './auth.ts';
import { selfDescription } from './discovery.ts';
import type { Ctx } from './http-kit.ts';
import { HttpError, header, ok, sendJson } from './http-kit.ts';
import { openapiDocument } from './openapi.ts';
import type { Handler, Services } from './operations.ts';
import { operations } from './operations.ts';
import type { RateLimit } from './rate-limit.ts';
import type { Streams } from './stream.ts';
import { API, CURRENT_VERSION, sha256Hex } from './util.ts';

export interface Route {
  method: string;
  path: string; // with {param} placeholders
  auth: 'public' | 'yes' | 'key';
  purpose: string;
  handler: Handler;
  since?: string;
}
export interface Env {
  services: Services;
  issuer: Issuer;
  rateLimit: RateLimit;
  streams: Streams;
  tenants: string[]; // tenants that exist (released or not)
}

export function buildRoutes(env: Env): { routes: Route[]; authenticate: (ctx: Ctx) => void } {
  const op = operations(env.services);
  const routes: Route[] = [
    {
      method: 'GET',
      path: API,
      auth: 'public',
      purpose: 'self-description',
      handler: (ctx) => ok(ctx, selfDescription(ctx, routes)),
    },
    {
      method: 'GET',
      path: `${API}/openapi.json`,
      auth: 'public',
      purpose: 'OpenAPI 3.1 document',
      handler: (ctx) => sendJson(ctx, 200, openapiDocument(routes)),
    },
    { method: 'GET', path: `${API}/providers`, auth: 'yes', purpose: 'list providers', handler: op.providers },
    { method: 'GET', path: `${API}/connectors`, auth: 'yes', purpose: 'list connectors', handler: op.connectors },
    {
      method: 'GET',
      path: `${API}/capabilities`,
      auth: 'yes',
      purpose: 'capability catalog',
      handler: op.capabilities,
    },
    {
      method: 'POST',
      path: `${API}/capabilities`,
      auth: 'yes',
      purpose: 'check a capability of a connector',
      handler: op.checkCapability,
    },
    {
      method: 'GET',
      path: `${API}/connections`,
      auth: 'yes',
      purpose: 'connections of the tenant',
      handler: op.listConnections,
    },
    {
      method: 'POST',
      path: `${API}/connections`,
      auth: 'key',
      purpose: 'create a connection',
      handler: op.createConnection,
    },
    {
      method: 'GET',
      path: `${API}/connections/{id}`,
      auth: 'yes',
      purpose: 'one connection of the tenant',
      handler: op.oneConnection,
    },
    {
      method: 'POST',
      path: `${API}/idempotency-keys`,
      auth: 'yes',
      purpose: 'generate an idempotency key',
      handler: op.issueKey,
    },
    {
      method: 'GET',
      path: `${API}/stream`,
      auth: 'public',
      purpose: 'status stream (Server-Sent Events); per tenant when a token is sent',
      handler: (ctx) => stream(ctx),
    },
    {
      method: 'POST',
      path: `${API}/webhooks`,
      auth: 'key',
      purpose: 'create a webhook receiver',
      handler: op.createWebhook,
    },
    {
      method: 'GET',
      path: `${API}/webhooks`,
      auth: 'yes',
      purpose: 'webhook receivers of the tenant',
      handler: op.listWebhooks,
    },
    {
      method: 'GET',
      path: `${API}/webhooks/{id}`,
      auth: 'yes',
      purpose: 'one webhook receiver',
      handler: op.oneWebhook,
    },
    {
      method: 'DELETE',
      path: `${API}/webhooks/{id}`,
      auth: 'key',
      purpose: 'remove a webhook receiver',
      handler: op.deleteWebhook,
    },
    {
      method: 'GET',
      path: `${API}/webhooks/{id}/messages`,
      auth: 'yes',
      purpose: 'delivery log of a webhook receiver',
      handler: op.deliveryLog,
      since: '2026-07-01',
    },
    {
      method: 'POST',
      path: `${API}/webhooks/{id}/messages/{deliveryId}/resend`,
      auth: 'key',
      purpose: 'trigger a logged delivery again',
      handler: op.resend,
      since: '2026-07-01',
    },
    {
      method: 'GET',
      path: `${API}/audit-log`,
      auth: 'yes',
      purpose: 'audit log with a Merkle proof per page',
      handler: op.auditLog,
    },
    {
      method: 'GET',
      path: `${API}/info`,
      auth: 'yes',
      purpose: 'who am I: client, tenant, environment, token expiry',
      handler: (ctx) => info(ctx),
    },
  ];

  function info(ctx: Ctx): void {
    const claims = env.issuer.verify(ctx.token ?? '');
    ok(ctx, {
      clientId: ctx.clientId,
      tenant: ctx.tenant,
      environment: 'sandbox',
      scope: claims?.scope,
      tokenExpiresAt: claims ? new Date(claims.exp * 1000).toISOString().replace('Z', '+00:00') : undefined,
    });
  }

  async function stream(ctx: Ctx): Promise<void> {
    if (header(ctx, 'authorization') !== undefined) {
      authenticate(ctx);
      env.streams.serve(ctx, `tenant:${ctx.tenant}`);
    } else {
      env.streams.serve(ctx, 'public');
    }
  }

  // Token, then counting, then Service-Version, then tenant: a call is counted once we know whose it is.
  function authenticate(ctx: Ctx): void {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header(ctx, 'authorization') ?? '');
    const raw = m?.[1];
    const claims = raw ? env.issuer.verify(raw) : undefined;
    if (!raw || !claims) {
      // DAHLIA_DEBUG=1 notes why a token was refused (age of an expired one), for judging a client's renewal.
      if (process.env.DAHLIA_DEBUG === '1' && raw) {
        const body = JSON.parse(Buffer.from(raw.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}');
        console.error(
          `401 ${ctx.req.method} ${ctx.url.pathname} token iat+${Math.round(Date.now() / 1000 - (body.iat ?? 0))}s exp ${body.exp}`,
        );
      }
      ctx.headers['www-authenticate'] = 'Bearer realm="dahlia"';
      throw new HttpError(
        401,
        'unauthorized',
        'A valid bearer token is required.',
        'Request a new access token from the token endpoint; tokens live 120 s.',
      );
    }
    ctx.token = raw;
    ctx.clientId = claims.sub.replace(/@clients$/, '');
    const tenant = header(ctx, 'x-service-tenant');
    env.rateLimit.count(ctx, sha256Hex(`${raw}|${tenant ?? ''}|${claims.env}`));
    if (header(ctx, 'service-version') === undefined) {
      throw new HttpError(
        400,
        'invalid_request',
        'The Service-Version header is required.',
        `Send Service-Version: ${CURRENT_VERSION}.`,
      );
    }
    if (tenant === undefined || tenant.trim() === '') {
      throw new HttpError(
        400,
        'invalid_request',
        'The x-service-tenant header is required.',
        'Name the tenant the call applies to.',
      );
    }
    if (!claims.tenants.includes(tenant)) {
      throw new HttpError(
        403,
        'forbidden',
        'This access is not released for the tenant.',
        'Check the permissions of the access.',
      );
    }
    ctx.tenant = tenant;
  }

  return { routes, authenticate };
}
