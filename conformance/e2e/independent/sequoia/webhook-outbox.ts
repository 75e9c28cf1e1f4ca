// Webhooks with a transactional outbox: an event inserts one outbox row per subscribed receiver in the same
// step as the change; a poller delivers due rows, retrying with exponential backoff. The outbox is the
// delivery log; a requeue inserts a new row carrying the same event (same body, fresh signature).
import { createHmac, randomBytes } from 'node:crypto';

export const WEBHOOK_EVENTS = ['connection.requested', 'connection.active', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Sequoia-Signature';
export const DELIVERY_HEADER = 'Sequoia-Delivery-Id';

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createdAt: string;
  secret: string;
}

interface OutboxRow {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; status: number | null; error?: string }[];
  nextAttemptAt: number;
  createdAt: string;
  requeuedFrom?: string;
}

export interface OutboxOptions {
  pollMs: number;
  /** Outbox row ids as H2 identity numbers (numbers in the log, digits in the header). */
  numericIds?: boolean;
  backoffBaseMs: number;
  maxAttempts: number;
}

export function createWebhookOutbox(opts: OutboxOptions) {
  const hooks = new Map<string, Webhook>();
  const outbox: OutboxRow[] = [];
  let rowSeq = 0;
  let eventSeq = 0;
  let busy = false;

  const insert = (hook: Webhook, eventId: string, event: string, body: string, requeuedFrom?: string) => {
    rowSeq++;
    const row: OutboxRow = {
      deliveryId: opts.numericIds ? String(rowSeq) : `dlv-${String(rowSeq).padStart(8, '0')}`,
      webhookId: hook.id,
      eventId,
      event,
      body,
      state: 'pending',
      attempts: [],
      nextAttemptAt: Date.now(),
      createdAt: new Date().toISOString(),
      requeuedFrom,
    };
    outbox.push(row);
    return row;
  };

  const attempt = async (row: OutboxRow) => {
    const hook = hooks.get(row.webhookId);
    if (!hook) {
      row.state = 'failed';
      return;
    }
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.secret).update(`${t}.${row.body}`).digest('hex');
    const at = new Date().toISOString();
    try {
      const r = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: row.deliveryId,
          'Sequoia-Event': row.event,
          'user-agent': 'sequoia-outbox/1.0',
        },
        body: row.body,
        signal: AbortSignal.timeout(5000),
      });
      await r.arrayBuffer().catch(() => undefined);
      row.attempts.push({ at, status: r.status });
      if (r.ok) row.state = 'delivered';
    } catch (e) {
      row.attempts.push({ at, status: null, error: e instanceof Error ? e.name : 'error' });
    }
    if (row.state === 'pending') {
      if (row.attempts.length >= opts.maxAttempts) row.state = 'failed';
      else row.nextAttemptAt = Date.now() + opts.backoffBaseMs * 2 ** (row.attempts.length - 1);
    }
  };

  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const due = outbox.filter((r) => r.state === 'pending' && r.nextAttemptAt <= Date.now());
      await Promise.all(due.map(attempt));
    } finally {
      busy = false;
    }
  }, opts.pollMs);

  return {
    register(tenant: string, url: string, events: string[]): Webhook {
      const hook: Webhook = {
        id: `whk-${randomBytes(6).toString('hex')}`,
        tenant,
        url,
        events,
        createdAt: new Date().toISOString(),
        secret: `sqwh_${randomBytes(24).toString('hex')}`,
      };
      hooks.set(hook.id, hook);
      return hook;
    },
    find(tenant: string, id: string): Webhook | undefined {
      const h = hooks.get(id);
      return h && h.tenant === tenant ? h : undefined;
    },
    remove(tenant: string, id: string): boolean {
      const h = hooks.get(id);
      if (!h || h.tenant !== tenant) return false;
      hooks.delete(id);
      return true;
    },
    /** Called in the same step as the change it reports (the outbox's transaction). */
    emit(tenant: string, event: string, data: Record<string, unknown>): void {
      eventSeq++;
      const eventId = `evt-${Date.now().toString(36)}-${eventSeq}`;
      const body = JSON.stringify({ id: eventId, type: event, occurredAt: new Date().toISOString(), tenant, data });
      for (const h of hooks.values()) {
        if (h.tenant === tenant && h.events.includes(event)) insert(h, eventId, event, body);
      }
    },
    log(hook: Webhook) {
      return outbox
        .filter((r) => r.webhookId === hook.id)
        .map(({ body: _body, nextAttemptAt: _n, ...r }) => ({
          ...r,
          ...(opts.numericIds ? { deliveryId: Number(r.deliveryId) } : {}),
          attemptCount: r.attempts.length,
        }));
    },
    requeue(hook: Webhook, deliveryId: string) {
      const row = outbox.find((r) => r.webhookId === hook.id && r.deliveryId === deliveryId);
      if (!row) return undefined;
      const fresh = insert(hook, row.eventId, row.event, row.body, row.deliveryId);
      return { deliveryId: fresh.deliveryId, eventId: fresh.eventId, state: fresh.state, requeuedFrom: row.deliveryId };
    },
    close(): void {
      clearInterval(timer);
    },
  };
}

export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>;
