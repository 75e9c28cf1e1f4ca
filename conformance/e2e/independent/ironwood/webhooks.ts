// Webhooks of ironwood: receivers per tenant, signed deliveries (header Ironwood-Signature:
// t=<unix-seconds>,v1=<hex HMAC-SHA256 over "<t>.<raw body>">), a delivery log and redelivery.
// Retry policy (not shown by the contract): a failed attempt is retried after 1 s and 3 s.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { ApiError } from './http-util.ts';
import type { Delivery, State, Webhook } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.succeeded', 'order.created', 'order.paid'];
/** Event Grid style names (IRONWOOD_EVENT_GRID=1), delivered as CloudEvents 1.0 structured JSON. */
const EVENT_GRID: Record<string, string> = {
  'connection.created': 'Ironwood.Connections.ConnectionCreated',
  'connection.succeeded': 'Ironwood.Connections.ConnectionSucceeded',
  'order.created': 'Ironwood.Orders.OrderCreated',
  'order.paid': 'Ironwood.Orders.OrderPaid',
};
export const SIGNATURE_HEADER = 'Ironwood-Signature';
const RETRY_DELAYS = [1000, 3000];

export function newWebhook(tenant: string, url: string, events: string[]): Webhook {
  return {
    id: randomUUID(),
    tenant,
    url,
    events,
    signingKey: `whsec_${randomBytes(32).toString('base64url')}`,
    createdAt: new Date().toISOString(),
    deleted: false,
  };
}

export function checkUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError('invalid_request', "The field 'url' is invalid.", 'url: must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError('invalid_request', "The field 'url' is invalid.", 'url: must be an absolute http(s) URL');
  }
}

export function checkEvents(events: string[], names: string[]): void {
  for (const e of events) {
    if (!names.includes(e)) {
      throw new ApiError('invalid_request', "The field 'events' is invalid.", `events: one of ${names.join(', ')}`);
    }
  }
}

/** The public view of a logged delivery. */
export function deliveryView(d: Delivery): Record<string, unknown> {
  const { body: _body, tenant: _tenant, ...rest } = d;
  return rest;
}

export class Dispatcher {
  state: State;
  timers = new Set<NodeJS.Timeout>();
  closed = false;
  eventGrid: boolean;
  /** The event names receivers subscribe to. */
  names: string[];

  constructor(state: State, eventGrid = false) {
    this.state = state;
    this.eventGrid = eventGrid;
    this.names = eventGrid ? EVENT_NAMES.map((n) => EVENT_GRID[n] ?? n) : [...EVENT_NAMES];
  }

  /** Fans one event of a tenant out to every receiver subscribed to it. */
  emit(tenant: string, internalType: string, data: Record<string, unknown>): void {
    const eventId = randomUUID();
    const time = new Date().toISOString();
    const eventType = this.eventGrid ? (EVENT_GRID[internalType] ?? internalType) : internalType;
    const body = JSON.stringify(
      this.eventGrid
        ? {
            specversion: '1.0',
            id: eventId,
            source: `/tenants/${tenant}`,
            type: eventType,
            time,
            datacontenttype: 'application/json',
            data,
          }
        : { id: eventId, type: eventType, time, data },
    );
    for (const w of this.state.webhooks.values()) {
      if (w.tenant !== tenant || w.deleted || !w.events.includes(eventType)) continue;
      this.start(w, eventId, eventType, body, null);
    }
  }

  /** Sends a logged delivery again as a new delivery of the same event (same body, fresh signature). */
  redeliver(original: Delivery): Delivery {
    const w = this.state.webhooks.get(original.webhookId);
    if (!w || w.deleted) throw new ApiError('not_found', 'The webhook of this delivery no longer exists.');
    return this.start(w, original.eventId, original.eventType, original.body, original.id);
  }

  private start(w: Webhook, eventId: string, eventType: string, body: string, of: string | null): Delivery {
    const d: Delivery = {
      id: randomUUID(),
      webhookId: w.id,
      tenant: w.tenant,
      eventId,
      eventType,
      body,
      status: 'Pending',
      attempts: 0,
      responseStatus: null,
      createdAt: new Date().toISOString(),
      lastAttemptAt: null,
      redeliveryOf: of,
    };
    this.state.deliveries.set(d.id, d);
    void this.attempt(w, d);
    return d;
  }

  private async attempt(w: Webhook, d: Delivery): Promise<void> {
    if (this.closed) return;
    d.attempts += 1;
    d.lastAttemptAt = new Date().toISOString();
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', w.signingKey).update(`${t}.${d.body}`).digest('hex');
    const status = await post(w.url, d.body, {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: `t=${t},v1=${sig}`,
      'Ironwood-Delivery-Id': d.id,
      'Ironwood-Event-Type': d.eventType,
      'user-agent': 'Ironwood-Webhooks/2026-07-01',
    });
    d.responseStatus = status;
    if (status >= 200 && status < 300) {
      d.status = 'Succeeded';
      return;
    }
    const wait = RETRY_DELAYS[d.attempts - 1];
    if (wait === undefined || this.closed) {
      d.status = 'Failed';
      return;
    }
    d.status = 'Retrying';
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(w, d);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** One POST to a receiver; the status, or 0 when unreachable or slower than 5 s. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    try {
      const req = request(url, { method: 'POST', headers, timeout: 5000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
      req.end(body);
    } catch {
      resolve(0);
    }
  });
}
