// Webhook deliveries through an outbox: a change writes one webhook_outbox row per subscribed receiver in
// the same transaction; a relay polls due rows and sends them signed. A failed attempt is retried with
// exponential waits (base, 2x, 4x, 8x) up to 5 attempts, then the row is dead; a requeue (delivery log)
// puts it back at once. This sandbox build sends to loopback receivers only (the egress policy).
import { createHmac } from 'node:crypto';
import { instant } from './http-kit.ts';
import type { Attempt, OutboxRow, Store } from './store.ts';
import { uuidv7 } from './store.ts';

export const SIGNATURE_HEADER = 'Tamarack-Signature';
export const DELIVERY_HEADER = 'Tamarack-Delivery';
export const MAX_ATTEMPTS = 5;
/** Events a receiver may subscribe to: the connection states, and the POS events of the samples. */
export const EVENT_NAMES = [
  'connection.requested',
  'connection.provisioning',
  'connection.live',
  'order.created',
  'order.paid',
];

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function signature(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export interface Relay {
  enqueue(tenant: string, event: string, data: Record<string, unknown>): void;
  requeue(row: OutboxRow): void;
  close(): void;
}

export function deliveryView(row: OutboxRow): Record<string, unknown> {
  return {
    id: row.id,
    webhookId: row.receiverId,
    event: row.event,
    eventId: row.eventId,
    status: row.status,
    attemptCount: row.attempts.length,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' || row.status === 'retrying' ? instant(row.dueAt) : null,
    createdAt: row.createdAt,
  };
}

export function createRelay(store: Store): Relay {
  const inFlight = new Set<string>();
  const abort = new AbortController();

  async function send(row: OutboxRow): Promise<void> {
    const receiver = store.receivers.get(row.receiverId);
    const attempt: Attempt = {
      number: row.attempts.length + 1,
      at: instant(),
      outcome: 'failed',
      trigger: row.trigger,
    };
    if (receiver?.state !== 'enabled') {
      row.status = 'dead';
      row.attempts.push({ ...attempt, error: 'receiver removed' });
      return;
    }
    const host = new URL(receiver.url).hostname;
    if (!LOOPBACK.has(host)) {
      row.status = 'dead';
      row.attempts.push({ ...attempt, error: 'destination outside the sandbox egress policy' });
      return;
    }
    const t = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Tamarack-Webhooks/1.4',
          [SIGNATURE_HEADER]: signature(receiver.signingKey, t, row.body),
          [DELIVERY_HEADER]: row.id,
          'Tamarack-Event': row.event,
          'Tamarack-Attempt': String(attempt.number),
        },
        body: row.body,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(5000)]),
      });
      await res.arrayBuffer().catch(() => undefined);
      attempt.status = res.status;
      if (res.ok) attempt.outcome = 'delivered';
      else attempt.error = `receiver answered ${res.status}`;
    } catch (e) {
      attempt.error = (e as Error).name === 'TimeoutError' ? 'timed out after 5 s' : 'receiver unreachable';
    }
    row.attempts.push(attempt);
    if (attempt.outcome === 'delivered') {
      row.status = 'delivered';
      return;
    }
    row.retries += 1;
    if (row.retries >= MAX_ATTEMPTS) row.status = 'dead';
    else {
      row.status = 'retrying';
      row.trigger = 'retry';
      row.dueAt = Date.now() + store.options.retryBaseMs * 2 ** (row.retries - 1);
    }
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (const row of store.outbox) {
      if ((row.status !== 'pending' && row.status !== 'retrying') || row.dueAt > now || inFlight.has(row.id)) continue;
      inFlight.add(row.id);
      void send(row).finally(() => inFlight.delete(row.id));
    }
  }, store.options.relayMs);
  timer.unref();

  return {
    enqueue(tenant, event, data) {
      for (const r of store.receivers.values()) {
        if (r.tenant !== tenant || r.state !== 'enabled' || !r.events.includes(event)) continue;
        const eventId = `evt_${uuidv7().replaceAll('-', '')}`;
        const createdAt = instant();
        const body = JSON.stringify({ id: eventId, type: event, createdAt, tenant, webhookId: r.id, data });
        store.outbox.push({
          id: uuidv7(),
          tenant,
          receiverId: r.id,
          event,
          eventId,
          body,
          status: 'pending',
          dueAt: Date.now(),
          retries: 0,
          trigger: 'event',
          attempts: [],
          createdAt,
        });
      }
    },
    requeue(row) {
      row.status = 'pending';
      row.retries = 0;
      row.trigger = 'requeue';
      row.dueAt = Date.now();
    },
    close() {
      clearInterval(timer);
      abort.abort();
    },
  };
}
