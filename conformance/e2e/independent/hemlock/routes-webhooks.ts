// Webhook receivers (/webhooks, /webhooks/{id}), their delivery log (/webhooks/{id}/delivery-attempts)
// and selective re-sending (/webhooks/{id}/delivery-attempts/{attemptId}/replay).
import { randomBytes } from 'node:crypto';
import { appendAudit } from './audit.ts';
import { invalid, isoUsec, newId, notFound } from './http-kit.ts';
import type { Call } from './routes-core.ts';
import type { Webhook } from './state.ts';
import { publicAttempt, replayAttempt } from './webhook-delivery.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.live',
  'connection.suspended',
  'order.created',
  'order.paid',
];

function webhookView(w: Webhook): Record<string, unknown> {
  return {
    id: w.id,
    url: w.url,
    events: [...w.events],
    state: w.active ? 'active' : 'deleted',
    createdAt: w.createdAt,
  };
}

function own(c: Call): Webhook {
  const w = c.state.webhooks.find((x) => x.id === c.params.id && x.tenant === c.tenant && x.active);
  if (!w) throw notFound('No webhook receiver with this id for this tenant.');
  return w;
}

export function createWebhook(c: Call): unknown {
  const url = c.body.url;
  if (typeof url !== 'string' || url.length > 2048) throw invalid('url must be a string of at most 2048 characters.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url must be an absolute http or https address.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid('url must be an absolute http or https address.');
  const events = c.body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > EVENT_NAMES.length) {
    throw invalid(
      `events must be a list of 1 to ${EVENT_NAMES.length} event names.`,
      `events: one of ${EVENT_NAMES.join(', ')}`,
    );
  }
  for (const e of events) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw invalid('events holds an unknown event name.', `events: one of ${EVENT_NAMES.join(', ')}`);
    }
  }
  const w: Webhook = {
    id: newId('wh'),
    tenant: c.tenant,
    url,
    events: [...new Set(events as string[])],
    signingKey: `whsk_${randomBytes(24).toString('base64url')}`,
    createdAt: isoUsec(),
    active: true,
  };
  c.state.webhooks.push(w);
  appendAudit(c.state, c.tenant, {
    action: 'webhook.create',
    resourceType: 'webhook',
    resourceId: w.id,
    actor: c.clientId,
    idempotencyKey: c.ctx.idempotencyKey,
  });
  // The signing key is issued exactly once, here; it is never shown by any read.
  return { ...webhookView(w), signingKey: w.signingKey, signatureHeader: 'X-Hemlock-Signature' };
}

export function listWebhooks(c: Call): unknown {
  const webhooks = c.state.webhooks.filter((w) => w.tenant === c.tenant && w.active).map(webhookView);
  return { count: webhooks.length, webhooks };
}

export function getWebhook(c: Call): unknown {
  return webhookView(own(c));
}

export function deleteWebhook(c: Call): unknown {
  const w = own(c);
  w.active = false;
  appendAudit(c.state, c.tenant, {
    action: 'webhook.delete',
    resourceType: 'webhook',
    resourceId: w.id,
    actor: c.clientId,
    idempotencyKey: c.ctx.idempotencyKey,
  });
  return { id: w.id, deleted: true };
}

export function listAttempts(c: Call): unknown {
  const w = own(c);
  const attempts = c.state.attempts
    .filter((a) => a.webhookId === w.id)
    .reverse()
    .map(publicAttempt);
  return { webhookId: w.id, count: attempts.length, attempts };
}

export function replay(c: Call): unknown {
  const w = own(c);
  const original = c.state.attempts.find((a) => a.id === c.params.attemptId && a.webhookId === w.id);
  if (!original) throw notFound('No delivery attempt with this id for this webhook receiver.');
  return publicAttempt(replayAttempt(c.state, w, original, c.clientId, c.ctx.idempotencyKey ?? ''));
}
