// Webhook receivers: registration (the signing key shown once), removal, and the durable delivery queue
// with exponential backoff (1 s, 2 s, 4 s, 8 s; five attempts), each attempt signed afresh.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, ok, parseJson } from './http.ts';
import { idempotencyBefore, okRemembered } from './idempotency.ts';
import { instant, later, type Rec, type Store, uuid, WEBHOOK_EVENTS } from './state.ts';
import { validate } from './validate.ts';

export const SIGNATURE_HEADER = 'x-blackthorn-signature';
export const DELIVERY_HEADER = 'x-blackthorn-delivery';
const MAX_ATTEMPTS = 5;

export function createWebhook(store: Store, ctx: Ctx) {
  const body = parseJson(ctx);
  if (idempotencyBefore(store, ctx, body)) return;
  validate(
    {
      url: { kind: 'string', min: 8, max: 2000 },
      events: { kind: 'strings', minItems: 1, maxItems: 20, min: 2, max: 80 },
    },
    body,
  );
  let url: URL;
  try {
    url = new URL(body.url);
  } catch {
    throw new ApiError(400, 'invalid_request', 'url is not an address', 'url: should be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, 'invalid_request', 'url is not an address', 'url: should be an absolute http(s) URL');
  }
  const unknown = (body.events as string[]).filter((e) => !WEBHOOK_EVENTS.includes(e));
  if (unknown.length > 0) {
    throw new ApiError(
      400,
      'invalid_request',
      'Unknown event names',
      `events: one of ${WEBHOOK_EVENTS.join(', ')}; got ${unknown.join(', ')}`,
    );
  }
  const hook: Rec = {
    id: uuid(),
    tenant: ctx.tenant,
    url: url.href,
    events: [...new Set(body.events)],
    createdAt: instant(),
    secret: `whsec_${randomBytes(24).toString('hex')}`,
  };
  store.webhooks.set(hook.id, hook);
  record(store, ctx.tenant ?? '', 'webhook.created', hook.id, ctx.clientId);
  okRemembered(store, ctx, body, { ...view(hook), 'signing-secret': hook.secret });
}

/** The receiver as shown after creation: never with its key again. */
const view = (h: Rec) => ({ id: h.id, url: h.url, events: h.events, 'created-at': h.createdAt });

export function ownHook(store: Store, ctx: Ctx): Rec {
  const hook = store.webhooks.get(ctx.params.webhookId ?? '');
  // Another tenant's receiver is answered exactly like a missing one.
  if (!hook || hook.tenant !== ctx.tenant) throw new ApiError(404, 'not_found', 'Webhook receiver not found');
  return hook;
}

export function deleteWebhook(store: Store, ctx: Ctx) {
  const body = ctx.raw?.trim() ? parseJson(ctx) : {};
  if (idempotencyBefore(store, ctx, body)) return;
  const hook = ownHook(store, ctx);
  store.webhooks.delete(hook.id);
  record(store, ctx.tenant ?? '', 'webhook.deleted', hook.id, ctx.clientId);
  okRemembered(store, ctx, body, { id: hook.id, deleted: true });
}

export function listWebhooks(store: Store, ctx: Ctx) {
  const hooks = [...store.webhooks.values()].filter((h) => h.tenant === ctx.tenant).map(view);
  ok(ctx, { count: hooks.length, webhooks: hooks });
}

export function enqueueDeliveries(store: Store, tenant: string, event: Rec, connection: Rec) {
  for (const hook of store.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event.type)) continue;
    const body = JSON.stringify({ id: event.id, type: event.type, 'created-at': event.at, data: { connection } });
    const delivery: Rec = {
      id: uuid(),
      'webhook-id': hook.id,
      'event-id': event.id,
      event: event.type,
      status: 'pending',
      attempts: [],
      body,
    };
    store.deliveries.set(delivery.id, delivery);
    attempt(store, delivery);
  }
}

export async function attempt(store: Store, delivery: Rec): Promise<void> {
  const hook = store.webhooks.get(delivery['webhook-id']);
  if (!hook) return;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.secret).update(`${t}.${delivery.body}`).digest('hex');
  const entry: Rec = { at: instant(), 'response-status': null, error: null };
  delivery.attempts.push(entry);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: delivery.id,
      },
      body: delivery.body,
      signal: AbortSignal.timeout(5000),
    });
    entry['response-status'] = res.status;
    await res.arrayBuffer().catch(() => undefined);
    delivery.status = res.ok ? 'delivered' : 'failed';
  } catch (e) {
    entry.error = e instanceof Error ? e.name : 'error';
    delivery.status = 'failed';
  }
  const n = delivery.attempts.length;
  if (delivery.status === 'failed' && n < MAX_ATTEMPTS) {
    delivery.status = 'retrying';
    later(store, 1000 * 2 ** (n - 1), () => void attempt(store, delivery));
  }
}
