// Signed webhook deliveries with a retry schedule (default 2 s, 10 s, 60 s after a failed attempt).
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { instant } from './http-kit.ts';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from './options.ts';
import { type Delivery, later, nextId, type State, type Webhook } from './store.ts';

export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

export function sign(secret: string, t: number, raw: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

/** Fans an event out to every active receiver of the tenant subscribed to it. */
export function emitWebhookEvent(state: State, tenant: string, eventType: string, data: Record<string, unknown>): void {
  const eventId = nextId();
  for (const w of state.webhooks) {
    if (w.tenant !== tenant || w.status !== 'ACTIVE' || !w.events.includes(eventType)) continue;
    const body = { eventId, eventType, occurredAt: instant(), webhookId: w.id, data };
    startDelivery(state, w, eventId, eventType, body, null);
  }
}

export function startDelivery(
  state: State,
  w: Webhook,
  eventId: string,
  eventType: string,
  body: unknown,
  redeliveryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: nextId(),
    tenant: w.tenant,
    webhookId: w.id,
    eventId,
    eventType,
    body,
    status: 'PENDING',
    attempts: [],
    redeliveryOf,
    createdAt: instant(),
    nextAttemptAt: instant(),
  };
  state.deliveries.push(d);
  later(state, state.config.relayDelayMs, () => attempt(state, w, d));
  return d;
}

function post(url: string, raw: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(raw);
  });
}

async function attempt(state: State, w: Webhook, d: Delivery): Promise<void> {
  // Serialised at send time: the signature's t is the moment of this attempt.
  const raw = JSON.stringify(d.body);
  const t = Math.floor(Date.now() / 1000);
  const started = Date.now();
  let httpStatus: number | null = null;
  let outcome = 'SUCCESS';
  try {
    httpStatus = await post(w.url, raw, {
      'content-type': 'application/json',
      'user-agent': 'larch-webhooks/2026-07-01',
      [SIGNATURE_HEADER]: sign(w.secret, t, raw),
      [DELIVERY_ID_HEADER]: d.id,
      'X-Larch-Event-Type': d.eventType,
      'X-Larch-Event-Id': d.eventId,
      'X-Larch-Webhook-Id': w.id,
    });
    if (httpStatus < 200 || httpStatus > 299) outcome = 'HTTP_ERROR';
  } catch {
    // The receiver's address is the partner's own; only the kind of failure is logged, no socket details.
    outcome = 'CONNECTION_FAILED';
  }
  d.attempts.push({
    number: d.attempts.length + 1,
    at: instant(),
    httpStatus,
    outcome,
    durationMs: Date.now() - started,
  });
  if (outcome === 'SUCCESS') {
    d.status = 'SUCCEEDED';
    d.nextAttemptAt = null;
    return;
  }
  const wait = state.config.retryScheduleMs[d.attempts.length - 1];
  if (wait === undefined || w.status !== 'ACTIVE') {
    d.status = 'FAILED';
    d.nextAttemptAt = null;
    return;
  }
  d.status = 'RETRY_SCHEDULED';
  d.nextAttemptAt = instant(Date.now() + wait);
  later(state, wait, () => attempt(state, w, d));
}

/** The log view of a delivery (the body stays out: it is the partner's data, kept for redelivery only). */
export function deliveryView(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attempts.length,
    attempts: d.attempts,
    redeliveryOf: d.redeliveryOf,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt,
  };
}
