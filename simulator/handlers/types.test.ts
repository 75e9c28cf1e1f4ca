import { describe, expect, it } from 'vitest';
import { ok } from '../core/reply.ts';
import { testContext } from '../test-support/test-context.ts';
import { bindHandlers, type HandlerGroup, type HandlerMap } from './types.ts';

// Type-level checks: `npm run typecheck` fails if any @ts-expect-error below stops being an error.
const typed = {
  createConnection(ctx) {
    // Body typed from the route's zod schema, caller known on an authenticated route: no casts, no `!`.
    const connectorId: string = ctx.body.connectorId;
    const tenant: string = ctx.access.tenant;
    // @ts-expect-error -- not a field of CreateConnectionBody
    void ctx.body.connector;
    return ok({ connectorId, tenant });
  },
  getConnection(ctx) {
    const id: string = ctx.params.connectionId;
    return ok({ id });
  },
  streamStatus(ctx) {
    // @ts-expect-error -- the stream route has optional auth: the caller may be unknown
    void ctx.access.tenant;
    return ok({});
  },
} satisfies HandlerGroup<unknown>;

// @ts-expect-error -- no route has this operationId
const unknownRoute = { createConection: () => ok({}) } satisfies HandlerGroup<unknown>;

// @ts-expect-error -- a map without every route's handler is not a HandlerMap
const incomplete: HandlerMap = bindHandlers(typed, undefined);

describe('handler typing', () => {
  it('binds each handler to its group dependencies', async () => {
    const seen: unknown[] = [];
    const group = {
      getAuditLog: (_ctx, deps) => {
        seen.push(deps);
        return ok({});
      },
    } satisfies HandlerGroup<{ audit: string }>;
    const bound = bindHandlers(group, { audit: 'the audit store' });
    const res = await bound.getAuditLog(testContext({ tenant: 't1' }));
    expect(res).toMatchObject({ status: 200 });
    expect(seen).toEqual([{ audit: 'the audit store' }]);
    expect([unknownRoute, incomplete]).toHaveLength(2);
  });
});
