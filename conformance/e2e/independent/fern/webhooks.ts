// Webhook receivers and their deliveries. A delivery is a POST of {id, type, createdAt, data} signed in
// `Fern-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with `Fern-Event` and
// `Fern-Delivery` (the delivery id in the log). Retries: 3 attempts in all (after 1 s and 5 s) on a
// non-2xx or a network error. A resend is a new delivery (new id) of the same event, signed anew.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isoNow } from './http-util.ts';

export const EVENT_NAMES = ['connection.requested', 'connection.ready', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [1000, 5000];

export interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: string;
  createdAt: string;
}

export interface Attempt {
  at: string;
  statusCode: number | null;
  outcome: string;
  durationMs: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  createdAt: string;
  resendOf: string | null;
  attempts: Attempt[];
  body: string;
}

export class Webhooks {
  receivers = new Map<string, Receiver>();
  deliveries = new Map<string, Delivery>();
  timers = new Set<NodeJS.Timeout>();
  closed = false;
  /** FERN_RESEND_SAME_ID: a resend is one more attempt of the same delivery (same id), not a new one. */
  resendSameId = false;

  create(tenant: string, url: string, events: string[]) {
    const r: Receiver = {
      id: randomUUID(),
      tenant,
      url,
      events,
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      status: 'active',
      createdAt: isoNow(),
    };
    this.receivers.set(r.id, r);
    return r;
  }

  /** The receiver as listed (never the signing key). */
  view(r: Receiver) {
    return { id: r.id, url: r.url, events: r.events, status: r.status, createdAt: r.createdAt };
  }

  /** Sends an event of `tenant` to each of its receivers subscribed to it. */
  emit(tenant: string, event: string, data: Record<string, unknown>) {
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type: event, createdAt: isoNow(), data });
    for (const r of this.receivers.values()) {
      if (r.tenant === tenant && r.status === 'active' && r.events.includes(event))
        this.start(r, eventId, event, body, null);
    }
  }

  resend(d: Delivery) {
    const r = this.receivers.get(d.webhookId);
    if (!r) return undefined;
    if (!this.resendSameId) return this.start(r, d.eventId, d.event, d.body, d.id);
    d.status = 'pending';
    setImmediate(() => void this.attempt(r, d, RETRY_DELAYS_MS.length));
    return d;
  }

  log(webhookId: string) {
    return [...this.deliveries.values()]
      .filter((d) => d.webhookId === webhookId)
      .reverse()
      .map((d) => this.deliveryView(d));
  }

  deliveryView(d: Delivery) {
    const { body: _body, ...rest } = d;
    return { ...rest, attempts: d.attempts.map((a) => ({ ...a })) };
  }

  private start(r: Receiver, eventId: string, event: string, body: string, resendOf: string | null) {
    const d: Delivery = {
      id: randomUUID(),
      webhookId: r.id,
      eventId,
      event,
      status: 'pending',
      createdAt: isoNow(),
      resendOf,
      attempts: [],
      body,
    };
    this.deliveries.set(d.id, d);
    setImmediate(() => void this.attempt(r, d, 0));
    return d;
  }

  private async attempt(r: Receiver, d: Delivery, n: number) {
    if (this.closed) return;
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', r.secret).update(`${t}.${d.body}`).digest('hex');
    const began = Date.now();
    let statusCode: number | null = null;
    let outcome = 'delivered';
    try {
      const res = await fetch(r.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'fern-webhooks/1.0',
          'Fern-Signature': `t=${t},v1=${sig}`,
          'Fern-Event': d.event,
          'Fern-Delivery': d.id,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      statusCode = res.status;
      if (res.status < 200 || res.status > 299) outcome = 'receiver_error';
    } catch {
      outcome = 'unreachable';
    }
    d.attempts.push({ at: isoNow(), statusCode, outcome, durationMs: Date.now() - began });
    if (outcome === 'delivered') {
      d.status = 'delivered';
      return;
    }
    const delay = RETRY_DELAYS_MS[n];
    if (delay === undefined || this.closed) {
      d.status = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(r, d, n + 1);
    }, delay);
    this.timers.add(timer);
  }

  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
  }
}
