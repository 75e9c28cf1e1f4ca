// Svix-style deliveries: one message per (endpoint, event), attempts on a schedule (at once, then 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; scaled by retryScale for tests). Headers: webhook-id (the message
// id, stable across attempts), webhook-timestamp, and webhook-signature in the interface's form
// t=<unix-seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> keyed with the endpoint secret as UTF-8 text.
import { createHmac } from 'node:crypto';
import type { Attempt, Endpoint, Message, State } from './state.ts';
import { timestamp, typeId } from './wire.ts';

export const EVENT_TYPES = ['connection.created', 'connection.live', 'order.created', 'order.paid'] as const;
const SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Fans an event out to the tenant's endpoints subscribed to it. */
export function enqueue(state: State, tenant: string, eventType: string, data: Record<string, unknown>): void {
  for (const ep of state.endpoints) {
    if (ep.tenant !== tenant || !ep.events.includes(eventType)) continue;
    const message: Message = {
      id: typeId('msg'),
      endpointId: ep.id,
      eventType,
      payload: { type: eventType, eventId: typeId('evt'), timestamp: timestamp(), data },
      createdAt: timestamp(),
      status: 'pending',
      attempts: [],
      nextAttemptAt: timestamp(),
    };
    state.messages.push(message);
    const delay = state.options.deliveryDelayMs;
    if (delay > 0) state.later(delay, () => void attempt(state, ep, message, 'scheduled'));
    else void attempt(state, ep, message, 'scheduled');
  }
}

/** One attempt; a failed scheduled attempt books the next one on the schedule. */
export async function attempt(
  state: State,
  ep: Endpoint,
  message: Message,
  trigger: Attempt['trigger'],
): Promise<Attempt> {
  const body = JSON.stringify({ ...message.payload, messageId: message.id });
  const t = Math.floor(Date.now() / 1000);
  const started = Date.now();
  let responseStatus: number | null = null;
  message.status = message.status === 'succeeded' ? 'succeeded' : 'sending';
  try {
    const res = await fetch(ep.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Bamboo-Webhooks/1.0',
        'webhook-id': message.id,
        'webhook-timestamp': String(t),
        'webhook-signature': signature(ep.secret, t, body),
      },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    responseStatus = res.status;
    await res.arrayBuffer().catch(() => undefined);
  } catch {
    responseStatus = null;
  }
  const succeeded = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
  const record: Attempt = {
    id: typeId('atmpt'),
    at: timestamp(started),
    trigger,
    status: succeeded ? 'succeeded' : 'failed',
    responseStatus,
    durationMs: Date.now() - started,
  };
  message.attempts.push(record);
  if (succeeded) {
    message.status = 'succeeded';
    message.nextAttemptAt = null;
  } else if (trigger === 'scheduled') {
    const scheduled = message.attempts.filter((a) => a.trigger === 'scheduled').length;
    const wait = SCHEDULE_MS[scheduled - 1];
    if (wait === undefined) {
      message.status = message.status === 'succeeded' ? 'succeeded' : 'failed';
      message.nextAttemptAt = null;
    } else {
      const ms = Math.max(1, Math.round(wait * state.options.retryScale));
      message.status = message.status === 'succeeded' ? 'succeeded' : 'pending';
      message.nextAttemptAt = timestamp(Date.now() + ms);
      state.later(ms, () => {
        if (message.status !== 'succeeded' && state.endpoints.includes(ep))
          void attempt(state, ep, message, 'scheduled');
      });
    }
  } else if (message.status !== 'succeeded') {
    message.status = 'failed';
  }
  return record;
}
