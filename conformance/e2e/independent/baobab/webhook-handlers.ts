// Webhook receivers of a tenant: register (signing key shown in this answer only), list, remove, and the
// delivery log (newest first, ?status filter, offset/limit) with a re-trigger per delivery.
import { record } from './audit.ts';
import { ApiError, newId } from './http-util.ts';
import type { Call } from './route-types.ts';
import type { Webhook } from './state.ts';
import { queryInt } from './validate.ts';
import { publicDelivery, redeliver } from './webhooks.ts';

function ownHook(call: Call): Webhook {
  const hook = call.state.webhooks.get(String(call.params.webhookId));
  if (!hook || hook.tenant !== call.caller.tenant) throw new ApiError('not_found', 'Webhook not found');
  return hook;
}

function publicHook(h: Webhook): Record<string, unknown> {
  return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt };
}

export function createWebhook(call: Call): unknown {
  const url = String(call.body.url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      'body.url: Input should be a valid URL (http or https)',
    );
  }
  const hook: Webhook = {
    id: newId(12),
    tenant: call.caller.tenant,
    url,
    events: [...new Set(call.body.events as string[])],
    signingKey: `whsec_${newId(32)}`,
    createdAt: new Date().toISOString(),
  };
  call.state.webhooks.set(hook.id, hook);
  record(call.state, hook.tenant, call.caller.clientId, 'webhook.created', `webhook/${hook.id}`);
  return { ...publicHook(hook), signingKey: hook.signingKey };
}

export function listWebhooks(call: Call): unknown {
  const hooks = [...call.state.webhooks.values()].filter((h) => h.tenant === call.caller.tenant).map(publicHook);
  return { count: hooks.length, webhooks: hooks };
}

export function deleteWebhook(call: Call): unknown {
  const hook = ownHook(call);
  call.state.webhooks.delete(hook.id);
  record(call.state, hook.tenant, call.caller.clientId, 'webhook.deleted', `webhook/${hook.id}`);
  return { id: hook.id, deleted: true };
}

const STATUSES = ['pending', 'succeeded', 'failed'];

export function listDeliveries(call: Call): unknown {
  const hook = ownHook(call);
  const status = call.query.get('status');
  if (status !== null && !STATUSES.includes(status)) {
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      `query.status: Input should be ${STATUSES.map((s) => `'${s}'`).join(', ')}`,
    );
  }
  const offset = queryInt(call.query, 'offset', 0, 0, 1_000_000);
  const limit = queryInt(call.query, 'limit', 50, 1, 200);
  const all = call.state.deliveries
    .filter((d) => d.webhookId === hook.id && (status === null || d.status === status))
    .reverse();
  const page = all.slice(offset, offset + limit).map(publicDelivery);
  return { webhookId: hook.id, total: all.length, offset, limit, count: page.length, deliveries: page };
}

export function retryDelivery(call: Call): unknown {
  const hook = ownHook(call);
  const original = call.state.deliveries.find((d) => d.id === call.params.deliveryId && d.webhookId === hook.id);
  if (!original) throw new ApiError('not_found', 'Delivery not found');
  const d = redeliver(call.state, hook, original);
  record(call.state, hook.tenant, call.caller.clientId, 'delivery.retried', `delivery/${original.id}`);
  return publicDelivery(d);
}
