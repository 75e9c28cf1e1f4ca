import type { ContextWith } from '../core/step.ts';
import type { RouteDef } from '../contract/route-def.ts';
import { ok, type DataReply, type Reply } from '../core/reply.ts';

/** A request context for step unit tests: route matched, caller checked (known with `tenant`), body read. */
export function testContext(
  over: { route?: Partial<RouteDef>; headers?: Record<string, string>; body?: unknown; tenant?: string } = {},
): ContextWith<'version' | 'route' | 'access' | 'idempotencyKey' | 'body'> {
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
    idempotencyKey: undefined,
    access: over.tenant
      ? {
          tenant: over.tenant,
          token: {
            clientId: 'c',
            tenants: [over.tenant],
            scopes: [],
            environment: 'sandbox',
            issuedAt: 0,
            expiresAt: 1,
          },
        }
      : undefined,
    responseHeaders: {},
  };
}

/** A handler's success value, as the steps before the envelope see it. */
export const okResponse = (data: unknown = { n: 1 }): DataReply => ok(data);

/**
 * A step's run as the pipeline calls it: steps may be plain functions that throw synchronously, and
 * `compose` turns that throw into a rejection; this does the same for a test calling `run` directly.
 * @example await expect(stepRun(versionStep())(ctx, next)).rejects.toMatchObject({ code: 'invalid_request' });
 */
export const stepRun =
  <C, N>(step: { run: (ctx: C, next: N) => Promise<Reply> }) =>
  async (ctx: C, next: N): Promise<Reply> =>
    step.run(ctx, next);
