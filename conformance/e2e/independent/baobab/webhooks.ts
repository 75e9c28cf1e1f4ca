// Webhook deliveries: signed (X-Baobab-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">), logged,
// retried after 1 s and 4 s on failure, and re-triggered on request as a new delivery of the same event.
import { createHmac } from 'node:crypto';
import { newId } from './http-util.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated'] as const;
export const SIGNATURE_HEADER = 'X-Baobab-Signature';

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** What a delivery log entry shows (the signed body stays internal). */
export function publicDelivery(d: Delivery): Record<string, unknown> {
  const { body: _body, ...rest } = d;
  return rest;
}

async function attempt(state: State, hook: Webhook, d: Delivery, left: number[]): Promise<void> {
  if (state.closed) return;
  const t = Math.floor(Date.now() / 1000);
  d.attempts += 1;
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'baobab-webhooks/1.0',
        [SIGNATURE_HEADER]: sign(hook.signingKey, t, d.body),
        'X-Baobab-Event': d.event,
        'X-Baobab-Delivery': d.id,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    d.lastResponseStatus = res.status;
    d.lastError = res.ok ? null : `receiver answered ${res.status}`;
    d.status = res.ok ? 'succeeded' : 'failed';
  } catch {
    // No addresses or stack in the log: only what a partner can act on.
    d.lastResponseStatus = null;
    d.lastError = 'receiver not reachable or timed out';
    d.status = 'failed';
  }
  d.updatedAt = new Date().toISOString();
  const [wait, ...rest] = left;
  if (d.status === 'failed' && wait !== undefined) {
    d.status = 'pending';
    later(state, wait, () => void attempt(state, hook, d, rest));
  }
}

function startDelivery(
  state: State,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  retryOf: string | null,
): Delivery {
  const now = new Date().toISOString();
  const d: Delivery = {
    id: newId(12),
    webhookId: hook.id,
    eventId,
    event,
    status: 'pending',
    attempts: 0,
    lastResponseStatus: null,
    lastError: null,
    retryOf,
    createdAt: now,
    updatedAt: now,
    body,
  };
  state.deliveries.push(d);
  void attempt(state, hook, d, state.opts.retryDelaysMs);
  return d;
}

/** Sends `event` to every receiver of `tenant` subscribed to it. */
export function dispatch(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of state.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const eventId = newId(16);
    const body = JSON.stringify({ id: eventId, event, createdAt: new Date().toISOString(), webhookId: hook.id, data });
    startDelivery(state, hook, eventId, event, body, null);
  }
}

/** Re-triggers a logged delivery: a new delivery (own id) of the same event and body, signed anew. */
export function redeliver(state: State, hook: Webhook, original: Delivery): Delivery {
  return startDelivery(state, hook, original.eventId, original.event, original.body, original.id);
}
