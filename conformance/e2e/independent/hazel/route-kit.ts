// Shared pieces of the route handlers: the route type, the caller's tenant, bodies, audit entries.
import { appendAudit } from './audit.ts';
import type { Ctx } from './http-kit.ts';
import { ApiError, readJsonObject } from './http-kit.ts';
import type { State } from './store.ts';
import { onlyFields } from './validate.ts';

export type Handler = (state: State, ctx: Ctx, params: Record<string, string>) => void | Promise<void>;
export type Route = {
  method: string;
  path: string;
  auth: boolean;
  key: boolean;
  purpose: string;
  operationId: string;
  contract: boolean;
  handle: Handler;
};

export function tenantOf(ctx: Ctx): string {
  if (ctx.tenant === undefined) throw new ApiError('internal', 'The service could not complete the call.');
  return ctx.tenant;
}

export async function body(s: State, ctx: Ctx, fields: string[]): Promise<Record<string, unknown>> {
  const json = await readJsonObject(ctx);
  onlyFields(s.options.strictFields, json, fields);
  return json;
}

/** HAZEL_DELIVERY_LOG_SINCE_CURRENT: the delivery log came with 2026-07-01; older callers do not see it. */

export function audit(
  state: State,
  ctx: Ctx,
  action: string,
  type: string,
  id: string,
  details: Record<string, unknown>,
): void {
  appendAudit(state, tenantOf(ctx), {
    action,
    actor: ctx.clientId ?? 'unknown',
    target: { type, id },
    requestId: ctx.requestId,
    details,
  });
}
