// Webhook receivers (a `webhooks` table) and their deliveries as Bull jobs: `webhookAttempts` attempts with a
// fixed backoff, each job logged per receiver (GET /webhooks/{webhookId}/deliveries) with a "retry" action
// (POST /webhooks/{webhookId}/deliveries/{deliveryId}/retry). Signed as `Kowhai-Signature: t=<s>,v1=<hex>`,
// HMAC-SHA256 over `<t>.<raw body>`; deliveries go to loopback receivers only.
import { createHmac, randomBytes } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { HttpError } from './http.ts';
import type { Answer, Ctx, Settings } from './types.ts';
import { check, str } from './validate.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Kowhai-Signature';
export const DELIVERY_HEADER = 'Kowhai-Delivery';

interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
  createdAt: string;
}

interface Attempt {
  attempt: number;
  trigger: 'automatic' | 'retry';
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  status: 'waiting' | 'active' | 'delayed' | 'completed' | 'failed';
  attemptsMade: number;
  attempts: Attempt[];
  body: string;
  createdAt: string;
  finishedAt: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export class WebhookQueue {
  private readonly receivers: Receiver[] = [];
  private readonly deliveries: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextReceiver = 1;
  private nextDelivery = 1;
  private closed = false;

  private readonly settings: () => Settings;
  private readonly audit: AuditLog;
  constructor(settings: () => Settings, audit: AuditLog) {
    this.settings = settings;
    this.audit = audit;
  }

  private receiver(ctx: Ctx): Receiver {
    const r = this.receivers.find((x) => x.id === ctx.params.webhookId && x.tenant === ctx.tenant && x.active);
    if (!r) throw new HttpError(404, 'not_found', 'Webhook not found.');
    return r;
  }

  private view(r: Receiver) {
    return {
      id: r.id,
      url: r.url,
      events: r.events,
      active: r.active,
      createdAt: r.createdAt,
      signatureHeader: SIGNATURE_HEADER,
    };
  }

  private deliveryView(d: Delivery) {
    const { body: _b, tenant: _t, ...rest } = d;
    return {
      ...rest,
      payload: JSON.parse(d.body) as unknown,
      actions: { retry: `/api/public/v1/webhooks/${d.webhookId}/deliveries/${d.id}/retry` },
    };
  }

  create(ctx: Ctx): Answer {
    const body = check(ctx.body, 'body', [str('url', 8, 2048)]);
    let url: URL;
    try {
      url = new URL(body.url as string);
    } catch {
      throw new HttpError(400, 'invalid_request', 'Validation failed.', 'body.url: must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new HttpError(400, 'invalid_request', 'Validation failed.', 'body.url: must be an absolute http(s) URL');
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0 || events.length > 20)
      throw new HttpError(
        400,
        'invalid_request',
        'Validation failed.',
        'body.events: must be an array of 1 to 20 event names',
      );
    const unknown = events.filter((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e));
    if (unknown.length > 0)
      throw new HttpError(
        400,
        'invalid_request',
        'Validation failed.',
        `body.events: one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
    const r: Receiver = {
      id: String(this.nextReceiver++),
      tenant: ctx.tenant,
      url: url.toString(),
      events: [...new Set(events as string[])],
      active: true,
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      createdAt: new Date().toISOString(),
    };
    this.receivers.push(r);
    this.audit.record(ctx.tenant, 'webhook.created', 'webhook', r.id, ctx.clientId, ctx.requestId);
    // The secret is issued exactly once: a replay under the same key shows the receiver without it.
    return { data: { ...this.view(r), secret: r.secret }, replayData: { ...this.view(r), secret: null } };
  }

  list(ctx: Ctx): Answer {
    const webhooks = this.receivers.filter((r) => r.tenant === ctx.tenant && r.active).map((r) => this.view(r));
    return { data: { count: webhooks.length, webhooks } };
  }

  get(ctx: Ctx): Answer {
    return { data: this.view(this.receiver(ctx)) };
  }

  remove(ctx: Ctx): Answer {
    const r = this.receiver(ctx);
    r.active = false;
    this.audit.record(ctx.tenant, 'webhook.deleted', 'webhook', r.id, ctx.clientId, ctx.requestId);
    return { data: { ...this.view(r), deleted: true } };
  }

  log(ctx: Ctx): Answer {
    const r = this.receiver(ctx);
    const deliveries = this.deliveries.filter((d) => d.webhookId === r.id).map((d) => this.deliveryView(d));
    return { data: { webhookId: r.id, count: deliveries.length, deliveries } };
  }

  one(ctx: Ctx): Answer {
    const r = this.receiver(ctx);
    const d = this.deliveries.find((x) => x.webhookId === r.id && x.id === ctx.params.deliveryId);
    if (!d) throw new HttpError(404, 'not_found', 'Delivery not found.');
    return { data: this.deliveryView(d) };
  }

  /** The log's "retry" action: the same job (same body, same delivery id) processed once more. */
  retry(ctx: Ctx): Answer {
    const r = this.receiver(ctx);
    const d = this.deliveries.find((x) => x.webhookId === r.id && x.id === ctx.params.deliveryId);
    if (!d) throw new HttpError(404, 'not_found', 'Delivery not found.');
    d.status = 'waiting';
    d.finishedAt = null;
    this.audit.record(ctx.tenant, 'webhook.delivery.retried', 'delivery', d.id, ctx.clientId, ctx.requestId);
    return { data: { ...this.deliveryView(d), status: 'waiting' }, after: () => this.schedule(d, r, 'retry', 0, 1) };
  }

  /** Enqueues one job per receiver of the tenant subscribed to `event`. */
  publish(tenant: string, event: string, eventNumber: number, data: unknown): void {
    for (const r of this.receivers) {
      if (r.tenant !== tenant || !r.active || !r.events.includes(event)) continue;
      const d: Delivery = {
        id: String(this.nextDelivery++),
        webhookId: r.id,
        tenant,
        eventId: `evt_${tenant}_${eventNumber}`,
        event,
        status: 'waiting',
        attemptsMade: 0,
        attempts: [],
        body: '',
        createdAt: new Date().toISOString(),
        finishedAt: null,
      };
      d.body = JSON.stringify({ id: d.eventId, event, createdAt: d.createdAt, tenant, data });
      this.deliveries.push(d);
      this.schedule(d, r, 'automatic', 0, this.settings().webhookAttempts);
    }
  }

  private schedule(d: Delivery, r: Receiver, trigger: Attempt['trigger'], delay: number, left: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.process(d, r, trigger, left);
    }, delay);
    this.timers.add(t);
  }

  private async process(d: Delivery, r: Receiver, trigger: Attempt['trigger'], left: number): Promise<void> {
    d.status = 'active';
    const started = Date.now();
    const t = Math.floor(started / 1000);
    const v1 = createHmac('sha256', r.secret).update(`${t}.${d.body}`).digest('hex');
    const attempt: Attempt = {
      attempt: d.attemptsMade + 1,
      trigger,
      at: new Date(started).toISOString(),
      statusCode: null,
      error: null,
      durationMs: 0,
    };
    d.attemptsMade += 1;
    try {
      const url = new URL(r.url);
      if (!LOOPBACK.has(url.hostname))
        throw new Error('egress to non-loopback receivers is disabled in this deployment');
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'kowhai-webhooks/1.0 (bull)',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: d.id,
          'Kowhai-Event': d.event,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await answer.arrayBuffer().catch(() => undefined);
      attempt.statusCode = answer.status;
      if (!answer.ok) attempt.error = `receiver answered ${answer.status}`;
    } catch (e) {
      attempt.error = (e as Error).message;
    }
    attempt.durationMs = Date.now() - started;
    d.attempts.push(attempt);
    if (attempt.error === null) {
      d.status = 'completed';
      d.finishedAt = new Date().toISOString();
    } else if (left > 1 && !this.closed) {
      d.status = 'delayed';
      this.schedule(d, r, trigger, this.settings().webhookBackoffMs, left - 1);
    } else {
      d.status = 'failed';
      d.finishedAt = new Date().toISOString();
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
  }
}
