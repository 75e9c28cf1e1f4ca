// Webhook receivers of a tenant: registration (signing key shown once), list, removal, delivery log, retry.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import type { Call } from './handlers.ts';
import type { Webhook } from './state.ts';
import { ApiError, base36Id, isoNanos } from './util.ts';
import { attempt, deliveryView, EVENT_NAMES, webhookView } from './webhooks.ts';

export function createWebhook({ state, ctx, clientId, tenant, body }: Call): unknown {
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
    throw new ApiError('invalid_request', 'Field url must be an http or https address.', 'FIELD_URL', 'url');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new ApiError(
      'invalid_request',
      'Field events must be an array of 1 to 20 event names.',
      'FIELD_ARRAY',
      'events',
    );
  }
  for (const e of events) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw new ApiError(
        'invalid_request',
        `Unknown event name; known: ${EVENT_NAMES.join(', ')}.`,
        'EVENT_UNKNOWN',
        'events',
      );
    }
  }
  const w: Webhook = {
    id: base36Id('w'),
    tenant,
    url: parsed.toString(),
    events: [...new Set(events as string[])],
    secret: `qsk_${randomBytes(32).toString('hex')}`,
    createdAt: isoNanos(),
  };
  state.webhooks.set(w.id, w);
  record(state, tenant, clientId, 'webhooks.create', `webhooks/${w.id}`, ctx.requestId);
  return { ...webhookView(w), signingKey: w.secret };
}

function own({ state, tenant }: Call, id: string | undefined): Webhook {
  const w = id ? state.webhooks.get(id) : undefined;
  if (!w || w.tenant !== tenant) throw new ApiError('not_found', 'The webhook does not exist.', 'WEBHOOK_NOT_FOUND');
  return w;
}

export function listWebhooks({ state, tenant }: Call): unknown {
  const webhooks = [...state.webhooks.values()].filter((w) => w.tenant === tenant).map(webhookView);
  return { count: webhooks.length, webhooks };
}

export function deleteWebhook(call: Call): unknown {
  const w = own(call, call.params[0]);
  call.state.webhooks.delete(w.id);
  record(call.state, call.tenant, call.clientId, 'webhooks.delete', `webhooks/${w.id}`, call.ctx.requestId);
  return { id: w.id, deleted: true };
}

/** The delivery log arrived with 2026-07-01: a call pinned to 2026-06-12 does not see it. */
function since(call: Call): void {
  if (call.ctx.version === '2026-06-12') {
    throw new ApiError('not_found', 'The delivery log exists from version 2026-07-01.', 'NOT_IN_VERSION');
  }
}

export function listDeliveries(call: Call): unknown {
  since(call);
  const w = own(call, call.params[0]);
  const deliveries = [...call.state.deliveries.values()]
    .filter((d) => d.webhookId === w.id)
    .reverse()
    .map(deliveryView);
  return { webhookId: w.id, count: deliveries.length, deliveries };
}

export function retryDelivery(call: Call): unknown {
  since(call);
  const w = own(call, call.params[0]);
  const d = call.params[1] ? call.state.deliveries.get(call.params[1]) : undefined;
  if (!d || d.webhookId !== w.id) throw new ApiError('not_found', 'The delivery does not exist.', 'DELIVERY_NOT_FOUND');
  d.status = 'PENDING';
  void attempt(call.state, w, d, 0, 'MANUAL');
  record(
    call.state,
    call.tenant,
    call.clientId,
    'deliveries.retry',
    `webhooks/${w.id}/deliveries/${d.id}`,
    call.ctx.requestId,
  );
  return { delivery: deliveryView(d), retry: 'ACCEPTED', at: isoNanos() };
}
