// Webhook receivers and their delivery log (GET /webhook-deliveries?webhookId=…, page/size) with
// selective re-triggering (POST /webhook-deliveries/{deliveryId}/redeliver, Idempotency-Key required).
import { pageOf, paging, record } from './audit.ts';
import type { Principal } from './auth.ts';
import { deliveryView, newSecret, startDelivery } from './deliver.ts';
import { type Ctx, instant, invalid, notFound, ok } from './http-kit.ts';
import { once } from './idempotency.ts';
import type { Body } from './operations.ts';
import { BASE, EVENT_NAMES, SIGNATURE_HEADER } from './options.ts';
import { nextId, type State, type Webhook } from './store.ts';

function webhookView(w: Webhook): Record<string, unknown> {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    createdAt: w.createdAt,
    signatureHeader: SIGNATURE_HEADER,
  };
}

function readRegistration(body: Body): { url: string; events: string[] } {
  const { url, events } = body;
  if (typeof url !== 'string' || url.length > 2048)
    throw invalid(
      'Validation failed',
      'url: must be an absolute http(s) URL of at most 2048 characters',
      'Send the receiver address as url.',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('Validation failed', 'url: must be an absolute http(s) URL', 'Send the receiver address as url.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid('Validation failed', 'url: scheme must be http or https', 'Send an http(s) URL.');
  if (!Array.isArray(events) || events.length < 1 || events.length > 20)
    throw invalid(
      'Validation failed',
      'events: size must be between 1 and 20',
      `Subscribe to one or more of ${EVENT_NAMES.join(', ')}.`,
    );
  for (const e of events) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw invalid(
        'Validation failed',
        `events: one of ${EVENT_NAMES.join(', ')}`,
        'Use the event names of the self-description (data.webhooks.events).',
      );
    }
  }
  return { url, events: [...new Set(events as string[])] };
}

export function registerWebhook(state: State, ctx: Ctx, who: Principal, key: string | undefined, body: Body): void {
  const input = readRegistration(body);
  const result = once(state, ctx, who, key, input, () => {
    const w: Webhook = {
      id: nextId(),
      tenant: who.tenant,
      ...input,
      secret: newSecret(),
      keyId: `whk-${nextId()}`,
      status: 'ACTIVE',
      createdAt: instant(),
    };
    state.webhooks.push(w);
    record(state, who.tenant, 'WEBHOOK_REGISTERED', 'WEBHOOK', w.id, { type: 'CLIENT', id: who.clientId }, ctx, {
      url: w.url,
      events: w.events,
    });
    // The signing key is part of this one answer only; the stored answer is what a replay repeats.
    return { ...webhookView(w), signingKey: { keyId: w.keyId, algorithm: 'HMAC-SHA256', secret: w.secret } };
  });
  if (result.replayed && state.config.redactKeyOnReplay) {
    const d = result.data as Record<string, unknown>;
    const sk = d.signingKey as Record<string, unknown>;
    ok(ctx, { ...d, signingKey: { keyId: sk.keyId, algorithm: sk.algorithm, secret: null } }, { replayed: true });
    return;
  }
  ok(ctx, result.data, result.replayed ? { replayed: true } : {});
}

function ownWebhook(state: State, who: Principal, id: string): Webhook {
  const w = state.webhooks.find((x) => x.id === id && x.tenant === who.tenant && x.status === 'ACTIVE');
  if (!w) throw notFound('Webhook', id);
  return w;
}

export function listWebhooks(state: State, ctx: Ctx, who: Principal): void {
  const webhooks = state.webhooks.filter((w) => w.tenant === who.tenant && w.status === 'ACTIVE').map(webhookView);
  ok(ctx, { count: webhooks.length, webhooks });
}

export function deleteWebhook(state: State, ctx: Ctx, who: Principal, key: string | undefined, id: string): void {
  const result = once(state, ctx, who, key, { id }, () => {
    const w = ownWebhook(state, who, id);
    w.status = 'DELETED';
    record(state, who.tenant, 'WEBHOOK_DELETED', 'WEBHOOK', w.id, { type: 'CLIENT', id: who.clientId }, ctx, {});
    return { id: w.id, status: w.status };
  });
  ok(ctx, result.data, result.replayed ? { replayed: true } : {});
}

export function listDeliveries(state: State, ctx: Ctx, who: Principal): void {
  const webhookId = ctx.query.get('webhookId');
  if (webhookId !== null) {
    const w = state.webhooks.find((x) => x.id === webhookId && x.tenant === who.tenant);
    if (!w) throw notFound('Webhook', webhookId);
  }
  const { page, size } = paging(ctx, 20);
  const all = state.deliveries
    .filter((d) => d.tenant === who.tenant && (webhookId === null || d.webhookId === webhookId))
    .reverse()
    .map(deliveryView);
  ok(ctx, pageOf(state, ctx, all, page, size, `${BASE}/webhook-deliveries`, 'deliveries').body);
}

export function getDelivery(state: State, ctx: Ctx, who: Principal, id: string): void {
  const d = state.deliveries.find((x) => x.id === id && x.tenant === who.tenant);
  if (!d) throw notFound('Delivery', id);
  ok(ctx, deliveryView(d));
}

export function redeliver(state: State, ctx: Ctx, who: Principal, key: string | undefined, id: string): void {
  const result = once(state, ctx, who, key, { id }, () => {
    const d = state.deliveries.find((x) => x.id === id && x.tenant === who.tenant);
    if (!d) throw notFound('Delivery', id);
    const w = ownWebhook(state, who, d.webhookId);
    const again = startDelivery(state, w, d.eventId, d.eventType, d.body, d.id);
    record(
      state,
      who.tenant,
      'WEBHOOK_DELIVERY_RETRIGGERED',
      'WEBHOOK_DELIVERY',
      again.id,
      { type: 'CLIENT', id: who.clientId },
      ctx,
      { redeliveryOf: d.id },
    );
    return deliveryView(again);
  });
  ok(ctx, result.data, result.replayed ? { replayed: true } : {});
}
