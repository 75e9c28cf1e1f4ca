// Webhooks of ebony: receivers per tenant, a batch dispatcher draining a delivery queue every few hundred ms,
// signatures `t=<unix-seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` in X-Ebony-Signature, and a
// delivery log whose entries can be triggered again.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, type Call, nowIso } from './http.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'] as const;
export const SIGNATURE_HEADER = 'X-Ebony-Signature';
export const DELIVERY_HEADER = 'X-Ebony-Delivery-ID';
const MAX_ATTEMPTS = 3;

interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  state: 'ACTV';
  createdAt: string;
  secret: string;
}

interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'QUED' | 'SENT' | 'RTRY' | 'FAIL';
  attempts: number;
  responseStatus: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  redeliveryOf: string | null;
  due: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export class Webhooks {
  private readonly hooks = new Map<string, Webhook>();
  private readonly deliveries: Delivery[] = [];
  private hookSeq = 0;
  private deliverySeq = 0;
  private eventSeq = 0;
  private readonly timer: NodeJS.Timeout;
  private busy = false;

  constructor(intervalMs: number) {
    this.timer = setInterval(() => void this.dispatch(), intervalMs);
    this.timer.unref();
  }

  register(call: Call) {
    const url = call.body.url;
    if (typeof url !== 'string' || url.length > 2000 || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
      throw new ApiError('invalid_request', 'Field url must be an http or https address.', 'url');
    }
    const events = call.body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw new ApiError('invalid_request', 'Field events must be an array of 1 to 20 event names.', 'events');
    }
    for (const e of events) {
      if (typeof e !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
        throw new ApiError(
          'invalid_request',
          `Unknown event ${String(e)}.`,
          `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
        );
      }
    }
    const hook: Webhook = {
      id: `WH${pad(++this.hookSeq, 8)}`,
      tenant: call.tenant,
      url,
      events: [...new Set(events as string[])],
      state: 'ACTV',
      createdAt: nowIso(),
      secret: `whsk_${randomBytes(24).toString('hex')}`,
    };
    this.hooks.set(hook.id, hook);
    return { ...view(hook), signingKey: hook.secret, signingKeyNotice: 'Issued once: store it now.' };
  }

  list(call: Call) {
    const webhooks = [...this.hooks.values()].filter((h) => h.tenant === call.tenant).map(view);
    return { count: webhooks.length, webhooks };
  }

  get(call: Call) {
    return view(this.own(call));
  }

  remove(call: Call) {
    const hook = this.own(call);
    this.hooks.delete(hook.id);
    return { ...view(hook), state: 'DELT', deleted: true };
  }

  log(call: Call) {
    const hook = this.own(call);
    const deliveries = this.deliveries.filter((d) => d.webhookId === hook.id).map(logView);
    return { webhookId: hook.id, count: deliveries.length, deliveries };
  }

  redeliver(call: Call) {
    const hook = this.own(call);
    const d = this.deliveries.find((x) => x.id === call.params.deliveryId && x.webhookId === hook.id);
    if (!d) throw new ApiError('not_found', 'The entry does not exist.', `delivery ${call.params.deliveryId}`);
    return logView(this.enqueue(hook, d.eventId, d.event, d.body, d.id));
  }

  /** Queues one event for every receiver of the tenant subscribed to it. */
  emit(tenant: string, event: string, data: Record<string, unknown>): void {
    const eventId = `EV${pad(++this.eventSeq, 10)}`;
    for (const hook of this.hooks.values()) {
      if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
      const body = JSON.stringify({ id: eventId, type: event, createdAt: nowIso(), tenant, data });
      this.enqueue(hook, eventId, event, body, null);
    }
  }

  close(): void {
    clearInterval(this.timer);
  }

  private own(call: Call): Webhook {
    const hook = this.hooks.get(call.params.webhookId ?? '');
    if (!hook || hook.tenant !== call.tenant) {
      throw new ApiError('not_found', 'The entry does not exist.', `webhook ${call.params.webhookId}`);
    }
    return hook;
  }

  private enqueue(hook: Webhook, eventId: string, event: string, body: string, redeliveryOf: string | null): Delivery {
    const d: Delivery = {
      id: `DL${pad(++this.deliverySeq, 10)}`,
      webhookId: hook.id,
      tenant: hook.tenant,
      eventId,
      event,
      body,
      status: 'QUED',
      attempts: 0,
      responseStatus: null,
      createdAt: nowIso(),
      lastAttemptAt: null,
      redeliveryOf,
      due: Date.now(),
    };
    this.deliveries.push(d);
    return d;
  }

  /** One batch: every due delivery, sent side by side; failures retried after 1 s, 2 s, then FAIL. */
  private async dispatch(): Promise<void> {
    if (this.busy) return;
    const now = Date.now();
    const due = this.deliveries
      .filter((d) => (d.status === 'QUED' || d.status === 'RTRY') && d.due <= now)
      .slice(0, 50);
    if (due.length === 0) return;
    this.busy = true;
    try {
      await Promise.all(due.map((d) => this.send(d)));
    } finally {
      this.busy = false;
    }
  }

  private async send(d: Delivery): Promise<void> {
    const hook = this.hooks.get(d.webhookId);
    if (!hook) {
      d.status = 'FAIL';
      return;
    }
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
    d.attempts += 1;
    d.lastAttemptAt = nowIso();
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ebony-dispatcher/1.0',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: d.id,
          'X-Ebony-Event': d.event,
          'X-Ebony-Event-ID': d.eventId,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      d.responseStatus = res.status;
      await res.body?.cancel();
      if (res.ok) {
        d.status = 'SENT';
        return;
      }
    } catch {
      d.responseStatus = null;
    }
    d.status = d.attempts >= MAX_ATTEMPTS ? 'FAIL' : 'RTRY';
    d.due = Date.now() + 1000 * 2 ** (d.attempts - 1);
  }
}

function view(h: Webhook) {
  return { id: h.id, url: h.url, events: h.events, state: h.state, createdAt: h.createdAt };
}

function logView(d: Delivery) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    createdAt: d.createdAt,
    lastAttemptAt: d.lastAttemptAt,
    redeliveryOf: d.redeliveryOf,
  };
}
