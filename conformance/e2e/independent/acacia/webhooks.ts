// Webhook receivers of a tenant and their delivery log (Anypoint MQ view: one message per delivery).
// Paths: POST /webhooks, DELETE /webhooks/{webhookId}, GET /webhooks/{webhookId}/delivery-attempts,
// POST /webhooks/{webhookId}/delivery-attempts/{deliveryId}/replay.
import { randomBytes, randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { WEBHOOK_EVENTS } from './events.ts';
import { ApiError, type Ctx } from './http.ts';
import { enqueue, view } from './mq.ts';
import type { State, Webhook } from './state.ts';
import { stamp } from './time.ts';
import { queryText } from './validate.ts';

function bad(detail: string): ApiError {
  return new ApiError(
    'invalid_request',
    'The request is incomplete or unsuitable.',
    detail,
    'Check the request against the published description.',
  );
}

export function validateWebhook(body: Record<string, unknown>): void {
  const { url, events } = body;
  if (typeof url !== 'string') throw bad('url: required, an absolute http(s) address');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad('url: an absolute http(s) address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('url: an absolute http(s) address');
  if (url.length > 2048) throw bad('url: at most 2048 characters');
  if (!Array.isArray(events) || events.length === 0 || events.length > WEBHOOK_EVENTS.length) {
    throw bad(`events: 1 to ${WEBHOOK_EVENTS.length} of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  for (const e of events)
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) throw bad(`events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  if (body.description !== undefined && typeof body.description !== 'string') throw bad('description: a string');
}

export function registerWebhook(state: State, ctx: Ctx, tenant: string, body: Record<string, unknown>): unknown {
  const w: Webhook = {
    id: randomUUID(),
    tenant,
    url: body.url as string,
    events: [...new Set(body.events as string[])],
    signingKey: `whsec_${randomBytes(32).toString('base64url')}`,
    createdAt: stamp(),
    status: 'active',
  };
  state.webhooks.set(w.id, w);
  record(state.audit, tenant, {
    action: 'webhook.create',
    actor: ctx.clientId ?? 'unknown',
    resourceType: 'webhook',
    resourceId: w.id,
    details: { events: w.events },
    correlationId: ctx.correlationId,
  });
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    createdAt: w.createdAt,
    signingKey: w.signingKey,
    signature: {
      header: 'X-Acacia-Signature',
      format: 't=<unix-seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">',
      toleranceSeconds: 300,
    },
    deliveryLog: `/api/public/v1/webhooks/${w.id}/delivery-attempts`,
  };
}

function ownWebhook(state: State, tenant: string, id: string): Webhook {
  const w = state.webhooks.get(id);
  if (!w || w.tenant !== tenant || w.status !== 'active') {
    throw new ApiError(
      'not_found',
      'The webhook receiver does not exist.',
      'webhookId: no such receiver for this tenant',
    );
  }
  return w;
}

export function deleteWebhook(state: State, ctx: Ctx, tenant: string, id: string): unknown {
  const w = ownWebhook(state, tenant, id);
  w.status = 'deleted';
  record(state.audit, tenant, {
    action: 'webhook.delete',
    actor: ctx.clientId ?? 'unknown',
    resourceType: 'webhook',
    resourceId: w.id,
    details: {},
    correlationId: ctx.correlationId,
  });
  return { id: w.id, status: w.status };
}

export function deliveryLog(state: State, ctx: Ctx, tenant: string, id: string): unknown {
  const w = ownWebhook(state, tenant, id);
  const status = queryText(ctx.query, 'status');
  const deliveries = [...state.queue.deliveries.values()]
    .filter((d) => d.webhookId === w.id && (status === undefined || d.status === status))
    .reverse()
    .map(view);
  return { webhookId: w.id, count: deliveries.length, deliveries };
}

export function redeliver(state: State, ctx: Ctx, tenant: string, id: string, deliveryId: string): unknown {
  const w = ownWebhook(state, tenant, id);
  const d = state.queue.deliveries.get(deliveryId);
  if (!d || d.webhookId !== w.id)
    throw new ApiError('not_found', 'The delivery does not exist.', 'deliveryId: no such delivery of this receiver');
  // The same event and body, re-signed at the time it is sent; a new delivery id in the log.
  const again = enqueue(state.queue, {
    webhookId: w.id,
    tenant,
    eventId: d.eventId,
    event: d.event,
    url: w.url,
    signingKey: w.signingKey,
    body: d.body,
    redeliveryOf: d.deliveryId,
  });
  record(state.audit, tenant, {
    action: 'webhook.redeliver',
    actor: ctx.clientId ?? 'unknown',
    resourceType: 'webhook-delivery',
    resourceId: again.deliveryId,
    details: { redeliveryOf: d.deliveryId, webhookId: w.id },
    correlationId: ctx.correlationId,
  });
  return view(again);
}
