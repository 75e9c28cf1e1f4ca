// Shared pieces of birch's route table: the route type, keyed (idempotent) calls and audit records.
import type { BirchState } from './app-state.ts';
import { type Ctx, canonicalJson, readJsonObject, readOptionalJsonObject, sendOk } from './http-util.ts';
import { IdempotencyStore } from './idempotency.ts';

export type Auth = { tenant: string; clientId: string; scopes: string[] };
export type Route = {
  method: 'GET' | 'POST';
  path: string; // with {param} placeholders
  auth: boolean;
  key: boolean; // Idempotency-Key required
  scope?: string;
  purpose: string;
  inTable: boolean; // one of the interface's table endpoints
  handle: (ctx: Ctx, s: BirchState, auth: Auth | null, params: Record<string, string>) => unknown;
};

export const P = '/api/public/v1';

// Modifying call with a key: the fingerprint is method, route and canonical body.
// Action endpoints (pause, resume, redeliver) take no parameters: an empty body is accepted there.
export async function keyed(
  ctx: Ctx,
  s: BirchState,
  auth: Auth,
  op: (body: Record<string, unknown>) => unknown,
  bodyOptional = false,
): Promise<void> {
  const key = IdempotencyStore.keyOf(ctx.req);
  const body = bodyOptional ? await readOptionalJsonObject(ctx) : await readJsonObject(ctx);
  const scope = `${auth.tenant}|${auth.clientId}`;
  const { data, replayed } = await s.idempotency.run(
    scope,
    key,
    `${ctx.method} ${ctx.path} ${canonicalJson(body)}`,
    async () => JSON.parse(JSON.stringify(op(body))),
  );
  sendOk(ctx, data, replayed ? { idempotencyKey: key, replayed: true } : { idempotencyKey: key, replayed: false });
}

export const audit = (s: BirchState, ctx: Ctx, auth: Auth, action: string, type: string, id: string) =>
  s.audit.record(auth.tenant, {
    action,
    actor: auth.clientId,
    resource_type: type,
    resource_id: id,
    request_id: ctx.requestId,
  });
