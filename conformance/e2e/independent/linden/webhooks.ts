// Webhook deliveries as Dramatiq actors: each delivery is a message on a queue; a failed attempt (no 2xx,
// network error, 5 s timeout) is retried with exponential backoff (base * 2^n, plus jitter) until
// maxRetries, then dead-lettered. Every attempt is signed afresh: t=<unix>,v1=HMAC-SHA256(key, t + "." + body).
import { createHmac } from 'node:crypto';
import type { Delivery, State } from './state.ts';
import { later, newId, servedId, stamp } from './state.ts';
import { snowflake } from './util.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.live', 'order.created', 'order.paid'] as const;
export const SIGNATURE_HEADER = 'Linden-Signature';
export const MESSAGE_ID_HEADER = 'Linden-Message-Id';
export const EVENT_HEADER = 'Linden-Event';
const ATTEMPT_TIMEOUT_MS = 5000;

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** Publishes an event of a tenant to every enabled receiver subscribed to it (one delivery each). */
export function emit(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = `evt_${snowflake()}`;
  const body = JSON.stringify({ id: eventId, type: event, createdAt: stamp(state), tenant, data });
  for (const hook of state.webhooks.values()) {
    if (hook.tenant !== tenant || hook.status !== 'enabled' || !hook.events.includes(event)) continue;
    enqueue(state, { webhookId: hook.id, tenant, eventId, event, body, trigger: 'event' });
  }
}

export function enqueue(
  state: State,
  d: Pick<Delivery, 'webhookId' | 'tenant' | 'eventId' | 'event' | 'body' | 'trigger' | 'requeueOf'>,
): Delivery {
  const delivery: Delivery = {
    ...d,
    id: newId(state, 'delivery'),
    status: 'queued',
    createdAt: stamp(state),
    attempts: [],
  };
  state.deliveries.push(delivery);
  later(state, state.options.deliveryDelayMs, () => void attempt(state, delivery));
  return delivery;
}

async function attempt(state: State, d: Delivery): Promise<void> {
  const hook = state.webhooks.get(d.webhookId);
  if (hook?.status !== 'enabled') {
    d.status = 'dead';
    d.nextAttemptAt = undefined;
    return;
  }
  const n = d.attempts.length + 1;
  const tries = n - (d.attemptsBeforeRequeue ?? 0);
  const at = stamp(state);
  let status: number | null = null;
  let error: string | undefined;
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'linden-webhooks/1.0',
        [SIGNATURE_HEADER]: sign(hook.secret, d.body),
        [MESSAGE_ID_HEADER]: d.id,
        [EVENT_HEADER]: d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      redirect: 'manual',
    });
    status = res.status;
    await res.body?.cancel();
    if (status < 200 || status > 299) error = `receiver answered ${status}`;
  } catch (e) {
    error =
      (e as Error).name === 'TimeoutError' ? 'receiver did not answer within 5 s' : 'receiver could not be reached';
  }
  d.attempts.push({ attempt: n, at, status, outcome: error ? 'failed' : 'delivered', ...(error ? { error } : {}) });
  if (!error) {
    d.status = 'delivered';
    d.nextAttemptAt = undefined;
    return;
  }
  if (tries > state.options.maxRetries) {
    d.status = 'dead';
    d.nextAttemptAt = undefined;
    return;
  }
  // Dramatiq's backoff: min_backoff * 2^(retries), with up to 10 % jitter so retries do not align.
  const wait = Math.round(state.options.retryBaseMs * 2 ** (tries - 1) * (1 + Math.random() * 0.1));
  d.status = 'retrying';
  d.nextAttemptAt = stamp(state, Date.now() + wait);
  later(state, wait, () => void attempt(state, d));
}

/** Sends a logged message again under its own id (the same-message choice), its retries counted afresh. */
export function requeueSame(state: State, d: Delivery): Delivery {
  d.attemptsBeforeRequeue = d.attempts.length;
  d.status = 'queued';
  d.trigger = 'requeue';
  later(state, 0, () => void attempt(state, d));
  return d;
}

/** A delivery as the log shows it (the body is not repeated: the receiver has it). */
export function deliveryView(state: State, d: Delivery): Record<string, unknown> {
  return {
    id: servedId(state, d.id),
    webhookId: servedId(state, d.webhookId),
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    trigger: d.trigger,
    ...(d.requeueOf ? { requeueOf: servedId(state, d.requeueOf) } : {}),
    createdAt: d.createdAt,
    attempts: d.attempts,
    ...(d.nextAttemptAt ? { nextAttemptAt: d.nextAttemptAt } : {}),
  };
}
