// Webhook deliveries: signed POSTs (`X-Sweetgum-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 over
// `${t}.${rawBody}` keyed with the receiver's signing key), retried twice with backoff (250 ms, 1 s) on a
// failure, every attempt logged; a resend sends the same event body again, freshly signed, as a new attempt.
import { createHmac } from 'node:crypto';
import { ApiError, type Ctx } from './http.ts';
import { dartNow, type Rec, uuid } from './state.ts';
import { type Attempt, findWebhook, type Hooks, type Webhook } from './webhooks.ts';

const BACKOFF_MS = [250, 1000];

async function send(h: Hooks, hook: Webhook, a: Attempt): Promise<void> {
  const body = h.bodies.get(a.eventId) ?? '{}';
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.signingKey).update(`${t}.${body}`).digest('hex');
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Dart/3.5 (dart:io) sweetgum-webhooks',
        'x-sweetgum-signature': `t=${t},v1=${v1}`,
        'x-sweetgum-delivery': a.id,
        'x-sweetgum-event': a.event,
      },
      signal: AbortSignal.timeout(10_000),
    });
    await r.arrayBuffer().catch(() => undefined);
    a.responseStatus = r.status;
    a.status = r.ok ? 'succeeded' : 'failed';
  } catch (e) {
    a.status = 'failed';
    a.error = e instanceof Error ? e.name : 'error';
  }
  a.completedAt = dartNow();
  const delay = BACKOFF_MS[a.attempt - 1];
  if (a.status === 'failed' && delay !== undefined && h.webhooks.includes(hook)) {
    const timer = setTimeout(() => {
      h.timers.delete(timer);
      void send(h, hook, attempt(h, hook, a.eventId, a.event, a.attempt + 1, a.redeliveryOf));
    }, delay);
    h.timers.add(timer);
  }
}

function attempt(h: Hooks, hook: Webhook, eventId: string, event: string, n: number, of: string | null): Attempt {
  const a: Attempt = {
    id: uuid(),
    webhookId: hook.id,
    eventId,
    event,
    attempt: n,
    status: 'pending',
    responseStatus: null,
    error: null,
    requestedAt: dartNow(),
    completedAt: null,
    redeliveryOf: of,
  };
  h.attempts.push(a);
  return a;
}

/** Delivers `event` to every receiver of the tenant subscribed to it. */
export function emit(h: Hooks, tenant: string, event: string, data: Rec): void {
  for (const hook of h.webhooks.filter((w) => w.tenant === tenant && w.events.includes(event))) {
    const eventId = uuid();
    h.bodies.set(eventId, JSON.stringify({ id: eventId, type: event, createdAt: dartNow(), data }));
    void send(h, hook, attempt(h, hook, eventId, event, 1, null));
  }
}

/** Sends the attempt's event again, unchanged, as a new attempt (freshly signed). */
export function resend(h: Hooks, ctx: Ctx, webhookId: string, attemptId: string): Rec {
  const hook = findWebhook(h, ctx, webhookId);
  const a = h.attempts.find((x) => x.id === attemptId && x.webhookId === hook.id);
  if (!a) throw new ApiError(404, 'not_found', `Delivery attempt ${attemptId} not found`);
  const again = attempt(h, hook, a.eventId, a.event, 1, a.id);
  void send(h, hook, again);
  return { ...again };
}
