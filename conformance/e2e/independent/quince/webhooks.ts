// Webhook deliveries: Pub/Sub-style push envelopes, signed t=<unix>,v1=<hex HMAC-SHA256> in X-Quince-Signature,
// retried on failure, recorded in a delivery log and sent again on request.
import { createHmac } from 'node:crypto';
import type { Delivery, State, Webhook } from './state.ts';
import { later } from './state.ts';
import { base36Id, isoNanos } from './util.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Quince-Signature';
export const DELIVERY_HEADER = 'X-Quince-Delivery';

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** Fans an event of a tenant out to its receivers subscribed to it. */
export function fanOut(
  state: State,
  tenant: string,
  type: string,
  eventId: string,
  data: Record<string, unknown>,
): void {
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || !w.events.includes(type)) continue;
    const d: Delivery = {
      id: base36Id('d'),
      webhookId: w.id,
      eventId,
      eventType: type,
      body: '',
      status: 'PENDING',
      attempts: [],
      createdAt: isoNanos(),
    };
    const envelope = {
      message: {
        messageId: eventId,
        publishTime: d.createdAt,
        attributes: { eventType: type, webhookId: w.id, deliveryId: d.id },
        data: state.opts.base64Data
          ? Buffer.from(JSON.stringify({ id: eventId, type, ...data })).toString('base64')
          : { id: eventId, type, ...data },
      },
      subscription: `webhooks/${w.id}`,
    };
    d.body = JSON.stringify(envelope);
    state.deliveries.set(d.id, d);
    void attempt(state, w, d, 0, 'PUSH');
  }
}

/** One push; on failure the next attempt follows the retry waits (trigger PUSH), a manual retry does not chain. */
export async function attempt(state: State, w: Webhook, d: Delivery, n: number, trigger: string): Promise<void> {
  let status: number | null = null;
  try {
    const r = await fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: sign(w.secret, d.body),
        [DELIVERY_HEADER]: d.id,
        'X-Quince-Event': d.eventType,
        'User-Agent': 'Quince-Push/1.0',
      },
      body: d.body,
      signal: AbortSignal.timeout(10_000),
    });
    status = r.status;
    await r.arrayBuffer().catch(() => undefined);
  } catch {
    status = null;
  }
  d.attempts.push({ at: isoNanos(), statusCode: status, trigger });
  const success = status !== null && status >= 200 && status < 300;
  if (success) {
    d.status = 'DELIVERED';
    return;
  }
  const wait = trigger === 'PUSH' ? state.opts.retryDelaysMs[n] : undefined;
  if (wait === undefined || !state.webhooks.has(w.id)) {
    d.status = 'FAILED';
    return;
  }
  d.status = 'RETRYING';
  later(state, wait, () => void attempt(state, w, d, n + 1, 'PUSH'));
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attempts.length,
    lastStatusCode: last?.statusCode ?? null,
    attempts: d.attempts,
    createTime: d.createdAt,
  };
}

export function webhookView(w: Webhook): Record<string, unknown> {
  return { id: w.id, url: w.url, events: w.events, state: 'ACTIVE', createTime: w.createdAt };
}
