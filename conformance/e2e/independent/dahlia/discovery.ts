// What the service says about itself (self-description) and how a path finds its route.
import type { Ctx } from './http-kit.ts';
import type { Params } from './operations.ts';
import type { Route } from './routes.ts';

export function selfDescription(ctx: Ctx, routes: Route[]) {
  const origin = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
  return {
    service: 'dahlia network connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      issuer: `${origin}/auth/`,
      tokenEndpoint: `${origin}/auth/oauth/token`,
      metadata: `${origin}/auth/.well-known/openid-configuration`,
      jwksUri: `${origin}/auth/.well-known/jwks.json`,
      tokenLifetimeSeconds: 120,
      headers: {
        authorization: 'Bearer <access token>',
        tenant: 'x-service-tenant',
        version: 'Service-Version (required on authenticated calls)',
      },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      retentionSeconds: 3600,
      requiredOn: routes.filter((r) => r.auth === 'key').map((r) => `${r.method} ${r.path}`),
    },
    routes: routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth !== 'public' })),
  };
}

export function match(
  routes: Route[],
  method: string,
  path: string,
): { route?: Route; params: Params; pathKnown: boolean } {
  let pathKnown = false;
  for (const r of routes) {
    const names: string[] = [];
    const re = new RegExp(
      `^${r.path.replace(/\{(\w+)\}/g, (_s, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (r.method !== method) continue;
    const found = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
    return { route: r, params: { id: found.id ?? '', deliveryId: found.deliveryId ?? '' }, pathKnown };
  }
  return { params: { id: '', deliveryId: '' }, pathKnown };
}
