// The delivery worker (a tokio task in the original) and the delivery log routes:
//   GET  /api/public/v1/webhook-deliveries?webhookId={id}   the receiver's deliveries, newest first
//   POST /api/public/v1/webhook-deliveries/{id}/retry       sends a logged delivery again (a new row)
// Retries after 2 s, 10 s and 60 s; every attempt is signed afresh (t=<unix>,v1=<hex HMAC-SHA256>).
import { createHmac } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { ApiError, type Ctx, now, ok, type Rec } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import type { Delivery, Store } from './state.ts';
import type { Webhooks } from './webhooks.ts';

export const SIGNATURE_HEADER = 'X-Redbud-Signature';
export const DELIVERY_HEADER = 'X-Redbud-Delivery';
const BACKOFF_MS = [2_000, 10_000, 60_000];

function view(d: Delivery): Rec {
  const { body: _body, tenant: _tenant, nextAttemptAt: _next, ...rest } = d;
  return rest;
}

export class Deliveries {
  private readonly timer: NodeJS.Timeout;
  private readonly inFlight = new Set<number>();

  private readonly store: Store;
  private readonly webhooks: Webhooks;
  private readonly audit: AuditLog;

  constructor(store: Store, webhooks: Webhooks, audit: AuditLog) {
    this.store = store;
    this.webhooks = webhooks;
    this.audit = audit;
    this.timer = setInterval(() => this.drain(), 50);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private drain(): void {
    const due = this.store.deliveries.filter(
      (d) => d.status === 'pending' && d.nextAttemptAt <= Date.now() && !this.inFlight.has(d.id),
    );
    for (const d of due) void this.attempt(d);
  }

  private async attempt(d: Delivery): Promise<void> {
    const w = this.store.webhooks.get(d.webhookId);
    if (!w) {
      d.status = 'failed';
      return;
    }
    this.inFlight.add(d.id);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', w.secret).update(`${t}.${d.body}`).digest('hex');
    d.attempts += 1;
    d.lastAttemptAt = now();
    try {
      // Only loopback receivers are reachable from this in-process port of the worker.
      const host = new URL(w.url).hostname;
      if (host !== '127.0.0.1' && host !== 'localhost') throw new Error('unreachable');
      const res = await fetch(w.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'redbud-webhooks/1.4',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: String(d.id),
          'X-Redbud-Event': d.eventType,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      d.responseStatus = res.status;
      if (res.ok) d.status = 'delivered';
      else this.reschedule(d);
    } catch {
      this.reschedule(d);
    } finally {
      this.inFlight.delete(d.id);
    }
  }

  private reschedule(d: Delivery): void {
    const wait = BACKOFF_MS[d.attempts - 1];
    if (wait === undefined) d.status = 'failed';
    else d.nextAttemptAt = Date.now() + wait;
  }

  list(ctx: Ctx, tenant: string): void {
    const w = this.webhooks.find(tenant, ctx.url.searchParams.get('webhookId'));
    const deliveries = this.store.deliveries
      .filter((d) => d.webhookId === w.id)
      .reverse()
      .map(view);
    ok(ctx, { webhookId: w.id, count: deliveries.length, deliveries });
  }

  retry(ctx: Ctx, tenant: string, clientId: string, id: string): void {
    const key = requireKey(ctx);
    idempotent(ctx, this.store, tenant, key, { retry: id }, () => {
      const src = this.store.deliveries.find((d) => String(d.id) === id && d.tenant === tenant);
      if (!src || !this.store.webhooks.has(src.webhookId)) throw new ApiError('not_found', 'No delivery with this id');
      this.store.seq.delivery += 1;
      const copy: Delivery = {
        ...src,
        id: this.store.seq.delivery,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: Date.now(),
        responseStatus: null,
        createdAt: now(),
        lastAttemptAt: null,
        redeliveryOf: src.id,
      };
      this.store.deliveries.push(copy);
      this.audit.record(tenant, clientId, 'delivery.retried', 'delivery', String(copy.id));
      return view(copy);
    });
  }
}
