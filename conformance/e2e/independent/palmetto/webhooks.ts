// Webhook receivers of palmetto: WebhookResource registers them, a Managed executor POSTs signed deliveries
// (X-Palmetto-Signature: t=<unix>,v1=<hmac-sha256 hex over "t.body">), and the delivery log lives at
// /webhook-deliveries?webhookId= with POST /webhook-deliveries/{id}/resend, as a JDBI table of attempts would.
// Ids the interface does not type (receivers, deliveries, audit rows) are JSON numbers: Jackson writes a long as one.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, ok, type Rec } from './http.ts';
import type { Delivery, Store, Webhook } from './state.ts';

export const EVENTS = ['connection.created', 'connection.updated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Palmetto-Signature';
export const DELIVERY_HEADER = 'X-Palmetto-Delivery';

export class Webhooks {
  /** The executor's queue: deliveries leave the request thread, as a Managed ExecutorService would take them. */
  private readonly pending = new Set<Promise<void>>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  create(ctx: Ctx, body: Rec): Rec {
    const url = body.url;
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol))
      throw new ApiError(400, 'invalid_request', 'url must be a valid URL', 'body.url');
    const events = body.events;
    if (
      !Array.isArray(events) ||
      events.length < 1 ||
      events.some((e) => typeof e !== 'string' || !EVENTS.includes(e))
    ) {
      throw new ApiError(400, 'invalid_request', `events: one of ${EVENTS.join(', ')}`, 'body.events');
    }
    const hook: Webhook = {
      id: String(this.store.seq.next()),
      tenant: ctx.tenant,
      url: String(url),
      events: [...new Set(events as string[])],
      secret: `whsk_${randomBytes(24).toString('hex')}`,
      createdAt: new Date().toISOString(),
    };
    this.store.webhooks.set(hook.id, hook);
    // The signing key is in this answer only; later reads of the receiver never show it.
    return {
      id: Number(hook.id),
      url: hook.url,
      events: hook.events,
      signingKey: hook.secret,
      createdAt: hook.createdAt,
    };
  }

  owned(ctx: Ctx, id: string | undefined): Webhook {
    const hook = id === undefined ? undefined : this.store.webhooks.get(id);
    if (!hook || hook.tenant !== ctx.tenant) throw new ApiError(404, 'not_found', `Webhook ${id ?? ''} not found`);
    return hook;
  }

  remove(ctx: Ctx): Rec {
    const hook = this.owned(ctx, ctx.params.id);
    this.store.webhooks.delete(hook.id);
    return { id: Number(hook.id), deleted: true };
  }

  /** Queues one delivery per receiver of the tenant subscribed to `event`. */
  dispatch(tenant: string, event: string, data: Rec): void {
    for (const hook of this.store.webhooks.values()) {
      if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
      const eventId = randomUUID();
      const body = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data });
      const d: Delivery = {
        id: String(this.store.seq.next()),
        webhookId: hook.id,
        eventId,
        event,
        body,
        attempts: [],
        status: 'PENDING',
        createdAt: new Date().toISOString(),
      };
      this.store.deliveries.set(d.id, d);
      this.send(hook, d);
    }
  }

  private send(hook: Webhook, d: Delivery): void {
    const p = this.post(hook, d).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async post(hook: Webhook, d: Delivery): Promise<void> {
    const delay = this.store.options.deliveryDelayMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
    const attempt: Rec = {
      attempt: d.attempts.length + 1,
      at: new Date().toISOString(),
      responseStatus: null,
      error: null,
    };
    d.attempts.push(attempt);
    const host = new URL(hook.url).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') {
      attempt.error = 'only loopback receivers are reachable from this deployment';
      d.status = 'FAILED';
      return;
    }
    try {
      const r = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: d.id,
          'X-Palmetto-Event': d.event,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      attempt.responseStatus = r.status;
      d.status = r.ok ? 'DELIVERED' : 'FAILED';
    } catch (e) {
      attempt.error = e instanceof Error ? e.message : String(e);
      d.status = 'FAILED';
    }
  }

  /** GET /webhook-deliveries?webhookId=: the receiver's deliveries, newest first. */
  log(ctx: Ctx): void {
    const hook = this.owned(ctx, ctx.url.searchParams.get('webhookId') ?? undefined);
    const deliveries = [...this.store.deliveries.values()]
      .filter((d) => d.webhookId === hook.id)
      .reverse()
      .map(view);
    ok(ctx, { webhookId: Number(hook.id), count: deliveries.length, deliveries });
  }

  /** POST /webhook-deliveries/{id}/resend: the same event body, freshly signed, as a new attempt. */
  resend(ctx: Ctx): Rec {
    const d = ctx.params.deliveryId === undefined ? undefined : this.store.deliveries.get(ctx.params.deliveryId);
    const hook = d ? this.store.webhooks.get(d.webhookId) : undefined;
    if (!d || !hook || hook.tenant !== ctx.tenant)
      throw new ApiError(404, 'not_found', `Delivery ${ctx.params.deliveryId ?? ''} not found`);
    d.status = 'PENDING';
    this.send(hook, d);
    return view(d);
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}

const view = (d: Delivery): Rec => ({
  id: Number(d.id),
  webhookId: Number(d.webhookId),
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts.map((a) => ({ ...a })),
  createdAt: d.createdAt,
});
