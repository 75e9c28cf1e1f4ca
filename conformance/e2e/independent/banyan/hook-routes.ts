// banyan's webhook routes: registration (key issued once in the answer), the delivery log, replay, removal.
import type { Call, Result, Route } from './state.ts';
import { ApiError } from './util.ts';
import { deliveryView, WEBHOOK_EVENTS } from './webhooks.ts';

function register(call: Call): Result {
  const { url, events } = call.body;
  if (typeof url !== 'string' || url.length > 2048) throw new ApiError('invalid_request', 'url must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url must be an absolute http or https address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'url must be an absolute http or https address');
  }
  if (!Array.isArray(events) || events.length < 1 || events.length > 16) {
    throw new ApiError('invalid_request', 'events must be an array of 1 to 16 event names');
  }
  const unknown = events.filter((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e));
  if (unknown.length) {
    throw new ApiError('invalid_request', 'unknown event name', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  const hook = call.state.webhooks.register(call.tenant, url, events as string[]);
  return {
    data: {
      webhook: { id: hook.id, url: hook.url, events: hook.events, createdAt: hook.createdAt },
      signingKey: hook.signingKey,
      signature: { header: 'Banyan-Signature', format: 't=<unix-seconds>,v1=<hex hmac-sha256>' },
    },
  };
}

function hookOf(call: Call) {
  const hook = call.state.webhooks.find(call.tenant, call.params.webhookId ?? '');
  if (!hook) throw new ApiError('not_found', 'webhook not found', 'no webhook with this id for the tenant');
  return hook;
}

function deliveryLog(call: Call): Result {
  const hook = hookOf(call);
  const list = call.state.webhooks.deliveriesOf(hook.id).map(deliveryView);
  return { data: { webhookId: hook.id, count: list.length, deliveries: list } };
}

/** Sends one logged delivery again, now, signed anew; answered at once (the attempt shows in the log). */
function replay(call: Call): Result {
  const hook = hookOf(call);
  const d = call.state.webhooks.deliveries.get(call.params.deliveryId ?? '');
  if (!d || d.webhookId !== hook.id) throw new ApiError('not_found', 'delivery not found');
  const before = d.attempts.length;
  void call.state.webhooks.attempt(hook, d, 'replay');
  return { data: { delivery: deliveryView(structuredClone(d)), attempt: before + 1 } };
}

function remove(call: Call): Result {
  const hook = hookOf(call);
  call.state.webhooks.hooks.delete(hook.id);
  return { data: { id: hook.id, deleted: true } };
}

export const HOOK_ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/webhooks',
    auth: true,
    key: 'required',
    purpose: 'create a webhook receiver',
    handle: register,
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    auth: true,
    since: '2026-07-01',
    purpose: 'delivery log of a webhook receiver',
    handle: deliveryLog,
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/replay',
    auth: true,
    key: 'required',
    since: '2026-07-01',
    purpose: 'trigger one logged delivery again',
    handle: replay,
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    auth: true,
    key: 'required',
    purpose: 'remove a webhook receiver',
    handle: remove,
  },
];
