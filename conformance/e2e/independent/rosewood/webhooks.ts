// Webhook receivers: registration (the signing key shown once, in the creation answer only), listing,
// removal, and the fan-out of an event to the tenant's receivers.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { deliver } from './deliveries.ts';
import { Abort, type Ctx, isoDate, jsonBody, ok, type Rec, uuid } from './http.ts';
import { idempotent } from './limits.ts';
import type { Store, Webhook } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.updated', 'order.created', 'order.paid'];

/** What a receiver looks like after its creation: never the signing key. */
export const view = (w: Webhook): Rec => ({
  id: w.id,
  url: w.url,
  events: w.events,
  createdAt: w.createdAt,
  signatureHeader: 'X-Rosewood-Signature',
});

export function webhookOr404(ctx: Ctx, store: Store): Webhook {
  const hook = store.webhooks.get(ctx.params.webhookID ?? '');
  // Another tenant's receiver is "not found", as the Errors table says.
  if (!hook || hook.deleted || hook.tenant !== ctx.tenant) throw new Abort(404, 'Webhook was not found.');
  return hook;
}

function validUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function createWebhook(ctx: Ctx, store: Store): Promise<void> {
  await idempotent(ctx, store, () => {
    const body = jsonBody(ctx);
    if (!validUrl(body.url)) throw new Abort(400, 'url must be an absolute http(s) URL.');
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw new Abort(400, 'events must be an array of 1 to 20 event names.');
    }
    const unknown = events.filter((e) => typeof e !== 'string' || !EVENT_NAMES.includes(e));
    if (unknown.length > 0) throw new Abort(400, `events: one of ${EVENT_NAMES.join(', ')}`);
    const hook: Webhook = {
      id: uuid(),
      tenant: ctx.tenant ?? '',
      url: body.url,
      events: [...new Set(events as string[])],
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: isoDate(),
      deleted: false,
    };
    store.webhooks.set(hook.id, hook);
    record(store, ctx, 'webhook.create', 'webhook', hook.id, { url: hook.url, events: hook.events });
    return { ...view(hook), secret: hook.secret };
  });
}

export function listWebhooks(ctx: Ctx, store: Store): void {
  const hooks = [...store.webhooks.values()].filter((w) => w.tenant === ctx.tenant && !w.deleted).map(view);
  ok(ctx, { count: hooks.length, webhooks: hooks });
}

export function getWebhook(ctx: Ctx, store: Store): void {
  ok(ctx, view(webhookOr404(ctx, store)));
}

export async function deleteWebhook(ctx: Ctx, store: Store): Promise<void> {
  await idempotent(ctx, store, () => {
    const hook = webhookOr404(ctx, store);
    hook.deleted = true;
    record(store, ctx, 'webhook.delete', 'webhook', hook.id);
    return { id: hook.id, deleted: true };
  });
}

/** One event, one body, delivered to every receiver of the tenant that subscribed to it. */
export function notifyWebhooks(store: Store, tenant: string, type: string, data: Rec): void {
  const event = { id: uuid(), type, createdAt: isoDate(), data };
  for (const hook of store.webhooks.values()) {
    if (hook.tenant !== tenant || hook.deleted || !hook.events.includes(type)) continue;
    void deliver(store, hook, event.id, type, JSON.stringify(event), null);
  }
}
