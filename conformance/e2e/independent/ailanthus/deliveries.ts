// Deliveries as the ScheduledExecutorService of the Java service runs them: each event to each receiver is a
// WEBHOOK_DELIVERIES row (NUMBER id) attempted at once, retried after 2 s, 10 s and 60 s on a non-2xx answer,
// and re-triggered on request. Every attempt is signed afresh (t=<unix>,v1=<hex HMAC-SHA256 of "t.body">).
import { createHmac, randomUUID } from 'node:crypto';
import { jsonb, notFound, offsetDateTime, type Rec } from './http.ts';
import { Sequence } from './state.ts';
import type { Subscription, WebhookRegistry } from './webhooks.ts';

export const SIGNATURE_HEADER = 'X-Ailanthus-Signature';
export const DELIVERY_HEADER = 'X-Ailanthus-Delivery-Id';
const RETRY_DELAYS_MS = [2000, 10_000, 60_000];

interface Delivery {
  deliveryId: number;
  webhookId: number;
  eventId: string;
  eventType: string;
  body: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastResponseCode?: number;
  createdAt: string;
  lastAttemptAt?: string;
}

export class DeliveryLog {
  private readonly seq = new Sequence(90_000);
  private readonly rows: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  private readonly registry: WebhookRegistry;
  private readonly pretty: boolean;
  constructor(registry: WebhookRegistry, pretty = false) {
    this.registry = registry;
    this.pretty = pretty;
  }

  /** Fans an event out to the tenant's subscribed receivers. */
  dispatch(tenant: string, eventType: string, data: Rec): void {
    for (const sub of this.registry.targets(tenant, eventType)) {
      const eventId = randomUUID();
      const event = { createdAt: offsetDateTime(), data: jsonb(data), id: eventId, type: eventType };
      const body = JSON.stringify(event, null, this.pretty ? 4 : 0);
      const row: Delivery = {
        deliveryId: this.seq.next(),
        webhookId: sub.id,
        eventId,
        eventType,
        body,
        status: 'PENDING',
        attempts: 0,
        createdAt: offsetDateTime(),
      };
      this.rows.push(row);
      this.schedule(sub, row, 0, 0);
    }
  }

  private schedule(sub: Subscription, row: Delivery, delay: number, retryIndex: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(sub, row, retryIndex);
    }, delay);
    this.timers.add(timer);
  }

  private async attempt(sub: Subscription, row: Delivery, retryIndex: number): Promise<void> {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', sub.signingKey).update(`${t}.${row.body}`).digest('hex');
    row.attempts += 1;
    row.lastAttemptAt = offsetDateTime();
    try {
      const res = await fetch(sub.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: String(row.deliveryId),
        },
        body: row.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      row.lastResponseCode = res.status;
      row.status = res.ok ? 'DELIVERED' : 'FAILED';
    } catch {
      row.status = 'FAILED';
    }
    const delay = RETRY_DELAYS_MS[retryIndex];
    if (row.status === 'FAILED' && delay !== undefined) this.schedule(sub, row, delay, retryIndex + 1);
  }

  /** A receiver's deliveries, newest first, ORDS-style limit/offset. */
  page(sub: Subscription, limit: number, offset: number): Rec {
    const all = this.rows.filter((r) => r.webhookId === sub.id).reverse();
    const items = all.slice(offset, offset + limit).map(({ body: _b, ...r }) => r);
    return { items, count: items.length, limit, offset, hasMore: offset + limit < all.length };
  }

  /** Triggers a logged delivery again: the same body and delivery id, a new signature. */
  redeliver(sub: Subscription, rawId: string | undefined): Rec {
    const row = this.rows.find((r) => String(r.deliveryId) === rawId && r.webhookId === sub.id);
    if (!row) throw notFound('Delivery not found');
    row.status = 'PENDING';
    this.schedule(sub, row, 0, RETRY_DELAYS_MS.length);
    const { body: _b, ...rest } = row;
    return rest;
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
  }
}
