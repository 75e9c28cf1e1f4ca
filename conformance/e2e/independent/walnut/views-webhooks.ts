// Webhook receivers, their delivery log (newest first, limit/offset pages) and redelivery, and the audit log.
import { API, type Ctx, fail, readJson, sendOk } from './core.ts';
import type { State } from './state.ts';
import { charField, intParam, raiseIf } from './validate.ts';
import { EVENTS, SIGNATURE_HEADER, type Webhook } from './webhooks.ts';

function hookView(h: Webhook, withKey: boolean) {
  const { tenant: _t, signing_key, ...rest } = h;
  return { ...rest, signature_header: SIGNATURE_HEADER, ...(withKey ? { signing_key } : {}) };
}

export async function registerWebhook(s: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  const e: string[] = [];
  const url = charField(body, 'url', 10, 2000, e);
  if (url !== undefined && e.length === 0) {
    let ok = false;
    try {
      const u = new URL(url);
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {}
    if (!ok) e.push('url: Enter a valid URL (http or https).');
  }
  const events = body.events;
  if (events === undefined) e.push('events: This field is required.');
  else if (!Array.isArray(events) || events.length === 0) e.push('events: Expected a non-empty list of event names.');
  else {
    for (const ev of events) {
      if (typeof ev !== 'string' || !EVENTS.includes(ev)) {
        e.push(`events: "${String(ev).slice(0, 60)}" is not a valid choice (one of ${EVENTS.join(', ')}).`);
      }
    }
  }
  raiseIf(e);
  const tenant = ctx.tenant ?? '';
  s.idem.run(
    ctx,
    body,
    () => {
      const hook = s.hooks.register(tenant, url as string, [...new Set(events as string[])]);
      s.audit.record(tenant, {
        actor: ctx.clientId ?? '',
        action: 'webhook.create',
        object_type: 'webhook',
        object_id: hook.id,
        idempotency_key: ctx.idempotencyKey ?? '',
        summary: `registered webhook ${hook.id} for ${hook.events.join(',')}`,
      });
      return hookView(hook, true);
    },
    s.opts.redactKeyOnReplay ? (d) => ({ ...(d as Record<string, unknown>), signing_key: undefined }) : undefined,
  );
}

export function listWebhooks(s: State, ctx: Ctx): void {
  const results = s.hooks.list(ctx.tenant ?? '').map((h) => hookView(h, false));
  sendOk(ctx, { count: results.length, next: null, previous: null, results });
}

function ownHook(s: State, ctx: Ctx, id: string): Webhook {
  const hook = s.hooks.find(ctx.tenant ?? '', id);
  if (!hook) fail('not_found', 'No webhook with this id for this tenant.');
  return hook;
}

export function getWebhook(s: State, ctx: Ctx, id: string): void {
  sendOk(ctx, hookView(ownHook(s, ctx, id), false));
}

export function deleteWebhook(s: State, ctx: Ctx, id: string): void {
  const hook = ownHook(s, ctx, id);
  s.idem.run(ctx, {}, () => {
    hook.is_active = false;
    s.audit.record(ctx.tenant ?? '', {
      actor: ctx.clientId ?? '',
      action: 'webhook.delete',
      object_type: 'webhook',
      object_id: hook.id,
      idempotency_key: ctx.idempotencyKey ?? '',
      summary: `deactivated webhook ${hook.id}`,
    });
    return { id: hook.id, is_active: false };
  });
}

export function listDeliveries(s: State, ctx: Ctx, id: string): void {
  const hook = ownHook(s, ctx, id);
  const max = s.opts.deliveryMaxLimit ?? 100;
  const limit = Math.min(intParam(ctx.query, 'limit', Math.min(20, max), 1), max);
  const offset = intParam(ctx.query, 'offset', 0);
  const status = ctx.query.get('status');
  const all = s.hooks.deliveries
    .filter((d) => d.webhook_id === hook.id && (status === null || d.status === status))
    .reverse();
  const link = (o: number) =>
    `${ctx.origin}${API}/webhooks/${hook.id}/deliveries?limit=${limit}&offset=${o}${status ? `&status=${encodeURIComponent(status)}` : ''}`;
  sendOk(ctx, {
    count: all.length,
    next: offset + limit < all.length ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results: all.slice(offset, offset + limit).map((d) => s.hooks.view(d)),
  });
}

export function redeliver(s: State, ctx: Ctx, id: string, deliveryId: string): void {
  const hook = ownHook(s, ctx, id);
  const original = s.hooks.deliveries.find((d) => d.id === deliveryId && d.webhook_id === hook.id);
  if (!original) fail('not_found', 'No delivery with this id for this webhook.');
  s.idem.run(ctx, {}, () => {
    const d = s.hooks.redeliver(hook, original);
    s.audit.record(ctx.tenant ?? '', {
      actor: ctx.clientId ?? '',
      action: 'delivery.redeliver',
      object_type: 'delivery',
      object_id: d.id,
      idempotency_key: ctx.idempotencyKey ?? '',
      summary: `redelivery of ${original.id} to webhook ${hook.id}`,
    });
    return s.hooks.view(d);
  });
}

export function auditLog(s: State, ctx: Ctx): void {
  const max = s.opts.auditMaxLimit ?? 500;
  const limit = Math.min(intParam(ctx.query, 'limit', Math.min(20, max), 1), max);
  const offset = intParam(ctx.query, 'offset', 0);
  sendOk(ctx, s.audit.page(ctx.tenant ?? '', limit, offset, ctx.origin));
}
