import type { RequestContext } from '../core/context.ts';
import type { RouteDef } from '../contract/route-def.ts';
import { ok, type DataReply } from '../core/reply.ts';

/** A request context for middleware unit tests. */
export function testContext(
  over: { route?: Partial<RouteDef>; headers?: Record<string, string>; body?: unknown; tenant?: string } = {},
): RequestContext {
  return {
    req: {
      method: over.route?.method ?? 'GET',
      path: over.route?.path ?? '/api/public/v1/x',
      query: {},
      headers: over.headers ?? {},
    },
    requestId: 'req_test',
    at: 0,
    version: '2026-07-01',
    route: {
      id: 'x',
      method: 'GET',
      path: '/api/public/v1/x',
      purpose: 'x',
      tags: [],
      auth: true,
      ...over.route,
    } as RouteDef,
    params: {},
    query: {},
    body: over.body,
    ...(over.tenant
      ? {
          access: {
            tenant: over.tenant,
            token: {
              clientId: 'c',
              tenants: [over.tenant],
              scopes: [],
              environment: 'sandbox',
              issuedAt: 0,
              expiresAt: 1,
            },
          },
        }
      : {}),
    responseHeaders: {},
  };
}

/** A handler's success value, as the steps before the envelope see it. */
export const okResponse = (data: unknown = { n: 1 }): DataReply => ok(data);
