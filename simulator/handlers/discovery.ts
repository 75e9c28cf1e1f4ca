import { LIMITS } from '../contract/limits.ts';
import { routesFor } from '../contract/route-table.ts';
import type { ApiVersion } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import { documentReply } from '../core/envelope.ts';
import { ok } from '../core/reply.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { RequestContext } from '../core/context.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

const routeInfoCache = new Map<ApiVersion, unknown[]>();
function routeInfo(version: ApiVersion) {
  let list = routeInfoCache.get(version);
  if (!list) {
    list = routesFor(version).map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth }));
    routeInfoCache.set(version, list);
  }
  return list;
}

const documentVersion = (ctx: RequestContext) =>
  (typeof ctx.query.version === 'string' ? ctx.query.version : ctx.version) as ApiVersion;

export const discoveryHandlers = {
  describeService(ctx) {
    const idempotent = routesFor(ctx.version)
      .filter((r) => r.idempotent)
      .map((r) => `${r.method} ${r.path}`);
    return ok({
      service: 'Network Connections Service',
      surface: 'public',
      version: ctx.version,
      authentication: {
        type: 'oauth2',
        header: 'Authorization: Bearer <access token>',
        tenantHeader: 'x-service-tenant',
        metadata: '/.well-known/oauth-authorization-server',
        tokenEndpoint: '/oauth/token',
        authorizationEndpoint: '/oauth/authorize',
        revocationEndpoint: '/oauth/revoke',
        flows: ['client_credentials', 'authorization_code', 'authorization_code+pkce', 'refresh_token'],
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: LIMITS.idempotencyKey.pattern,
        requiredOn: idempotent,
        keyEndpoint: 'POST /api/public/v1/idempotency-keys',
      },
      routes: routeInfo(ctx.version),
    });
  },
  getOpenApiJson(ctx, deps) {
    const v = documentVersion(ctx);
    return documentReply(ctx, deps.documents.json(v), 'application/json; charset=utf-8', `ncs-openapi-${v}.json`);
  },
  getOpenApiYaml(ctx, deps) {
    const v = documentVersion(ctx);
    return documentReply(ctx, deps.documents.yaml(v), 'application/yaml; charset=utf-8', `ncs-openapi-${v}.yaml`);
  },
  getInfo(ctx, deps) {
    const { token, tenant } = ctx.access;
    return andThen(deps.clients.get(token.clientId), (client) => {
      // The auth middleware refused tokens of unknown clients; a reset in between is the only way here.
      if (!client) throw new ApiError('unauthorized', { detail: 'The access behind the token no longer exists.' });
      return ok({
        tenant,
        tenantName: deps.tenants.get(tenant)?.name ?? tenant,
        client: {
          id: client.id,
          name: client.name,
          type: client.type,
          purpose: client.purpose,
          owner: client.owner,
          expiresAt: client.expiresAt,
        },
        environment: token.environment,
        scopes: token.scopes,
        tokenExpiresAt: new Date(token.expiresAt).toISOString(),
        version: ctx.version,
      });
    });
  },
} satisfies HandlerGroup<Pick<HandlerDeps, 'documents' | 'clients' | 'tenants'>>;
