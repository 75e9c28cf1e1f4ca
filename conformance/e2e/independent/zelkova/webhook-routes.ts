// Webhook endpoints: registration (key shown once), removal, the delivery log PostgREST-style
// (`GET /webhook-deliveries?webhook_id=eq.<id>`) and the manual re-trigger of one delivery.
import { ApiError, bad, type Ctx, jsonObject, ok } from './http-kit.ts';
import type { State } from './state.ts';
import type { Webhook } from './webhooks.ts';

const view = ({ secret: _s, tenant: _t, ...h }: Webhook) => ({ ...h, active: true });

function access(ctx: Ctx) {
  if (!ctx.access) throw new ApiError(401, 'unauthorized', 'call was not signed in');
  return ctx.access;
}

export function registerWebhook(s: State, ctx: Ctx): void {
  const a = access(ctx);
  const key = s.idem.key(ctx, true);
  const body = jsonObject(ctx);
  const { data, replayed } = s.idem.run(ctx, key, body, () => {
    const hook = s.hooks.register(a.tenant, body);
    s.audit.append(a.tenant, {
      action: 'webhook.create',
      actor: a.clientId,
      resourceType: 'webhook',
      resourceId: hook.id,
      requestId: ctx.requestId,
      idempotencyKey: key ?? null,
    });
    return { ...view(hook), signingKey: hook.secret, signatureHeader: 'Webhook-Signature' };
  });
  const shown =
    replayed && s.options.redactKeyOnReplay ? { ...(data as Record<string, unknown>), signingKey: null } : data;
  ok(ctx, shown, { idempotencyKey: key, replayed });
}

export function listWebhooks(s: State, ctx: Ctx): void {
  const a = access(ctx);
  const webhooks = [...s.hooks.hooks.values()].filter((h) => h.tenant === a.tenant).map(view);
  ok(ctx, { count: webhooks.length, webhooks });
}

export function getWebhook(s: State, ctx: Ctx, id: string): void {
  ok(ctx, view(s.hooks.get(access(ctx).tenant, id)));
}

export function deleteWebhook(s: State, ctx: Ctx, id: string): void {
  const a = access(ctx);
  const key = s.idem.key(ctx, true);
  const { data, replayed } = s.idem.run(ctx, key, { id }, () => {
    s.hooks.remove(a.tenant, id);
    s.audit.append(a.tenant, {
      action: 'webhook.delete',
      actor: a.clientId,
      resourceType: 'webhook',
      resourceId: id,
      requestId: ctx.requestId,
      idempotencyKey: key ?? null,
    });
    return { id, deleted: true };
  });
  ok(ctx, data, { idempotencyKey: key, replayed });
}

/** PostgREST filter `eq.<value>` on webhook_id, event and status; newest first. */
export function listDeliveries(s: State, ctx: Ctx): void {
  const a = access(ctx);
  const q = ctx.url.searchParams;
  const eq = (name: string) => {
    const v = q.get(name);
    if (v === null) return undefined;
    if (!v.startsWith('eq.')) throw bad(`${name} filter must have the form eq.<value>`);
    return v.slice(3);
  };
  const webhookId = eq('webhook_id');
  if (webhookId !== undefined) s.hooks.get(a.tenant, webhookId);
  const event = eq('event');
  const status = eq('status');
  const deliveries = s.hooks.deliveries
    .filter((d) => d.tenant === a.tenant && (webhookId === undefined || d.webhookId === webhookId))
    .filter((d) => (event === undefined || d.event === event) && (status === undefined || d.status === status))
    .reverse()
    .map((d) => s.hooks.view(d));
  ok(ctx, { count: deliveries.length, deliveries });
}

export function retryDelivery(s: State, ctx: Ctx, id: string): void {
  const a = access(ctx);
  const key = s.idem.key(ctx, true);
  const { data, replayed } = s.idem.run(ctx, key, { id }, () => {
    const d = s.hooks.delivery(a.tenant, id);
    s.hooks.retrigger(d);
    s.audit.append(a.tenant, {
      action: 'webhook.delivery.retry',
      actor: a.clientId,
      resourceType: 'webhook_delivery',
      resourceId: id,
      requestId: ctx.requestId,
      idempotencyKey: key ?? null,
    });
    return { delivery: s.hooks.view(d), queued: true };
  });
  ok(ctx, data, { idempotencyKey: key, replayed });
}
